package cli

import (
	"io"
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"muse/theme"
	"muse/ui/internal/streamtest"
)

// printRender returns -p's render of md on a terminal of width columns.
func printRender(tb testing.TB, md string, width int) string {
	tb.Helper()
	th, err := theme.New("dark", true)
	if err != nil {
		tb.Fatal(err)
	}
	o, err := newMDOut(io.Discard, th.Markdown, termenv.TrueColor, width)
	if err != nil {
		tb.Fatal(err)
	}
	return o.render(md)
}

// TestPrintLongWordCostIsLinear renders a reply holding one long word as
// -p does on a terminal and counts the bytes allocated: four times the
// word takes at most five times the bytes. Glamour's word wrapper copies
// the word it is building for each character it adds, so unbroken words
// cost the square of their length.
func TestPrintLongWordCostIsLinear(t *testing.T) {
	render := func(n int) uint64 {
		md := "The image, as base64: " + streamtest.Blob(n) + " and that is all.\n"
		return streamtest.Allocated(func() { printRender(t, md, 80) })
	}
	render(100)
	small, large := render(4000), render(16000)
	t.Logf("bytes allocated: %d for a word of 4,000 bytes, %d for 16,000", small, large)
	if large > 5*small {
		t.Errorf("a word four times as long took %.1f times the bytes; want at most 5", float64(large)/float64(small))
	}
}

// BenchmarkPrintLongWord renders a reply of 1 MB as -p does on a terminal:
// one unbroken word, ordinary prose, and ordinary words in one paragraph.
func BenchmarkPrintLongWord(b *testing.B) {
	const size = 1 << 20
	const para = "Streaming text arrives word by word, and the screen must keep up without drawing again what it has drawn before. " +
		"A reply may hold lists, tables and code, but mostly it holds sentences like this one, a few to a paragraph.\n\n"
	prose := strings.Repeat(para, size/len(para)+1)[:size]
	for _, c := range []struct{ name, text string }{
		{"word", streamtest.Blob(size)},
		{"prose", prose},
		{"paragraph", strings.ReplaceAll(prose, "\n\n", "  ")},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				printRender(b, c.text, 100)
			}
		})
	}
}
