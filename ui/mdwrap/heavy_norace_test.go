//go:build !race

// This test renders with glamour the longest text of each shape the Meter
// lets through, which the race detector makes ten times slower and can
// find nothing in: it runs in the plain pass only.

package mdwrap

import (
	"strings"
	"testing"

	"github.com/charmbracelet/glamour"

	"muse/theme"
	"muse/ui/internal/streamtest"
)

// The longest text of each shape that is not heavy renders in glamour
// with at most 256 MB allocated, at 80 columns: lists flat, nested and
// stepped 20 deep, twenty list markers or quote markers on a line (936 MB
// and 291 MB for 6.5 KB and 3.7 KB, before each block a line opens
// counted again), definitions, a table, short items and prose. Heavy text
// is shown plain, so no render costs more.
func TestLightTextIsCheap(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 200 MB with glamour")
	}
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	var stair strings.Builder
	for k := range 20 {
		stair.WriteString(strings.Repeat("  ", k) + "- a\n")
	}
	const width = 80
	r, err := glamour.NewTermRenderer(glamour.WithStyles(th.Markdown), glamour.WithWordWrap(width))
	if err != nil {
		t.Fatal(err)
	}
	for name, unit := range map[string]string{
		"flat list": "- a\n", "nested list": "- a\n  - b\n", "stepped list": stair.String(),
		"list markers": strings.Repeat("- ", 20) + "a\n", "quote markers": strings.Repeat("> ", 20) + "a\n\n",
		"definitions": "a\n: b\n\n", "table": "| a | b |\n", "items": "- abcdefghijklmno\n",
		"prose": strings.Repeat("word ", 16) + "\n\n",
	} {
		n := (1 << 20) / len(unit)
		text := func(k int) string { return strings.Repeat(unit, k) }
		lo, hi := 0, n // the most units of unit that are not heavy
		for lo < hi {
			if mid := (lo + hi + 1) / 2; Heavy(text(mid), width) {
				hi = mid - 1
			} else {
				lo = mid
			}
		}
		src := text(lo)
		got := streamtest.Allocated(func() {
			if _, err := r.Render(Words(src, th.Markdown, width)); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s: %d bytes light, %d MB allocated", name, len(src), got>>20)
		if got > 256<<20 {
			t.Errorf("%s: %d bytes found light cost glamour %d MB; want at most 256", name, len(src), got>>20)
		}
	}
}
