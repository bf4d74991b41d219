package screen

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// fakeClock runs timers when the test advances it; a zero delay runs at once.
type fakeClock struct {
	mu      sync.Mutex
	t       time.Time
	pending []fakeTimer
}

type fakeTimer struct {
	at time.Time
	f  func()
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) after(d time.Duration, f func()) {
	if d <= 0 {
		f()
		return
	}
	c.mu.Lock()
	c.pending = append(c.pending, fakeTimer{at: c.t.Add(d), f: f})
	c.mu.Unlock()
}

// advance moves the clock on by d and runs the timers then due.
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	var due []func()
	kept := c.pending[:0]
	for _, p := range c.pending {
		if p.at.After(c.t) {
			kept = append(kept, p)
		} else {
			due = append(due, p.f)
		}
	}
	c.pending = kept
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}

func (c *fakeClock) timers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending)
}

func newTestRenderer(t *testing.T, fps int) (*Renderer, *bytes.Buffer, *fakeClock) {
	t.Helper()
	var out bytes.Buffer
	c := &fakeClock{t: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}
	return newRenderer(&out, fps, WithClock(c.now, c.after)), &out, c
}

// at is the sequence that moves the cursor to a row's start.
func at(row int) string { return ansi.CursorPosition(1, row) }

func TestNothingIsDrawnBeforeTheSizeIsKnown(t *testing.T) {
	r, out, _ := newTestRenderer(t, 30)
	r.draw("hello")
	if out.Len() != 0 || r.frameCount() != 0 {
		t.Fatalf("wrote %q before a size", out.String())
	}
	r.resize(20, 3)
	if out.Len() != 0 {
		t.Fatalf("a resize alone wrote %q", out.String())
	}
	r.draw("hello")
	if got, want := out.String(), at(1)+"hello"+ansi.ResetStyle+ansi.EraseLineRight+at(2)+ansi.EraseScreenBelow; got != want {
		t.Fatalf("first frame %q, want %q", got, want)
	}
}

func TestOnlyChangedLinesAreWritten(t *testing.T) {
	r, out, c := newTestRenderer(t, 30)
	r.resize(10, 4)
	r.draw("one\ntwo\nthree")
	out.Reset()
	c.advance(time.Second)
	r.draw("one\nTWO\nthree")
	if got, want := out.String(), at(2)+"TWO"+ansi.ResetStyle+ansi.EraseLineRight; got != want {
		t.Fatalf("wrote %q, want only line 2: %q", got, want)
	}
	out.Reset()
	c.advance(time.Second)
	r.draw("one\nTWO")
	if got, want := out.String(), at(3)+ansi.EraseScreenBelow; got != want {
		t.Fatalf("a shorter frame wrote %q, want the rows below erased: %q", got, want)
	}
}

func TestAnUnchangedFrameCostsNothing(t *testing.T) {
	r, out, c := newTestRenderer(t, 30)
	r.resize(10, 2)
	r.draw("same")
	n := out.Len()
	for range 100 {
		c.advance(time.Second)
		r.draw("same")
	}
	if out.Len() != n || r.frameCount() != 1 || c.timers() != 0 {
		t.Fatalf("100 equal frames wrote %d bytes, %d frames, %d timers", out.Len()-n, r.frameCount(), c.timers())
	}
}

func TestFramesAreThrottledAndIdleHoldsNoTimer(t *testing.T) {
	r, out, c := newTestRenderer(t, 10) // one frame per 100 ms
	r.resize(20, 2)
	select {
	case <-r.Drawn():
		t.Fatal("Drawn is closed before a frame")
	default:
	}
	r.draw("frame 0")
	if r.frameCount() != 1 {
		t.Fatalf("first frame not written at once: %d", r.frameCount())
	}
	<-r.Drawn() // closed by the first frame

	for i := 1; i <= 50; i++ { // 50 changes within 50 ms
		c.advance(time.Millisecond)
		r.draw("frame " + string(rune('0'+i%10)) + strings.Repeat(".", i%3))
	}
	if r.frameCount() != 1 || c.timers() != 1 {
		t.Fatalf("within one interval: %d frames, %d timers; want 1 and 1 due", r.frameCount(), c.timers())
	}
	c.advance(50 * time.Millisecond)
	if r.frameCount() != 2 {
		t.Fatalf("frames after the interval = %d, want 2", r.frameCount())
	}
	if !strings.HasSuffix(out.String(), "frame 0"+".."+ansi.ResetStyle+ansi.EraseLineRight) {
		t.Fatalf("the frame written is not the latest: %q", out.String())
	}
	if c.timers() != 0 {
		t.Fatalf("%d timers left while nothing changes", c.timers())
	}
	c.advance(time.Hour)
	if r.frameCount() != 2 {
		t.Fatalf("an idle hour wrote %d frames", r.frameCount()-2)
	}
}

func TestLinesAreCutToTheScreen(t *testing.T) {
	r, out, _ := newTestRenderer(t, 30)
	r.resize(4, 2)
	r.draw("top\nabcdefgh\nbottom")
	got := out.String()
	erase := ansi.ResetStyle + ansi.EraseLineRight
	if strings.Contains(got, "top") || got != at(1)+erase+"abcd"+at(2)+erase+"bott" {
		t.Fatalf("frame %q: want the bottom two lines, cut at 4 columns, each erased before it is written", got)
	}
}

func TestPauseHoldsFramesAndResumeRepaintsAll(t *testing.T) {
	r, out, c := newTestRenderer(t, 30)
	r.resize(10, 3)
	r.draw("a\nb")
	r.pause()
	out.Reset()
	c.advance(time.Second)
	r.draw("a\nc")
	c.advance(time.Second)
	if out.Len() != 0 {
		t.Fatalf("paused renderer wrote %q", out.String())
	}
	r.resumeDrawing()
	for _, want := range []string{at(1) + "a", at(2) + "c", at(3) + ansi.EraseScreenBelow} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("resume wrote %q, want every line (%q)", out.String(), want)
		}
	}
}

func TestStopEndsFramesButNotTerminalWrites(t *testing.T) {
	r, out, c := newTestRenderer(t, 30)
	r.resize(10, 3)
	r.draw("a")
	r.draw("b") // due in one interval
	r.stop()
	out.Reset()
	c.advance(time.Second)
	r.draw("c")
	r.resize(20, 5)
	if out.Len() != 0 {
		t.Fatalf("stopped renderer wrote %q", out.String())
	}
	if _, err := r.Write([]byte("\x1b]52;c;eA==\a")); err != nil || out.String() != "\x1b]52;c;eA==\a" {
		t.Fatalf("write through: %q, %v", out.String(), err)
	}
}

// writes keeps each write apart.
type writes struct{ list []string }

func (w *writes) Write(p []byte) (int, error) {
	w.list = append(w.list, string(p))
	return len(p), nil
}

func TestFramesAreWrappedInSynchronizedOutput(t *testing.T) {
	for _, on := range []bool{false, true} {
		var w writes
		c := &fakeClock{}
		r := newRenderer(&w, 30, WithClock(c.now, c.after), WithSyncOutput(on))
		r.resize(10, 3)
		r.draw("one\ntwo")
		c.advance(time.Second)
		r.draw("one\nTWO")
		c.advance(time.Second)
		r.draw("one\nTWO") // nothing to write: no empty pair either
		if _, err := r.Write([]byte("\x1b]52;c;eA==\a")); err != nil {
			t.Fatal(err)
		}
		if len(w.list) != 3 {
			t.Fatalf("sync=%v: %d writes %q, want two frames and the copy", on, len(w.list), w.list)
		}
		for i, frame := range w.list[:2] {
			wrapped := strings.HasPrefix(frame, ansi.SetModeSynchronizedOutput) &&
				strings.HasSuffix(frame, ansi.ResetModeSynchronizedOutput) &&
				strings.Count(frame, "?2026") == 2
			if wrapped != on {
				t.Errorf("sync=%v: frame %d %q wrapped = %v", on, i, frame, wrapped)
			}
		}
		if w.list[2] != "\x1b]52;c;eA==\a" {
			t.Errorf("sync=%v: a write between frames became %q", on, w.list[2])
		}
	}
}

// Every line written is placed at the start of its row and erased around:
// after a short line the rest of its row, before a full one the whole row.
// Nothing relies on where the cursor was left by the line before.
func TestEveryLineIsPlacedAndErasedInItsRow(t *testing.T) {
	r, out, c := newTestRenderer(t, 30)
	r.resize(12, 5)
	erase := ansi.ResetStyle + ansi.EraseLineRight
	full := "muse 👍🏽 · -2"              // 12 columns to muse
	styled := "\x1b[1mbold\x1b[0m 👍🏽 x" // 9
	r.draw(full + "\n" + styled + "\n\nabcdefghijklmnop")
	want := at(1) + erase + full +
		at(2) + styled + erase +
		at(3) + erase +
		at(4) + erase + "abcdefghijkl" +
		at(5) + ansi.EraseScreenBelow
	if got := out.String(); got != want {
		t.Fatalf("frame\n%q\nwant\n%q", got, want)
	}
	out.Reset()
	c.advance(time.Second)
	r.draw("muse 👍🏽 · -3\n" + styled + "\n\nabcdefghijklmnop")
	if got, want := out.String(), at(1)+erase+"muse 👍🏽 · -3"; got != want {
		t.Fatalf("a changed full line: %q, want only it, at its row: %q", got, want)
	}
}

func TestModesAreUndoneInReverse(t *testing.T) {
	for i, mouse := range []bool{false, true, false, true} {
		focus := i >= 2
		on, off := enterModes(mouse, focus), leaveModes(mouse, focus)
		for _, m := range []string{"1049", "25", "2004"} {
			if !strings.Contains(on, "?"+m) || !strings.Contains(off, "?"+m) {
				t.Errorf("mouse=%v: mode %s not both set (%q) and reset (%q)", mouse, m, on, off)
			}
		}
		if got := strings.Contains(on, "?1002h") && strings.Contains(off, "?1002l"); got != mouse {
			t.Errorf("mouse=%v: mouse mode set and reset = %v", mouse, got)
		}
		if got := strings.Contains(on, "?1004h") && strings.Contains(off, "?1004l"); got != focus {
			t.Errorf("focus=%v: focus reports set and reset = %v", focus, got)
		}
		if strings.Contains(on, "?1004") != focus {
			t.Errorf("focus=%v: focus reports asked for: %q", focus, on)
		}
		if !strings.Contains(on, ansi.ResetModeAutoWrap) || !strings.Contains(off, ansi.SetModeAutoWrap) {
			t.Errorf("mouse=%v: autowrap not turned off (%q) and back on (%q)", mouse, on, off)
		}
		if !strings.HasSuffix(off, ansi.ResetModeAltScreenSaveCursor) {
			t.Errorf("the alternate screen is not left last: %q", off)
		}
	}
}

// BenchmarkFrame is the cost of one frame of a 120x40 screen where one line
// changed, as while typing or while a reply streams into its last line.
func BenchmarkFrame(b *testing.B) {
	c := &fakeClock{}
	r := newRenderer(io.Discard, 30, WithClock(c.now, c.after))
	r.resize(120, 40)
	lines := make([]string, 40)
	for i := range lines {
		lines[i] = "\x1b[38;5;252m" + strings.Repeat("word ", 22) + "\x1b[0m"
	}
	views := [2]string{}
	for i := range views {
		lines[39] = fmt.Sprintf("› typing %d", i)
		views[i] = strings.Join(lines, "\n")
	}
	r.draw(views[1])
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		c.advance(time.Second)
		r.draw(views[i%2])
	}
	b.ReportMetric(float64(r.frameCount())/float64(b.N), "frames/op")
}
