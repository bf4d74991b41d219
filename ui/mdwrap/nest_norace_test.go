//go:build !race

package mdwrap

// A single goroutine renders 200,000-deep replies here: about 3 s plain,
// 40-57 s under the race detector, which can find nothing in it. .ci/test
// runs this file in its pass without -race.

import (
	"strings"
	"testing"

	"github.com/charmbracelet/glamour/styles"
)

// Text nested deeper than MaxNest is rendered as the characters it holds,
// flat: Words returns it with its punctuation escaped, and nothing in it
// nests any more.
func TestDeepNestingIsFlattened(t *testing.T) {
	for name, src := range deepShapes {
		if !TooDeep(src) {
			t.Errorf("%s: not found too deep", name)
			continue
		}
		out := Words(src, styles.DarkStyleConfig, 80)
		if d := depth(Parse([]byte(out))); d > 3 {
			t.Errorf("%s: what Words returns nests %d deep", name, d)
		}
	}
	// Emphasis that pairs without nesting costs no walk deeper than it
	// nests (at 200,000 delimiters in one paragraph it is shown flat, as
	// more than the parser matches in linear time: see costly).
	mixed := strings.Repeat("*_", 50_000) + "x" + strings.Repeat("_*", 50_000)
	if out := Words(mixed, styles.DarkStyleConfig, 80); depth(Parse([]byte(out))) > MaxNest+2 {
		t.Errorf("mixed emphasis: what Words returns nests too deep")
	}
}
