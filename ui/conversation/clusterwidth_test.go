package conversation

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"muse/theme"
	"muse/ui/textfmt"
)

// clusterReply is a reply whose paragraph, quote, table and code block
// hold the clusters terminals disagree on.
const clusterReply = "Text 👍🏽 and 🇫🇷 and 👨‍👩‍👧 and n\u0303o here 👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧 x y z.\n\n" +
	"> quote 👨‍👩‍👧 q\n\n" +
	"| name | what |\n|---|---|\n| 👍🏽 | x |\n| 🇫🇷 | y |\n| 👨‍👩‍👧 | z |\n| n\u0303o | w |\n| plain | v |\n\n" +
	"```go\nfoo 👨‍👩‍👧 bar\nplain line\n```\n"

// TestGlamourLinesFitBothWidthModes renders a reply holding 👍🏽, 🇫🇷, 👨‍👩‍👧
// and n with a combining tilde, untrimmed, in each width mode: every line
// glamour pads is as wide as the plain ones, measured as the terminal
// draws it, and the table's column border stands in one column on every
// row. Glamour measured per code point and lipgloss per cluster: in the
// Clusters mode rows with 👍🏽 or 👨‍👩‍👧 came out 2 and 4 columns short; in
// the CodePoints mode the table's border moved right on those rows.
func TestGlamourLinesFitBothWidthModes(t *testing.T) {
	const width = 30
	for _, mode := range []textfmt.WidthMode{textfmt.Clusters, textfmt.CodePoints} {
		textfmt.SetWidthMode(mode)
		th, err := theme.New("dark", true)
		if err != nil {
			t.Fatal(err)
		}
		md := newMarkdown(th.Markdown, termenv.TrueColor)
		out, ok := md.glamour(clusterReply, width)
		if !ok {
			t.Fatal("glamour failed")
		}
		border := -1
		for _, l := range strings.Split(out, "\n") {
			plain := ansi.Strip(l)
			if plain == "" {
				continue
			}
			if w := textfmt.Width(l); w != width {
				t.Errorf("mode %d: line %q is %d columns, want %d", mode, plain, w, width)
			}
			if i := strings.Index(plain, "│"); i > 0 && !strings.HasPrefix(plain, "│") {
				col := textfmt.Width(plain[:i])
				if border < 0 {
					border = col
				} else if col != border {
					t.Errorf("mode %d: the table's border is at column %d in %q, %d above", mode, col, plain, border)
				}
			}
		}
		for _, c := range []string{"👍🏽", "🇫🇷", "👨‍👩‍👧", "n\u0303o", "foo 👨‍👩‍👧 bar"} {
			if !strings.Contains(ansi.Strip(out), c) {
				t.Errorf("mode %d: %q is lost:\n%s", mode, c, ansi.Strip(out))
			}
		}
	}
	textfmt.SetWidthMode(textfmt.Clusters)
}

// TestGlamourWrapsAtClusterWidth: a paragraph of families wraps where the
// terminal's width says, not at their width per code point (6 each).
func TestGlamourWrapsAtClusterWidth(t *testing.T) {
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	md := newMarkdown(th.Markdown, termenv.Ascii)
	out := md.render(strings.Repeat("👨‍👩‍👧 ", 20), 30)
	first := strings.Split(out, "\n")[0]
	if w := textfmt.Width(first); w < 27 {
		t.Errorf("the first line is %d columns of 30: %q", w, first)
	}
}
