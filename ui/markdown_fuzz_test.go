package ui

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
