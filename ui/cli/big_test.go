//go:build !race

// These tests run one goroutine over large inputs, so the race detector
// can find nothing in them and only makes them slow (about 100 s of the
// race pass): they are built without -race only, and the README's test
// command runs them in its second, plain pass.

package cli

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"muse/ui/internal/streamtest"
)

// TestPrintMegabyteWordShowsWhole renders a reply holding one word of 1 MB
// as -p does on a terminal: it is cut into lines no wider than the
// terminal, and nothing of it is lost.
func TestPrintMegabyteWordShowsWhole(t *testing.T) {
	word := streamtest.Blob(1 << 20)
	const width = 100
	out := printRender(t, "Here: "+word+" end", width)
	var got strings.Builder
	full := 0
	for _, l := range strings.Split(out, "\n") {
		v := ansi.Strip(l)
		if w := ansi.StringWidth(v); w > width {
			t.Fatalf("a line of %d columns on a terminal of %d", w, width)
		} else if w == width {
			full++
		}
		got.WriteString(strings.Join(strings.Fields(v), ""))
	}
	if want := "Here:" + word + "end"; got.String() != want {
		t.Fatalf("the word shows changed: %d bytes of text, want %d", got.Len(), len(want))
	}
	if want := len(word)/width - 1; full < want {
		t.Errorf("%d lines fill the terminal's width, want %d: the word is not cut at the width", full, want)
	}
}
