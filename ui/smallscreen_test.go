package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"muse/api"
	"muse/ui/engine"
	"muse/ui/queue"
	"muse/ui/turns"
)

// At 40x10, a tool call waiting for its answer and a stopped queue fit the
// screen: the frame is never taller than the window (it was a line too
// tall, and the header scrolled off).
func TestApprovalAndQueueFitASmallScreen(t *testing.T) {
	h := newHarness(t, 0)
	m := h.model(t, nil)
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 40, Height: 10})
	_, cancel := context.WithCancel(context.Background())
	defer cancel()
	m.turns = m.turns.With(turns.Run{ID: 1, Cancel: cancel})
	next, _ := m.askCall(&turns.Ask{Call: api.ContentBlock{Type: api.BlockToolUse, ID: "t1", Name: "get_time", Input: json.RawMessage(`{"timezone":"UTC"}`)}, HasCommand: true, Answer: make(chan engine.Approval, 1)}, nil)
	m = next.(Model)
	m.comp = m.comp.SetQueue(m.comp.Queue().Push(queue.Prompt{Text: "and then a summary"}))
	for _, stopped := range []bool{false, true} {
		if stopped {
			m.comp = m.comp.SetQueue(m.comp.Queue().Stop())
		}
		m = m.layout()
		view := m.View()
		if n := strings.Count(view, "\n") + 1; n > 10 {
			t.Errorf("stopped %v: the frame has %d lines on a screen of 10:\n%s", stopped, n, view)
		}
		if !strings.Contains(view, "muse ·") || !strings.Contains(view, "run tool get_time?") || !strings.Contains(view, "queue") {
			t.Errorf("stopped %v: header, box or queue missing:\n%s", stopped, view)
		}
	}
}
