package conversation

import (
	"strings"
	"testing"
	"time"

	"github.com/muesli/termenv"

	"muse/api"
	"muse/session"
	"muse/theme"
	"muse/ui/internal/streamtest"
)

// prose returns about n bytes of ordinary words, in paragraphs.
func prose(n int) string {
	const para = "Streaming text arrives word by word, and the screen must keep up without drawing again what it has drawn before. " +
		"A reply may hold lists, tables and code, but mostly it holds sentences like this one, a few to a paragraph.\n\n"
	return strings.Repeat(para, n/len(para)+1)[:n]
}

// reply returns a finished reply holding text.
func reply(text string) session.Entry {
	return session.Entry{ID: "reply", Kind: session.KindAssistant, Status: session.StatusComplete,
		Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: text}}}}
}

// resumeLines returns the lines the chat screen shows of a finished reply
// holding text, as when a session is opened again.
func resumeLines(r *Renderer, text string, width int) []string {
	c := New(r, testKeys()).SetEntries([]session.Entry{reply(text)}).SetSize(width, 24)
	c.View()
	return c.entryLines(0)
}

// liveLines streams a reply holding text onto the chat screen in four
// frames, finishes it, and returns its lines.
func liveLines(r *Renderer, text string, width int) []string {
	c := New(r, testKeys()).SetSize(width, 24)
	e := reply("")
	e.Status = session.StatusStreaming
	c = c.Add(e)
	now := time.Unix(0, 0)
	for k := 1; k <= 4; k++ {
		e.Message = &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: text[:len(text)*k/4]}}}
		now = now.Add(time.Second)
		c = c.UpdateLive(e, now)
		c.View()
	}
	c = c.Finish(reply(text))
	c.View()
	return c.entryLines(0)
}

// TestLongWordCostIsLinear renders a reply holding one long word on the
// chat screen, as a streamed reply and as one opened again, and counts the
// bytes allocated: four times the word takes at most five times the bytes.
func TestLongWordCostIsLinear(t *testing.T) {
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRenderer(th, termenv.TrueColor)
	text := func(n int) string { return "The image, as base64: " + streamtest.Blob(n) + " and that is all.\n" }
	render := func(n int) uint64 {
		return streamtest.Allocated(func() {
			resumeLines(r, text(n), 80)
			liveLines(r, text(n), 80)
		})
	}
	render(100) // the renderer for the width, chroma's lexers
	small, large := render(4000), render(16000)
	t.Logf("bytes allocated: %d for a word of 4,000 bytes, %d for 16,000", small, large)
	if large > 5*small {
		t.Errorf("a word four times as long took %.1f times the bytes; want at most 5", float64(large)/float64(small))
	}
}

// BenchmarkLongWord renders a reply of 1 MB on the chat screen, as one
// opened again: one unbroken word, ordinary prose, and ordinary words in
// one paragraph.
func BenchmarkLongWord(b *testing.B) {
	th, err := theme.New("dark", true)
	if err != nil {
		b.Fatal(err)
	}
	const size = 1 << 20
	for _, c := range []struct{ name, text string }{
		{"word", streamtest.Blob(size)},
		{"prose", prose(size)},
		{"paragraph", strings.ReplaceAll(prose(size), "\n\n", "  ")},
	} {
		b.Run(c.name, func(b *testing.B) {
			r := NewRenderer(th, termenv.TrueColor)
			for b.Loop() {
				resumeLines(r, c.text, 100)
			}
		})
	}
}
