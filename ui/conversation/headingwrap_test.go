package conversation

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"muse/theme"
)

// TestLongHeadingWraps renders the new-user review's long heading at
// every level (the first a banner) at 40, 60 and 80 columns, in colour
// and without: every line fits the width by display width, the heading
// wraps between words (its words, read line by line, are the heading's
// words in order: none is cut or lost) and nothing is marked cut ("…").
func TestLongHeadingWraps(t *testing.T) {
	const title = "Long answer: please explain the supercalifragilisticexpialidocious caching layer in great detail"
	want := strings.Fields(title)
	for _, p := range []termenv.Profile{termenv.TrueColor, termenv.Ascii} {
		th, err := theme.New("dark", true, theme.WithProfile(p))
		if err != nil {
			t.Fatal(err)
		}
		for level := 1; level <= 6; level++ {
			for _, width := range []int{40, 60, 80} {
				where := fmt.Sprintf("h%d at %d columns (profile %d)", level, width, p)
				out := newMarkdown(th.Markdown, p).render(strings.Repeat("#", level)+" "+title+"\n\nbody\n", width)
				plain := ansi.Strip(out)
				head, _, _ := strings.Cut(plain, "\n\nbody")
				for _, l := range strings.Split(plain, "\n") {
					if w := ansi.StringWidth(l); w > width {
						t.Errorf("%s: line %q is %d wide:\n%s", where, l, w, plain)
					}
				}
				if strings.Contains(plain, "…") {
					t.Errorf("%s: the heading is marked cut:\n%s", where, plain)
				}
				if got := strings.Fields(head); strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("%s: the heading reads %q, want %q:\n%s", where, got, want, plain)
				}
				if level == 1 && strings.Count(head, "\n") == 0 && width < 90 {
					t.Errorf("%s: the banner did not wrap:\n%s", where, plain)
				}
			}
		}
	}
}
