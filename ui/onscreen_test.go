package ui

import (
	"bytes"
	"io"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"muse/ui/internal/waitfor"
	"muse/ui/turns"
)

// unread is what a TestModel drew after the end of the last wait's match:
// teatest's output is a buffer that a read empties, and a wait reads all
// of it, so the frames drawn after its match in the same read would be
// lost to the next wait, which could then wait for a frame already drawn.
var unread sync.Map // *teatest.TestModel → []byte

// onScreen waits until the output drawn since the last wait's match (b)
// satisfies drawn: the one wait on the screen of every test here. It ends
// on what is drawn, never on a time: teatest keeps the output in a buffer
// that gives no notice of a write, so the wait reads it again at each frame
// the screen can draw. Its watchdog (waitfor's, scaled by load) only names
// a hang. Once drawn holds, the wait keeps what follows the shortest start
// of b that satisfies it for the next wait (drawn holds of a longer b when
// it holds of a shorter one: it asks what was drawn, never what was not).
func onScreen(t *testing.T, tm *teatest.TestModel, drawn func(b []byte) bool) {
	t.Helper()
	rest, loaded := unread.LoadOrStore(tm, []byte(nil))
	if !loaded {
		t.Cleanup(func() { unread.Delete(tm) })
	}
	r := &carryReader{rest: rest.([]byte), out: tm.Output()}
	teatest.WaitFor(t, r, func(b []byte) bool {
		if !drawn(b) {
			return false
		}
		n := shortestStart(b, drawn)
		drawn(b[:n]) // its last call is on what it matched, for a drawn that notes what it saw
		unread.Store(tm, append([]byte(nil), b[n:]...))
		return true
	}, teatest.WithDuration(waitfor.Scaled(waitfor.Limit)), teatest.WithCheckInterval(turns.FrameInterval))
}

// shortestStart is the length of the shortest start of b that satisfies
// drawn, which b does; len(b) when drawn does not hold of b's starts in
// order (it would then be no test of what was drawn).
func shortestStart(b []byte, drawn func([]byte) bool) int {
	lo, hi := 0, len(b)
	for lo < hi {
		if mid := (lo + hi) / 2; drawn(b[:mid]) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	if !drawn(b[:hi]) {
		return len(b)
	}
	return hi
}

// carryReader reads what the last wait left unread, then the output.
type carryReader struct {
	rest []byte
	out  io.Reader
}

func (r *carryReader) Read(p []byte) (int, error) {
	if len(r.rest) > 0 {
		n := copy(p, r.rest)
		r.rest = r.rest[n:]
		return n, nil
	}
	return r.out.Read(p)
}

// twoWords draws "first" and "second" in one frame, then quits on a key.
type twoWords struct{}

func (twoWords) Init() tea.Cmd { return nil }
func (m twoWords) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.KeyMsg); ok {
		return m, tea.Quit
	}
	return m, nil
}
func (twoWords) View() string { return "first, then second" }

// A wait that matches keeps what was drawn after its match for the next
// one: waiting for "second" after "first", drawn in the same frame, ends
// on that frame (it waited for ever when the first wait dropped the rest).
// A wait reads only what follows the last match: "first" is not there again.
func TestOnScreenKeepsWhatFollowsItsMatch(t *testing.T) {
	tm := teatest.NewTestModel(t, twoWords{}, teatest.WithInitialTermSize(40, 5))
	waitFor(t, tm, "first")
	waitFor(t, tm, "second")
	rest, ok := unread.Load(tm)
	if !ok {
		t.Fatal("no output kept after a wait")
	}
	if bytes.Contains(rest.([]byte), []byte("first")) {
		t.Errorf("after the wait for %q, %q is left to read", "second", rest)
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	tm.WaitFinished(t, teatest.WithFinalTimeout(waitfor.Scaled(waitfor.Limit)))
}
