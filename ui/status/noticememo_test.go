package status

import (
	"strings"
	"testing"
	"time"

	"muse/session"
	"muse/theme/themetest"
)

// The notice is wrapped once per change of what its lines depend on (the
// notice, the width, what holds the line), not in the layout, in Update
// and again in every frame: a hundred frames of a stream (the spinner,
// the clock and the tokens moving) with a long notice above the status
// line wrap it once.
func TestNoticeWrappedOncePerChange(t *testing.T) {
	st := themetest.Styles(t)
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	m := New().Note(strings.Repeat("a notice long enough to wrap ", 8))
	s := m.Fill(State{Width: 60, Now: now, Params: session.Params{Model: "demo-chat"}})
	frames := func(n int) {
		for i := range n {
			s.Now, s.Spinner = now.Add(time.Duration(i)*100*time.Millisecond), string("⠋⠙⠹"[i%3*3:i%3*3+3])
			if s.Turn != nil {
				s.Turn.Tokens = i
			}
			_ = m.Resized(s)         // Update
			_ = m.NoticeHeight(s)    // the approval box's room
			_ = m.NoticeAbove(st, s) // View
			_ = m.View(st, s)        // the status line, when its key changed
		}
	}
	m = m.SetRows(s) // the layout
	frames(100)
	if m.memo.made != 1 || m.Rows() != 1 {
		t.Fatalf("idle: wrapped %d times, %d rows", m.memo.made, m.Rows())
	}
	s.Turn = &Turn{Started: now, Streaming: true}
	frames(100)
	if m.memo.made != 2 {
		t.Errorf("streaming: wrapped %d times in all, want 2", m.memo.made)
	}
	s.Width = 80
	m = m.SetRows(s)
	frames(100)
	if m.memo.made != 3 {
		t.Errorf("resized: wrapped %d times in all, want 3", m.memo.made)
	}
	s.Notice = "short"
	frames(10)
	if m.memo.made != 4 {
		t.Errorf("a new notice: wrapped %d times in all, want 4", m.memo.made)
	}
}

// The zero Model (the root's before its first layout) still gives the
// lines, uncached, and caches them from the first layout on.
func TestNoticeZeroModel(t *testing.T) {
	var m Model
	s := State{Width: 30, Notice: strings.Repeat("wrap me please ", 5)}
	if len(m.NoticeLines(s)) != 2 || m.memo != nil {
		t.Fatalf("zero model: %q", m.NoticeLines(s))
	}
	if m = m.SetRows(s); m.memo == nil || m.memo.made != 1 || m.Rows() != 1 {
		t.Errorf("after the layout: %+v", m.memo)
	}
}
