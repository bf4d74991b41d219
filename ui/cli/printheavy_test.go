package cli

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"muse/api"
	"muse/theme"
	"muse/ui/internal/streamtest"
)

// heavyEvents is a reply of text streamed in 200-byte deltas.
func heavyEvents(text string) []api.Event {
	evs := []api.Event{
		{Type: api.EventMessageStart, Message: &api.Message{Role: api.RoleAssistant}},
		{Type: api.EventContentBlockStart, Index: 0, Block: &api.ContentBlock{Type: api.BlockText}},
	}
	for i := 0; i < len(text); i += 200 {
		evs = append(evs, api.Event{Type: api.EventContentBlockDelta, Index: 0, Delta: api.Delta{Type: api.DeltaText, Text: text[i:min(i+200, len(text))]}})
	}
	return append(evs, api.Event{Type: api.EventContentBlockStop, Index: 0}, api.Event{Type: api.EventMessageStop})
}

// -p on a terminal prints a reply that is 640 KB of a nested list (glamour
// ran out of memory on it; a flat list of 640 KB printed nothing in 90 s)
// as plain text, every item of it, and gives glamour none of it; the bytes
// allocated are linear in the list's length (four times the list, at most
// five times the bytes) and under 64 a byte of it.
func TestPrintHeavyListPlain(t *testing.T) {
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	print := func(text string) (string, int) {
		var out strings.Builder
		o, err := newMDOut(&out, th.Markdown, termenv.TrueColor, 80)
		if err != nil {
			t.Fatal(err)
		}
		render, given := o.render, 0
		o.render = func(md string) string { given += len(md); return render(md) }
		o.start()
		for _, ev := range heavyEvents(text) {
			o.event(ev)
		}
		o.end()
		return out.String(), given
	}
	text := "Here is the list:\n\n" + strings.Repeat("- a\n  - b\n", 64_000)
	out, given := print(text)
	if given > len("Here is the list:\n\n") {
		t.Errorf("glamour was given %d bytes of the list; want none", given)
	}
	items := 0
	for l := range strings.Lines(out) {
		switch strings.TrimSpace(ansi.Strip(l)) {
		case "- a", "- b":
			items++
		}
	}
	if items != 128_000 {
		t.Errorf("printed %d of the 128,000 items", items)
	}
	cost := func(n int) uint64 {
		text := strings.Repeat("- a\n  - b\n", n/10)
		return streamtest.Allocated(func() { print(text) })
	}
	small, large := cost(160_000), cost(640_000)
	t.Logf("bytes allocated: %d for 160 KB, %d for 640 KB", small, large)
	if large > 5*small || large > 64*640_000 {
		t.Errorf("four times the list took %d bytes after %d; want at most five times, and 64 a byte", large, small)
	}
}

// -p on a terminal prints "hi a", 40,000 combining accents and " end" (one
// grapheme one column wide, which no wrapper breaks: 20 s to print 80 KB)
// with bytes allocated linear in its length: four times the accents, at
// most five times the bytes (before: 101 MB for 20 KB, 1.6 GB for 80 KB).
func TestPrintCombiningMarksCost(t *testing.T) {
	render := func(n int) uint64 {
		md := "hi a" + strings.Repeat("\u0301", n/2) + " end\n"
		return streamtest.Allocated(func() { printRender(t, md, 80) })
	}
	render(100)
	small, large := render(20_000), render(80_000)
	t.Logf("bytes allocated: %d for 20 KB of accents, %d for 80 KB", small, large)
	if large > 5*small {
		t.Errorf("four times the accents took %.1f times the bytes (%d, %d); want at most 5", float64(large)/float64(small), small, large)
	}
	if got := ansi.Strip(printRender(t, "hi a"+strings.Repeat("\u0301", 40_000)+" end\n", 80)); !strings.Contains(got, "hi a\u0301") || !strings.Contains(got, "end") {
		t.Errorf("printed %q", got)
	}
}
