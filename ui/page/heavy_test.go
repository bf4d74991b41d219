package page

import (
	"strings"
	"testing"

	"muse/session"
	"muse/ui/internal/streamtest"
)

// The page writes a reply of 640 KB of a list (nested, flat, numbered, a
// definition list) as the plain text the chat screen shows, every item of
// it, in few bytes allocated: under 16 a byte of the reply. Goldmark's
// tree of the list, a few nodes a line, took 150 MB and more for 640 KB.
func TestPageHeavyListPlain(t *testing.T) {
	for name, unit := range map[string]string{"nested": "- a\n  - b\n", "flat": "- a\n", "numbered": "1. a\n", "definitions": "a\n: b\n\n"} {
		text := strings.Repeat(unit, 640_000/len(unit))
		sess := inMemory("heavy", session.Entry{Kind: session.KindUser, Text: "a list"}, textReply("m", text))
		page := render(t, sess, Options{})
		if !strings.Contains(page, `<p class="raw">`+strings.TrimRight(text, "\n")+"</p>") {
			t.Errorf("%s: the list is not written plain, whole", name)
		}
		w := &peakWriter{}
		got := streamtest.Allocated(func() {
			*w = peakWriter{}
			if err := Write(w, sess, Options{}); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s: %d bytes allocated", name, got)
		if got > 16*uint64(len(text)) {
			t.Errorf("%s: %d bytes allocated for %d of a list; want at most 16 a byte", name, got, len(text))
		}
	}
}
