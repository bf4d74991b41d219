package welcome

import (
	"strings"
	"testing"

	"muse/ui/textfmt"
)

// The demo's words wrap on lines as even as they can be, never one word
// left alone on the last line when the lines before have room to share
// (at 120 columns "demo:slow" was alone); the lines are as many as a plain
// wrap needs, and each fits.
func TestDemoWordsWrapEvenly(t *testing.T) {
	words := strings.Fields("demo:long demo:think demo:tool demo:mcp demo:error demo:overloaded demo:ratelimit demo:html demo:hostile demo:slow")
	for _, width := range []int{118, 78, 58, 30} {
		plain := textfmt.WrapWords(words, width, 3)
		got := balanced(words, width, 3)
		if len(got) != len(plain) {
			t.Errorf("width %d: %d lines, a plain wrap %d", width, len(got), len(plain))
		}
		if all := strings.Join(got, "  "); !strings.Contains(all, "…") && strings.Join(strings.Fields(all), " ") != strings.Join(words, " ") {
			t.Errorf("width %d: the words are not all there, in order: %q", width, got)
		}
		for _, l := range got {
			if textfmt.Width(l) > width {
				t.Errorf("width %d: %q is wider", width, l)
			}
		}
		if len(got) > 1 && len(strings.Fields(got[len(got)-1])) == 1 {
			t.Errorf("width %d: a word alone on the last line: %q", width, got)
		}
	}
}
