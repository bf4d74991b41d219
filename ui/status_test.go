package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"muse/api"
	"muse/ui/engine"
)

// statusOf is the status line of m's view.
func statusOf(m Model) string {
	lines := strings.Split(m.View(), "\n")
	return lines[len(lines)-2]
}

// During a retry's countdown the status line says it waits to retry, and
// counts down in whole seconds; not "streaming", and no rate.
func TestRetryCountdownStatus(t *testing.T) {
	h := newHarness(t, 0)
	clock := newMovingClock()
	m := h.modelWith(t, nil, func(o *Options) { o.Now = clock.now })
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 100, Height: 24})
	m.turn = &turnRun{id: 1, cancel: func() {}, started: clock.now(), tokens: 30}
	clock.advance(200 * time.Millisecond)
	m, _ = m.applyEvent(engine.Event{Kind: engine.Retrying, Retry: api.RetryInfo{Attempt: 1, Wait: 1500 * time.Millisecond, Err: errors.New("529 overloaded_error")}})
	s := statusOf(m)
	if !strings.Contains(s, "waiting to retry in 2s (attempt 2)… · 529 overloaded_error") || strings.Contains(s, "streaming") || strings.Contains(s, "tok/s") {
		t.Errorf("status %q", s)
	}
	clock.advance(time.Second)
	if s := statusOf(m); !strings.Contains(s, "waiting to retry in 1s (attempt 2)…") {
		t.Errorf("status a second later %q", s)
	}
}

// ctrl+t with no thinking on screen says so; with thinking it says which
// way it toggled.
func TestCtrlTSaysWhatItDid(t *testing.T) {
	h := newHarness(t, 0)
	tm := start(t, h.model(t, nil), 80, 30)
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlT})
	waitFor(t, tm, "no thinking on screen")
	send(tm, "demo:think about it")
	waitFor(t, tm, "stop end_turn")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlT})
	waitFor(t, tm, "thinking expanded · ctrl+t collapses it")
	m := quit(t, tm)
	if !m.renderer.ExpandThinking {
		t.Error("the thinking is not expanded")
	}
}
