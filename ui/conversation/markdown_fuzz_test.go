package conversation

import (
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"muse/theme"
	"muse/ui/sanitize"
)

// FuzzMarkdownSanitized renders any text with glamour, as a reply is
// rendered, and checks that no control byte other than SGR comes out:
// glamour turns entities such as &#27; into ESC, so its output, not only
// its input, passes the sanitizer.
func FuzzMarkdownSanitized(f *testing.F) {
	th, err := theme.New("dark", true)
	if err != nil {
		f.Fatal(err)
	}
	md := newMarkdown(th.Markdown, termenv.TrueColor)
	for _, s := range []string{
		"plain", "&#27;]0;pwned&#7;", "&#x1b;[2J", "```\n\x1b]52;c;aGk=\x07\n```", "| a |\n|---|\n| &#155;31m |",
		"> quote &#27;[H\n\n- item &#x9d;0;t&#x7;", "`\u009b2J` **bold**", "[link](javascript:&#27;)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			return
		}
		out := md.render(text, 60)
		if !sanitize.IsClean(out) {
			t.Fatalf("unclean output for %q: %q", text, out)
		}
		if strings.Contains(out, "\x1b]") || strings.Contains(out, "\u009b") {
			t.Fatalf("an escape survived for %q", text)
		}
	})
}

// The text's own escapes are removed whole before glamour wraps it: no
// pieces such as "2J" or the end of a title are left, whatever the width.
func TestMarkdownDropsEscapesWhole(t *testing.T) {
	th, _ := theme.New("dark", true)
	md := newMarkdown(th.Markdown, termenv.TrueColor)
	text := "This part is hostile. A screen clear \x1b[2J then a title change \x1b]0;pwned by demo\x07 then a clipboard write \x1b]52;c;aGVsbG8=\x07 and a C1 \u009b31m control."
	for _, width := range []int{20, 40, 60, 120} {
		out := md.render(text, width)
		for _, bad := range []string{"2J", "pwned", "52;c", "31m control", "aGVsbG8"} {
			if strings.Contains(out, bad) {
				t.Errorf("width %d: %q left in %q", width, bad, out)
			}
		}
	}
}
