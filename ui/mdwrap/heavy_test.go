package mdwrap

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/glamour/styles"
	xansi "github.com/charmbracelet/x/ansi"

	"muse/ui/internal/streamtest"
)

// heavyShapes are the attacker's replies, 640 KB each, that glamour
// allocated ~8 KB a byte for (a nested list: 768 MB for 80 KB, out of
// memory at 640 KB).
var heavyShapes = map[string]string{
	"flat list":       strings.Repeat("- a\n", 160_000),
	"nested list":     strings.Repeat("- a\n  - b\n", 64_000),
	"numbered list":   strings.Repeat("1. a\n", 128_000),
	"definition list": strings.Repeat("a\n: b\n\n", 106_000),
	"deep list":       strings.Repeat("- a\n  - b\n    - c\n      - d\n", 23_000),
	// More columns than the width: lipgloss shrank each row column by
	// column (100,000 columns, 800 KB: 33.6 s).
	"wide table": "|" + strings.Repeat("a|", 2000) + "\n|" + strings.Repeat("-|", 2000) + "\n" + strings.Repeat("|"+strings.Repeat("b|", 2000)+"\n", 100),
}

// Each heavy shape is found heavy at 80 and 200 columns, from its first
// 20 KB on (glamour allocated 166 MB for 20 KB of the flat list), and
// prose is heavy only past the cap: in paragraphs of a line, from about
// 350 KB on.
func TestHeavyShapesAreFound(t *testing.T) {
	for name, src := range heavyShapes {
		for _, w := range []int{80, 200} {
			if !Heavy(src, w) || !Heavy(src[:20_000], w) || !Dense(src, w) {
				t.Errorf("%s at %d columns: not found heavy", name, w)
			}
		}
	}
	prose := strings.Repeat("A sentence of a long reply, with **bold** and a [link](https://example.com/).\n\n", 50_000)
	if Dense(prose, 80) || !Heavy(prose, 80) || Heavy(prose[:300_000], 80) {
		t.Errorf("4 MB of prose: dense %v, heavy %v, 300 KB heavy %v; want heavy past the cap only",
			Dense(prose, 80), Heavy(prose, 80), Heavy(prose[:300_000], 80))
	}
}

// The replies a model writes are never heavy, at 80 columns or 200: long
// lists of links, tables, code, prose, quotes, the README, and a list of
// a thousand file names.
func TestOrdinaryRepliesAreNotHeavy(t *testing.T) {
	replies := ordinaryReplies()
	var files strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&files, "- `src/pkg%d/file_%d.go`\n", i%17, i)
	}
	replies["files"] = files.String()
	for name, src := range replies {
		for _, w := range []int{80, 200} {
			if Heavy(src, w) {
				t.Errorf("%s (%d bytes) at %d columns: found heavy", name, len(src), w)
			}
		}
	}
}

// Plain shows every line of the text, each cut at the width, and costs
// bytes allocated linear in its length: four times the text, at most
// five times the bytes.
func TestPlainShowsAllLinearly(t *testing.T) {
	src := heavyShapes["nested list"] + streamtest.Blob(10_000) + "\nend\n"
	lines := Plain(src, 80)
	if len(lines) != 128_000+125+1 {
		t.Errorf("%d lines, want %d", len(lines), 128_000+125+1)
	}
	for i, l := range lines {
		if xansi.StringWidth(l) > 80 {
			t.Fatalf("line %d is %d columns wide", i, xansi.StringWidth(l))
		}
	}
	cost := func(n int) uint64 {
		s := heavyShapes["nested list"][:n] + streamtest.Blob(n/8)
		return streamtest.Allocated(func() { Plain(s, 80) })
	}
	if small, large := cost(160_000), cost(640_000); large > 5*small {
		t.Errorf("four times the text took %.1f times the bytes (%d, %d)", float64(large)/float64(small), small, large)
	}
}

// A word of clusters each holding many code points ("a" and 31 accents,
// one column, 63 bytes) is broken at 8 bytes a column as well as at the
// width: reflow's wrapper, which glamour wraps paragraphs with, measures
// the word again for each code point, so a word of 80 such clusters cost
// it 2,500 measures of 5 KB each (107 MB allocated for 80 KB).
func TestWordsBreaksByBytes(t *testing.T) {
	for _, src := range []string{
		"hi " + strings.Repeat("a"+strings.Repeat("\u0301", 31), 1000) + " end\n",
		// U+0600 prepends to the next character: clusters of no width.
		"hi " + strings.Repeat("\u0600a", 40_000) + " end\n",
	} {
		wordsBreakByBytes(t, src)
	}
}

func wordsBreakByBytes(t *testing.T, src string) {
	t.Helper()
	out := Words(src, styles.DarkStyleConfig, 80)
	longest := 0
	for w := range strings.FieldsSeq(out) {
		longest = max(longest, len(w))
	}
	if longest > 640 {
		t.Errorf("a word of %d bytes is left whole; want at most 640 (8 a column)", longest)
	}
	if got := strings.Join(strings.Fields(out), ""); got != strings.Join(strings.Fields(src), "") {
		t.Error("breaking the words changed the text")
	}
}
