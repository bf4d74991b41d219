package index

import (
	"slices"
	"strings"
	"testing"
)

// stemSeeded is an index of one prompt a session, for the stemming tests.
func stemSeeded(t *testing.T) *Index {
	t.Helper()
	store := newStore(t)
	for _, p := range []string{
		"Whales sing at dawn",
		"the whaling ship left",
		"a whale is large",
		"whalebone corsets",
		"two CAFÉS on the corner",
		"the Capybäras swim",
		"generalization is hard",
		"happiness is a warm gun",
		"the runner was running",
	} {
		prompt(t, store, p)
	}
	return openCurrent(t, store)
}

// markedHits returns the marked words of each hit, sorted.
func markedHits(t *testing.T, ix *Index, q Query) []string {
	t.Helper()
	res, err := ix.Search(q)
	if err != nil {
		t.Fatalf("%+v: %v", q, err)
	}
	var got []string
	for _, h := range res.Hits {
		got = append(got, marked(h.Snippet))
	}
	slices.Sort(got)
	return got
}

// With stemming, a word finds its other forms, as SQLite's porter stemmer
// tells them, and the snippet marks the form each entry holds; accents
// and case still fold. Without, only the word.
func TestStemFindsForms(t *testing.T) {
	ix := stemSeeded(t)
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"whale", []string{"Whales", "whale", "whaling"}}, // not whalebone: another stem
		{"whales", []string{"Whales", "whale", "whaling"}},
		{"WHALING", []string{"Whales", "whale", "whaling"}},
		{"café", []string{"CAFÉS"}},
		{"cafe", []string{"CAFÉS"}},
		{"capybara", []string{"Capybäras"}},
		{"happy", []string{"happiness"}},
		{"run", []string{"running"}}, // runner is a stem of its own to porter
		{"generalizations", []string{"generalization"}},
		{"whale sing", []string{"Whales|sing"}},
		{"whale NOT ship", []string{"Whales", "whale"}},
		{"ship OR cafes", []string{"CAFÉS", "ship"}},
		{`"whales"`, []string{"Whales"}}, // a phrase is as typed
		{"whal*", []string{"Whales", "whale", "whalebone", "whaling"}},
		{"zebra", nil},
	} {
		got := markedHits(t, ix, Query{Text: c.q, Stem: true})
		if !slices.Equal(got, c.want) {
			t.Errorf("%q with stemming: marked %q, want %q", c.q, got, c.want)
		}
	}
	if got := markedHits(t, ix, Query{Text: "whale"}); !slices.Equal(got, []string{"whale"}) {
		t.Errorf("whale without stemming: marked %q, want only whale", got)
	}
}

// Prefixes keep working with stemming, as the picker types them: the
// last word as a prefix finds the words it starts, whatever their stem
// (capy is capi to porter, and generali the start of gener).
func TestStemKeepsPrefixes(t *testing.T) {
	ix := stemSeeded(t)
	for q, want := range map[string][]string{
		"capy":       {"Capybäras"},
		"CAPYBÄ":     {"Capybäras"},
		"generali":   {"generalization"},
		"genera":     {"generalization"},
		"whale":      {"Whales", "whale", "whalebone", "whaling"}, // its forms, and the words it starts
		"cafe corne": {"CAFÉS|corner"},
	} {
		if got := markedHits(t, ix, Query{Text: q, Stem: true, PrefixLast: true}); !slices.Equal(got, want) {
			t.Errorf("%q with stemming, as typed: marked %q, want %q", q, got, want)
		}
	}
}

// A word that is two to the tokenizer (don't), or a word no entry has,
// is searched as it is.
func TestStemOddWords(t *testing.T) {
	store := newStore(t)
	prompt(t, store, "don't panic")
	ix := openCurrent(t, store)
	for _, q := range []string{"don't", "panic", "panicked OR don't"} {
		if got := markedHits(t, ix, Query{Text: q, Stem: true}); len(got) != 1 || !strings.Contains(got[0], "panic") && !strings.Contains(got[0], "don") {
			t.Errorf("%q: marked %q", q, got)
		}
	}
	for _, q := range []string{"zebra", "ünknown", "x"} {
		if got := markedHits(t, ix, Query{Text: q, Stem: true}); len(got) != 0 {
			t.Errorf("%q: marked %q, want nothing", q, got)
		}
	}
}
