package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"muse/api"
	"muse/ui/engine"
	"muse/ui/turns"
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
	m.turns = m.turns.With(turns.Run{ID: 1, Cancel: func() {}, Started: clock.now(), Tokens: 30})
	clock.advance(200 * time.Millisecond)
	m, _ = updateModel(m, turns.BatchMsg{ID: 1, Ch: make(chan turns.Item), Items: []turns.Item{{Event: &engine.Event{Kind: engine.Retrying, Retry: api.RetryInfo{Attempt: 1, Wait: 1500 * time.Millisecond, Err: errors.New("529 overloaded_error")}}}}})
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
	if !m.conv.ExpandThinking() {
		t.Error("the thinking is not expanded")
	}
}

// With thinking on, the status bar keeps every setting that changes what
// is sent, in short forms when narrow, at the sizes people use.
func TestStatusBarKeepsTheSettings(t *testing.T) {
	for _, size := range []struct{ w, h int }{{120, 40}, {80, 24}, {40, 10}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			h := newHarness(t, 0)
			tm := start(t, h.model(t, nil), size.w, size.h)
			send(tm, "/max-tokens 8000")
			send(tm, "/thinking 2000")
			send(tm, "/temperature 0.7")
			send(tm, "demo:think hello")
			waitFor(t, tm, "demo:think hello")
			m := quit(t, tm)
			m.status = m.status.Note("")
			status := statusOf(m)
			for _, want := range []string{"demo-chat", "2", "8", "0.7"} {
				if !strings.Contains(status, want) {
					t.Errorf("status %q lacks %q", status, want)
				}
			}
			if size.w >= 80 && !strings.Contains(status, "demo-image") || size.w >= 120 && (!strings.Contains(status, "think 2000") || !strings.Contains(status, "max 8000")) {
				t.Errorf("status %q lacks a setting in its long form", status)
			}
			if size.w < 120 && (!strings.Contains(status, "θ2k") || !strings.Contains(status, "max8k")) {
				t.Errorf("status %q lacks a setting in its short form", status)
			}
			if w := visibleWidth(status); w > size.w {
				t.Errorf("status is %d wide", w)
			}
			golden.RequireEqual(t, []byte(status+"\n"))
		})
	}
}
