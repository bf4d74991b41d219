package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"muse/session"
	"muse/ui/queue"
)

// userTexts are the prompts the conversation shows, in order.
func userTexts(m Model) []string {
	var out []string
	for _, e := range m.conv.Entries() {
		if e.Kind == session.KindUser {
			out = append(out, e.Text)
		}
	}
	return out
}

// A prompt sent while a reply streams waits above the input, and is sent
// when the reply ends; the status line never says a reply is on its way
// once it has ended.
func TestQueuedPromptSentWhenTheTurnEnds(t *testing.T) {
	h, hd := newHeldHarness(t, "first ask") // the first reply is in flight until let
	tm := start(t, h.modelWith(t, nil, shortReplies), 80, 24)
	send(tm, "first ask")
	waitFor(t, tm, "The honest answer is that") // the reply's first words
	ht := hd.held(t)
	send(tm, "second ask")
	waitFor(t, tm, "queued › second ask")
	ht.let(t)
	waitAfter(t, tm, "There are a few ways", "stop max_tokens")
	m := quit(t, tm)
	if got := userTexts(m); len(got) != 2 || got[1] != "second ask" {
		t.Errorf("prompts sent: %q", got)
	}
	if m.comp.Queue().Len() != 0 || strings.Contains(m.View(), "queued ›") || strings.Contains(m.View(), busyNotice) {
		t.Errorf("the queue or a stale notice stays:\n%s", m.View())
	}
}

// esc cancels the reply and stops the queue; ↑ brings the queued prompt
// back into the input, and enter on an empty input sends the next.
func TestEscStopsTheQueue(t *testing.T) {
	h, hd := newHeldHarness(t, "tell me everything") // the reply is in flight until esc
	tm := start(t, h.modelWith(t, nil, shortReplies), 80, 24)
	send(tm, "tell me everything")
	waitFor(t, tm, "Good question; the answer") // the reply's first words
	ht := hd.held(t)
	send(tm, "later one")
	waitFor(t, tm, "queued › later one")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	waitFor(t, tm, "queue stopped")
	ht.cancelled(t)
	tm.Send(testStopMsg{})
	m := finalModel(t, tm)
	if m.comp.Queue().Len() != 1 || !m.comp.Queue().Stopped() || m.turns.Turn() != nil {
		t.Fatalf("queue %+v stopped %v turn %v", m.comp.Queue(), m.comp.Queue().Stopped(), m.turns.Turn())
	}
	if !strings.Contains(m.status.Notice(), "cancelled") || !strings.Contains(m.status.Notice(), "queue stopped") {
		t.Errorf("notice %q", m.status.Notice())
	}

	// A first ctrl+c warns that quitting leaves the queue unsent.
	if warned, _ := updateModel(m, tea.KeyMsg{Type: tea.KeyCtrlC}); !strings.Contains(warned.status.Notice(), "1 queued prompt will not be sent") {
		t.Errorf("ctrl+c with a queue: notice %q", warned.status.Notice())
	}

	next, _ := updateModel(m, tea.KeyMsg{Type: tea.KeyEnter})
	if next.turns.Turn() == nil || next.comp.Queue().Len() != 0 {
		t.Fatalf("enter on an empty input did not send the queued prompt: queue %+v notice %q", next.comp.Queue(), next.status.Notice())
	}
	t.Cleanup(next.turns.Turn().Cancel)
	if next.turns.Turn().Prompt != "later one" {
		t.Errorf("sent %q", next.turns.Turn().Prompt)
	}

	// (The copies share the input's text: ↑ is tried last.)
	up, _ := updateModel(m, tea.KeyMsg{Type: tea.KeyUp})
	if up.comp.Input().Value() != "later one" || up.comp.Queue().Len() != 0 {
		t.Errorf("↑ gave the input %q and the queue %+v", up.comp.Input().Value(), up.comp.Queue())
	}
}

// A turn that fails stops the queue, and the failed prompt is back in the
// input.
func TestFailedTurnStopsTheQueue(t *testing.T) {
	h, hd := newHeldHarness(t, "demo:error now") // the reply is held before its error until let
	tm := start(t, h.model(t, nil), 80, 24)
	send(tm, "demo:error now")
	ht := hd.held(t)
	send(tm, "after it")
	waitFor(t, tm, "queued › after it")
	ht.let(t)
	waitFor(t, tm, "queue stopped")
	tm.Send(testStopMsg{})
	m := finalModel(t, tm)
	if m.comp.Input().Value() != "demo:error now" {
		t.Errorf("input %q, want the failed prompt", m.comp.Input().Value())
	}
	if !strings.Contains(m.status.Notice(), "the prompt is back") || !strings.Contains(m.status.Notice(), "queue stopped: 1 prompt waiting") {
		t.Errorf("notice %q", m.status.Notice())
	}
	if m.comp.Queue().Len() != 1 || m.comp.Queue().Prompts()[0].Text != "after it" {
		t.Errorf("queue %+v", m.comp.Queue())
	}
}

// After a failed retry, as after a first failure, the prompt is back in
// the input and the status line says so.
func TestFailedRetryPutsThePromptBack(t *testing.T) {
	h := newHarness(t, 0)
	tm := start(t, h.model(t, nil), 80, 24)
	send(tm, "demo:overloaded again")
	waitFor(t, tm, "the prompt is back in the input")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter}) // the retry fails too
	waitFor(t, tm, "2/2")
	m := quit(t, tm) // once the turn has ended
	if !strings.Contains(m.status.Notice(), "the prompt is back in the input") {
		t.Errorf("notice %q after a failed retry", m.status.Notice())
	}
	if m.comp.Input().Value() != "demo:overloaded again" {
		t.Errorf("input %q after a failed retry", m.comp.Input().Value())
	}
}

// The queued prompts above the input, running and stopped, at the three
// sizes people use.
func TestQueueGolden(t *testing.T) {
	for _, size := range []struct{ w, h int }{{120, 40}, {80, 24}, {40, 10}} {
		for _, stopped := range []bool{false, true} {
			t.Run(fmt.Sprintf("%dx%d_stopped_%v", size.w, size.h, stopped), func(t *testing.T) {
				h := newHarness(t, 0)
				m := h.model(t, nil)
				m.comp = m.comp.SetQueue(m.comp.Queue().Push(queue.Prompt{Text: "and then summarise it in three lines"}).Push(queue.Prompt{Text: "now   a\nsecond one"}))
				if stopped {
					m.comp = m.comp.SetQueue(m.comp.Queue().Stop())
				}
				m, _ = updateModel(m, tea.WindowSizeMsg{Width: size.w, Height: size.h})
				view := m.View()
				if !strings.Contains(view, "queued ›") && !strings.Contains(view, "queue stopped ›") {
					t.Errorf("no queued prompt shown:\n%s", view)
				}
				if n := strings.Count(view, "\n") + 1; n != size.h {
					t.Errorf("view has %d lines, want %d", n, size.h)
				}
				golden.RequireEqual(t, []byte(view))
			})
		}
	}
}

// A queued prompt brought back with ↑ while the reply streams: its notice
// shows above the status line, beside the spinner, and ctrl+c drops the
// prompt, as the notice says, and leaves the reply streaming.
func TestCtrlCDropsTheUnqueuedPrompt(t *testing.T) {
	h, hd := newHeldHarness(t, "tell me everything") // the reply is in flight to the end
	tm := start(t, h.modelWith(t, nil, shortReplies), 80, 24)
	send(tm, "tell me everything")
	waitFor(t, tm, "Good question; the answer") // the reply's first words
	hd.held(t)
	send(tm, "later one")
	waitFor(t, tm, "queued › later one")
	tm.Send(tea.KeyMsg{Type: tea.KeyUp})
	waitFor(t, tm, "ctrl+c drops it")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	waitFor(t, tm, "the queued prompt is dropped")
	tm.Send(testStopMsg{})
	m := finalModel(t, tm)
	if m.turns.Turn() == nil || m.turns.Turn().Cancelled {
		t.Error("ctrl+c cancelled the reply")
	}
	if m.comp.Input().Value() != "" || m.comp.Queue().Len() != 0 {
		t.Errorf("input %q, queue %d", m.comp.Input().Value(), m.comp.Queue().Len())
	}
	lines := strings.Split(m.View(), "\n")
	if above := lines[len(lines)-3]; !strings.Contains(above, "the queued prompt is dropped") {
		t.Errorf("the notice is not above the status line:\n%s", m.View())
	}
	if !busyStatus(lines[len(lines)-2]) {
		t.Errorf("the status line lost the spinner: %q", lines[len(lines)-2])
	}
}

// busyStatus says whether a status line shows the spinner of a turn.
func busyStatus(s string) bool {
	for _, r := range s {
		return r >= 0x2800 && r <= 0x28ff
	}
	return false
}
