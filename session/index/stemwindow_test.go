package index

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// stemWindowIndex is an index of the forms of test and of more than
// maxCandidates other words that start with junk, as a word list or a
// list of identifiers would.
func stemWindowIndex(t *testing.T, junk string) *Index {
	t.Helper()
	store := newStore(t)
	var words []string
	for i := range maxCandidates + 50 {
		words = append(words, fmt.Sprintf("%s%03d", junk, i))
	}
	prompt(t, store, strings.Join(words, " "))
	prompt(t, store, "the testing of it")
	prompt(t, store, "two tests passed")
	prompt(t, store, "a test")
	return openCurrent(t, store)
}

// The forms of a word are looked for among a window of maxCandidates
// words of the index; words that start as its stem but for its last
// letter (tesa…) filled it, and stemming found no form at all.
func TestStemWindowFromTheStem(t *testing.T) {
	ix := stemWindowIndex(t, "tesa")
	for _, q := range []string{"testing", "tests", "test"} {
		if got, want := markedHits(t, ix, Query{Text: q, Stem: true}), []string{"test", "testing", "tests"}; !slices.Equal(got, want) {
			t.Errorf("%q with stemming: marked %q, want %q", q, got, want)
		}
	}
}

// A word always finds itself, however many words that start with its stem
// (testa…) push its other forms out of the window: "testing" found only
// "test" when "test" alone came within it.
func TestStemWindowKeepsTheWord(t *testing.T) {
	ix := stemWindowIndex(t, "testa")
	for _, q := range []string{"testing", "tests", "test"} {
		if got := markedHits(t, ix, Query{Text: q, Stem: true}); !slices.Contains(got, q) {
			t.Errorf("%q with stemming: marked %q, not the word itself", q, got)
		}
	}
}
