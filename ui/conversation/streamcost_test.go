package conversation

import (
	"testing"
	"time"

	"github.com/muesli/termenv"

	"muse/theme"
	"muse/ui/internal/streamtest"
)

// TestStreamCostIsLinear streams a mixed reply through the chat screen's
// streaming renderer, a frame every 33 ms of simulated time at 2 ms a
// delta, and counts the bytes allocated: a reply four times as long may
// take at most five times the bytes. A renderer that drew the whole reply
// again on each frame would take sixteen.
func TestStreamCostIsLinear(t *testing.T) {
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	stream := func(words int) uint64 {
		text := streamMixedDoc(words)
		md := newMarkdown(th.Markdown, termenv.TrueColor)
		return streamtest.Allocated(func() { simulateStream(md, text, 96, 2*time.Millisecond, 33*time.Millisecond) })
	}
	stream(100) // chroma's lexers, glamour's styles
	small, large := stream(1500), stream(6000)
	t.Logf("bytes allocated: %d for 1,500 words, %d for 6,000", small, large)
	if large > 5*small {
		t.Errorf("a reply four times as long took %.1f times the bytes; want at most 5", float64(large)/float64(small))
	}
}
