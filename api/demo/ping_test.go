package demo

import (
	"testing"
	"time"
)

// A stream that is slow to go on is pinged, as the service pings it: once
// after the first block starts, then each time PingEvery of pauses between
// words have passed (counted in pauses made, not read from a clock), and
// never twice in a row.
func TestStreamPingsWhileSlow(t *testing.T) {
	srv := newTestServer(t, Options{Delay: time.Microsecond, PingEvery: 3 * time.Microsecond})
	events := streamEvents(t, srv, chat("demo:words:20", map[string]any{"stream": true}))
	pings, deltas := 0, 0
	for i, e := range events {
		switch e.name {
		case "ping":
			pings++
			if i > 0 && events[i-1].name == "ping" {
				t.Fatal("two pings in a row")
			}
		case "content_block_delta":
			deltas++
		}
	}
	// One after the start, then one every 3 pauses: 19 pauses between 20 words.
	if want := 1 + (deltas-1)/3; deltas < 20 || pings != want {
		t.Errorf("%d pings among %d deltas, want %d", pings, deltas, want)
	}
}
