package index

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"muse/api"
	"muse/session"
)

func TestParseQuery(t *testing.T) {
	for q, want := range map[string]string{
		`zebra`:                  `"zebra"`,
		`zebra unicorn`:          `("zebra" AND "unicorn")`,
		`"exact phrase" uni*`:    `("exact phrase" AND "uni" *)`,
		`a OR b c`:               `("a" OR ("b" AND "c"))`,
		`a NOT b`:                `("a" NOT "b")`,
		`(a OR b) AND c`:         `(("a" OR "b") AND "c")`,
		`x"); DROP TABLE s; --`:  `(("x" AND "); DROP TABLE s; --")`,
		`and or not`:             `(("and" AND "or") AND "not")`,
		`col:val ^start NEAR(a)`: `((("col:val" AND "^start") AND "NEAR") AND "a")`,
	} {
		p, err := parseQuery(q)
		if err != nil {
			if q == `x"); DROP TABLE s; --` {
				continue // an unclosed quote: an error is right too
			}
			t.Errorf("%q: %v", q, err)
			continue
		}
		if p.match != want {
			t.Errorf("%q became %s, want %s", q, p.match, want)
		}
	}
}

func TestQuerySyntaxErrors(t *testing.T) {
	for q, want := range map[string]string{
		`"unclosed`: "quote is not closed",
		`""`:        "empty phrase",
		`NOT a`:     "NOT needs a word before it",
		`a OR`:      "OR at the end",
		`a AND`:     "AND at the end",
		`OR a`:      "OR needs a word before it",
		`(a b`:      "( is not closed",
		`a b)`:      ") has no (",
		`()`:        "holds nothing",
		`*`:         "a * ends a word",
		`   `:       "nothing to search for",
	} {
		_, err := parseQuery(q)
		if !IsSyntax(err) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want a syntax error saying %q", q, err, want)
		}
	}
}

// seeded returns an index of a few sessions to search.
func seeded(t *testing.T) (*session.Store, *Index) {
	t.Helper()
	store := newStore(t)
	day := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	add := func(title, model string, at time.Time, prompt, reply string) string {
		w := session.NewWriter(store, session.Params{Model: model})
		w.SetTitle(title)
		w.Append(session.Entry{Kind: session.KindUser, Text: prompt, Time: at})
		w.Append(session.Entry{Kind: session.KindAssistant, Time: at.Add(time.Second), Message: &api.Message{Model: model, Content: []api.ContentBlock{{Type: api.BlockText, Text: reply}}}})
		w.Close()
		return w.ID()
	}
	add("zoo trip", "claude-opus", day, "tell me about the zebra", "A zebracorn is not a zebra.")
	add("garden", "claude-haiku", day.AddDate(0, 0, 10), "plant an apple tree", "Apples like sun; zebra grass too.")
	add("café", "claude-haiku", day.AddDate(0, 0, 20), "Crème brûlée recipe", "Use a torch on the CAFÉ table.")
	return store, openCurrent(t, store)
}

func TestSearch(t *testing.T) {
	_, ix := seeded(t)
	day := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		q    Query
		want []string // the snippets' marked words, hit by hit
	}{
		{Query{Text: "zebra"}, []string{"zebra", "zebra", "zebra"}},
		{Query{Text: "zebra", Role: RoleUser}, []string{"zebra"}},
		{Query{Text: "zebra", Model: "HAIKU"}, []string{"zebra"}},
		{Query{Text: "zebra", Since: day.AddDate(0, 0, 5)}, []string{"zebra"}},
		{Query{Text: "zebra", Until: day.AddDate(0, 0, 5)}, []string{"zebra", "zebra"}},
		{Query{Text: "zebra*", Until: day.AddDate(0, 0, 5), Role: RoleAssistant}, []string{"zebracorn zebra"}},
		{Query{Text: `"not a zebra"`}, []string{"A not a zebra"}}, // a phrase's words are marked wherever they are
		{Query{Text: "zebra NOT zebracorn", ByTime: true}, []string{"zebra", "zebra"}},
		{Query{Text: "apple OR torch", ByTime: true}, []string{"torch", "apple"}},
		{Query{Text: "cafe creme"}, []string{}},
		{Query{Text: "cafe OR creme", ByTime: true}, []string{"CAFÉ", "Crème"}},
	} {
		hits, err := ix.Search(c.q)
		if err != nil {
			t.Fatalf("%+v: %v", c.q, err)
		}
		var got []string
		for _, h := range hits {
			var marked []string
			for _, p := range h.Snippet {
				if p.Match {
					marked = append(marked, p.Text)
				}
			}
			got = append(got, strings.Join(marked, " "))
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%+v: found %q, want %q", c.q, got, c.want)
		}
	}
}

// No query, however odd, gives an error from SQLite: only syntax errors,
// or hits.
func TestOddQueriesNeverReachSQLite(t *testing.T) {
	_, ix := seeded(t)
	r := rand.New(rand.NewPCG(7, 8))
	pieces := []string{`"`, `*`, `(`, `)`, `AND`, `OR`, `NOT`, `NEAR`, `:`, `^`, `-`, `+`, `'`, `;`, `zebra`, `zeb*`, ` `, `\x00`, `é`, `{`, `}`, `col:x`}
	for range 2000 {
		var b strings.Builder
		for range 1 + r.IntN(6) {
			b.WriteString(pieces[r.IntN(len(pieces))])
			if r.IntN(2) == 0 {
				b.WriteByte(' ')
			}
		}
		if _, err := ix.Search(Query{Text: b.String()}); err != nil && !IsSyntax(err) {
			t.Fatalf("%q: %v", b.String(), err)
		}
	}
}

func TestSnippetWindow(t *testing.T) {
	p, _ := parseQuery("needle")
	text := strings.Repeat("hay ", 100) + "needle" + strings.Repeat(" straw", 100)
	parts := snippet(text, p)
	if parts[0].Text != "…" || parts[len(parts)-1].Text != "…" {
		t.Fatalf("no ellipses: %+v", parts)
	}
	var n int
	for _, x := range parts {
		n += len([]rune(x.Text))
		if x.Match && x.Text != "needle" {
			t.Fatalf("marked %q", x.Text)
		}
	}
	if n > snippetRunes+2 {
		t.Fatalf("the snippet is %d runes long", n)
	}
}

// A hit on a branch that is not the active one names the end of its
// branch, to open, and its turn on that branch.
func TestSearchFindsEveryBranch(t *testing.T) {
	store := newStore(t)
	w := session.NewWriter(store, session.Params{})
	q1, _ := w.Append(session.Entry{Kind: session.KindUser, Text: "first question"})
	w.Append(session.Entry{Kind: session.KindAssistant, Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: "first answer"}}}})
	w.Append(session.Entry{Kind: session.KindUser, Text: "second question"})
	a2, _ := w.Append(session.Entry{Kind: session.KindAssistant, Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: "second answer"}}}})
	// An edit of the first question: the active branch leaves a2 behind.
	w.AppendAt(session.Entry{Kind: session.KindUser, Text: "edited question"}, q1.Parent)
	w.Close()
	ix := openCurrent(t, store)
	hits, err := ix.Search(Query{Text: `"second answer"`})
	if err != nil || len(hits) != 1 {
		t.Fatalf("hits %+v, %v", hits, err)
	}
	if h := hits[0]; h.Entry != a2.ID || h.Leaf != a2.ID || h.Active || h.Turn != 2 {
		t.Errorf("hit %+v: want %s, on its own branch, turn 2", h, a2.ID)
	}
	hits, _ = ix.Search(Query{Text: "edited"})
	if len(hits) != 1 || !hits[0].Active || hits[0].Turn != 1 {
		t.Errorf("hit on the active branch: %+v", hits)
	}
}

// A search may return more hits than a statement takes values.
func TestSearchManyHits(t *testing.T) {
	store := newStore(t)
	w := session.NewWriter(store, session.Params{})
	for i := range 1200 {
		if _, err := w.Append(session.Entry{Kind: session.KindUser, Text: fmt.Sprintf("zebra number %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	ix := openCurrent(t, store)
	hits, err := ix.Search(Query{Text: "zebra", Limit: 5000})
	if err != nil || len(hits) != 1200 {
		t.Fatalf("%d hits, %v; want 1200", len(hits), err)
	}
	seen := map[string]bool{}
	for _, h := range hits {
		seen[h.SnippetText()] = true
	}
	for i := range 1200 {
		if want := fmt.Sprintf("zebra number %d", i); !seen[want] {
			t.Fatalf("no hit %q", want)
		}
	}
}
