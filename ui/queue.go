package ui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"muse/ui/queue"
	"muse/ui/textfmt"
)

// The prompt queue is a child (ui/queue): the root puts a prompt sent
// while a turn is in flight behind it, sends the next as a turn ends well,
// and saves the queue beside the session each time it changes.

// busyNotice is what the status line says of an action that needs the turn
// in flight to end first; the end of the turn takes it away.
const busyNotice = "a reply or image is still on its way"

// enqueue puts text, with the attachments waiting, behind the turn in
// flight; the input empties.
func (m Model) enqueue(text string) (Model, tea.Cmd) {
	m.queue = m.queue.Push(queue.Prompt{Text: text, Files: m.pending.Files()})
	m.pending = m.pending.Set(nil)
	var cmd tea.Cmd
	if strings.TrimSpace(m.input.Value()) == text {
		m.input = m.input.Reset().EndRecall()
		cmd = m.input.Remember(m.sessID, text)
	}
	var save tea.Cmd
	m.queue, save = m.queue.Save(m.writer)
	return m.layout(), tea.Batch(cmd, save)
}

// unqueue brings the last queued prompt back into the (empty) input, and
// its attachments above it, to be edited, sent again or cleared.
func (m Model) unqueue() (tea.Model, tea.Cmd) {
	m.queue, m.input, m.pending = m.queue.Unqueue(m.input, m.pending)
	m.status = m.status.Note("queued prompt back in the input: enter queues it again · ctrl+c drops it")
	if !m.busy() {
		m.status = m.status.Note("queued prompt back in the input: enter sends it · ctrl+c drops it")
	}
	var save tea.Cmd
	m.queue, save = m.queue.Save(m.writer)
	return m.layout(), save
}

// sendQueued sends the first queued prompt, leaving the input and the
// attachments waiting with it as they are.
func (m Model) sendQueued() (tea.Model, tea.Cmd) {
	var q queue.Prompt
	m.queue, q = m.queue.Shift()
	kept := m.pending.Files()
	m.pending = m.pending.Set(q.Files)
	next, cmd := m.sendNow(q.Text)
	nm := next.(Model)
	nm.pending = nm.pending.Set(kept)
	if nm.turns.Turn() == nil { // refused: it waits again, first, and the queue stops
		nm.queue = nm.queue.Unshift(q)
		return nm.layout(), cmd
	}
	var save tea.Cmd
	nm.queue, save = nm.queue.Save(nm.writer)
	return nm.layout(), tea.Batch(cmd, save)
}

// queueAfterTurn goes on with the queue once a turn has ended: the next
// prompt is sent if the turn ended well; otherwise the queue stops, and
// the status line says so after why.
func (m Model) queueAfterTurn(ok bool) (tea.Model, tea.Cmd) {
	if strings.HasPrefix(m.status.Notice(), busyNotice) {
		m.status = m.status.Note("") // the turn it waited for has ended
	}
	if m.queue.Len() == 0 || m.quitting.Active() {
		return m, nil
	}
	if ok && !m.queue.Stopped() {
		return m.sendQueued()
	}
	m.queue = m.queue.Stop()
	// Short: the queue's own line says how to go on.
	stopped := fmt.Sprintf("queue stopped: %s waiting", textfmt.Plural(m.queue.Len(), "prompt"))
	switch {
	case m.status.Notice() != "":
		stopped = m.status.Notice() + " · " + stopped
	case m.status.LastErr() != "":
		stopped = "the turn failed · " + stopped
	default:
		stopped = "cancelled · " + stopped
	}
	m.status = m.status.Note(stopped)
	return m.layout(), nil
}
