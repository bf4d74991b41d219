package page

import (
	"html"
	"strings"
	"testing"

	"muse/session"
	"muse/ui/mdwrap"
)

// A reply nested far deeper than any document (200,000 '>' took 14 s, as
// goldmark's parse of quotes, lists and brackets is quadratic in their
// depth) is written flat, as the characters it holds: the page nests no
// deeper than mdwrap.MaxNest, which bounds the parse's work per line, and
// its size stays within a few times the text's.
func TestDeepNestingIsWrittenFlat(t *testing.T) {
	const n = 200_000
	shapes := map[string]string{ // each of n characters, marker by marker
		">":  strings.Repeat(">", n) + " x\n",
		"> ": strings.Repeat("> ", n/2) + "x\n",
		"- ": strings.Repeat("- ", n/2) + "x\n",
		"*":  strings.Repeat("*", n) + "x" + strings.Repeat("*", n),
		"[":  strings.Repeat("[", n) + "x" + strings.Repeat("]", n),
	}
	empty := len(render(t, inMemory("deep", session.Entry{Kind: session.KindUser, Text: "quote me"}, textReply("m", "")), Options{}))
	for marker, src := range shapes {
		page := render(t, inMemory("deep", session.Entry{Kind: session.KindUser, Text: "quote me"}, textReply("m", src)), Options{})
		for _, tag := range []string{"<blockquote", "<li", "<em", "<strong", "<a "} {
			if c := strings.Count(page, tag); c > mdwrap.MaxNest {
				t.Errorf("%q: the page holds %d %s>, nested past %d", marker, c, tag, mdwrap.MaxNest)
			}
		}
		if grown := len(page) - empty; grown > 6*len(src) {
			t.Errorf("%q: %d bytes of text made %d bytes of page", marker, len(src), grown)
		}
		if !strings.Contains(page, html.EscapeString(strings.Repeat(marker, 1000))) {
			t.Errorf("%q: the text is not on the page as its characters", marker)
		}
	}
	// Ordinary nesting is still rendered.
	page := render(t, inMemory("deep", session.Entry{Kind: session.KindUser, Text: "> quoted\n> > twice"}), Options{})
	if strings.Count(page, "<blockquote>") != 2 {
		t.Errorf("a quote in a quote is not rendered as one")
	}
}
