package conversation

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"muse/api"
	"muse/session"
	"muse/theme"
	"muse/ui/internal/streamtest"
)

// heavyList is the attacker's reply: 640 KB of a nested list, under the
// reply limit. Glamour pads each of its 128,000 items to the width, once
// for each list around it: it allocated 1.2 GB and more, and muse died out
// of memory, streaming it or opening the session again (muse -c).
func heavyList(n int) string { return strings.Repeat("- a\n  - b\n", n/10) }

// The chat screen streams the 640 KB list in 200-byte deltas, a frame
// every five, finishes it and opens it again as muse -c does, and stays
// responsive: glamour is given at most 32 KB of it in all (it was given
// every byte before), and none when the reply is opened again. The
// finished reply shows every item, plain, as the resumed one does.
func TestHeavyListReplyStaysResponsive(t *testing.T) {
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	const width = 100
	text := heavyList(640_000)
	r := NewRenderer(th, termenv.TrueColor)
	c := New(r, testKeys()).SetSize(width, 40)
	e := reply("")
	e.Status = session.StatusStreaming
	c = c.Add(e)
	now := time.Unix(0, 0)
	for n := 1000; n <= len(text); n += 1000 { // a frame every five deltas of 200 bytes
		e.Message = &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: text[:n]}}}
		now = now.Add(33 * time.Millisecond)
		c = c.UpdateLive(e, now)
		c.View()
		if r.md.rendered > 32<<10 {
			t.Fatalf("at %d bytes of the reply, glamour was given %d bytes; want at most 32 KB", n, r.md.rendered)
		}
	}
	t.Logf("glamour was given %d bytes of the stream", r.md.rendered)
	c = c.Finish(reply(text))
	c.View()
	live := c.entryLines(0)
	given := r.md.rendered
	resumed := resumeLines(r, text, width)
	if r.md.rendered != given {
		t.Errorf("opening the reply again gave glamour %d bytes; want none", r.md.rendered-given)
	}
	if strings.Join(live, "\n") != strings.Join(resumed, "\n") {
		t.Errorf("the streamed reply (%d lines) differs from the resumed one (%d lines)", len(live), len(resumed))
	}
	items := 0
	for _, l := range resumed {
		switch strings.TrimSpace(ansi.Strip(l)) {
		case "- a", "- b":
			items++
		}
	}
	if items != 128_000 {
		t.Errorf("the resumed reply shows %d of its 128,000 items", items)
	}
}

// Opening a session whose reply is a heavy list again costs bytes
// allocated linear in its length, and few: four times the list (160 KB
// and 640 KB, nested, flat, numbered, a definition list) at most five
// times the bytes, and under 64 bytes allocated a byte of it. Before,
// glamour allocated 8 KB a byte: 166 MB for 20 KB of a flat list.
func TestHeavyListResumeCost(t *testing.T) {
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	for name, unit := range map[string]string{"nested": "- a\n  - b\n", "flat": "- a\n", "numbered": "1. a\n", "definitions": "a\n: b\n\n"} {
		cost := func(n int) uint64 {
			text := strings.Repeat(unit, n/len(unit))
			return streamtest.Allocated(func() { resumeLines(NewRenderer(th, termenv.TrueColor), text, 100) })
		}
		small, large := cost(160_000), cost(640_000)
		t.Logf("%s: %d bytes allocated for 160 KB, %d for 640 KB", name, small, large)
		if large > 5*small || large > 64*640_000 {
			t.Errorf("%s: %d bytes allocated for 160 KB, %d for 640 KB; want at most five times, and 64 a byte", name, small, large)
		}
	}
}
