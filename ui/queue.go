package ui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"muse/session"
	"muse/ui/attach"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// The queue: a prompt sent while a reply or an image is on its way waits
// above the input, and is sent when the turn ends well. ↑ on an empty input
// brings the last one back into the input, to edit or to clear; a turn that
// fails or is cancelled stops the queue, and enter on an empty input starts
// it again.
//
// The queue is kept beside the session (session.Writer.SaveQueue) each time
// it changes, so a kill or a crash does not lose it: resuming the session
// shows it again, stopped, for enter to send the next, as after a failed
// turn. Quitting keeps it the same way.

// queuedPrompt is a prompt waiting for the turn in flight to end, with the
// attachments that were waiting when it was sent.
type queuedPrompt struct {
	text  string
	files []attach.File
}

// busyNotice is what the status line says of an action that needs the turn
// in flight to end first; the end of the turn takes it away.
const busyNotice = "a reply or image is still on its way"

// enqueue puts text, with the attachments waiting, behind the turn in
// flight; the input empties.
func (m Model) enqueue(text string) (Model, tea.Cmd) {
	m.queue = append(m.queue, queuedPrompt{text: text, files: m.pending})
	m.pending = nil
	var cmd tea.Cmd
	if strings.TrimSpace(m.input.Value()) == text {
		m.input = m.input.Reset().EndRecall()
		cmd = m.input.Remember(m.sessID, text)
	}
	m, save := m.keepQueue()
	return m.layout(), tea.Batch(cmd, save)
}

// queueSavedMsg reports that the queue could not be kept beside the
// session.
type queueSavedMsg struct{ err error }

// keepQueue returns the command that keeps the queue as it is now beside
// the session, numbered so that the last change wins.
func (m Model) keepQueue() (Model, tea.Cmd) {
	m.queueGen++
	w, gen := m.writer, m.queueGen
	q := make([]session.QueuedPrompt, len(m.queue))
	for i, p := range m.queue {
		q[i].Text = p.text
		for _, f := range p.files {
			q[i].Attachments = append(q[i].Attachments, f.Attachment)
			q[i].Data = append(q[i].Data, f.Data)
		}
	}
	return m, func() tea.Msg {
		if err := w.SaveQueue(gen, q); err != nil {
			return queueSavedMsg{err}
		}
		return nil
	}
}

// restoreQueue shows the queue the session kept, stopped: it was not sent
// when muse stopped, and is sent only when the user says so.
func (m Model) restoreQueue(q []session.QueuedPrompt) Model {
	m.queue, m.queueStopped = nil, false
	for _, p := range q {
		qp := queuedPrompt{text: p.Text}
		for i, a := range p.Attachments {
			if i < len(p.Data) {
				qp.files = append(qp.files, attach.File{Attachment: a, Data: p.Data[i]})
			}
		}
		m.queue = append(m.queue, qp)
	}
	m.queueStopped = len(m.queue) > 0
	return m
}

// unqueue brings the last queued prompt back into the (empty) input, and
// its attachments above it, to be edited, sent again or cleared.
func (m Model) unqueue() (tea.Model, tea.Cmd) {
	last := m.queue[len(m.queue)-1]
	m.queue = m.queue[:len(m.queue)-1]
	if len(m.queue) == 0 {
		m.queueStopped = false
	}
	m.pending = append(m.pending, last.files...)
	m.input = m.input.SetValue(last.text)
	m.unqueued = &last
	m.notice = "queued prompt back in the input: enter queues it again · ctrl+c drops it"
	if !m.busy() {
		m.notice = "queued prompt back in the input: enter sends it · ctrl+c drops it"
	}
	m, save := m.keepQueue()
	return m.layout(), save
}

// dropUnqueued drops the queued prompt that ↑ brought back, if the input
// still holds it as it came: its text and the attachments it brought back
// go; it reports whether it did.
func (m Model) dropUnqueued() (Model, bool) {
	q := m.unqueued
	m.unqueued = nil
	if q == nil || m.input.Value() != q.text {
		return m, false
	}
	if n := len(m.pending) - len(q.files); n >= 0 {
		m.pending = m.pending[:n]
	}
	m.input = m.input.Reset()
	m.notice = "the queued prompt is dropped"
	return m.layout(), true
}

// sendQueued sends the first queued prompt, leaving the input and the
// attachments waiting with it as they are.
func (m Model) sendQueued() (tea.Model, tea.Cmd) {
	q := m.queue[0]
	m.queue = m.queue[1:]
	m.queueStopped = false
	kept := m.pending
	m.pending = q.files
	next, cmd := m.sendNow(q.text)
	nm := next.(Model)
	if nm.turn == nil { // refused: it waits again, first, and the queue stops
		nm.pending = kept
		nm.queue = append([]queuedPrompt{q}, nm.queue...)
		nm.queueStopped = true
		return nm.layout(), cmd
	}
	nm.pending = kept
	nm, save := nm.keepQueue()
	return nm.layout(), tea.Batch(cmd, save)
}

// queueAfterTurn goes on with the queue once a turn has ended: the next
// prompt is sent if the turn ended well; otherwise the queue stops, and
// the status line says so after why.
func (m Model) queueAfterTurn(ok bool) (tea.Model, tea.Cmd) {
	if strings.HasPrefix(m.notice, busyNotice) {
		m.notice = "" // the turn it waited for has ended
	}
	if len(m.queue) == 0 || m.quitting {
		return m, nil
	}
	if ok && !m.queueStopped {
		return m.sendQueued()
	}
	m.queueStopped = true
	// Short: the queue's own line says how to go on.
	stopped := fmt.Sprintf("queue stopped: %s waiting", textfmt.Plural(len(m.queue), "prompt"))
	switch {
	case m.notice != "":
		stopped = m.notice + " · " + stopped
	case m.lastErr != "":
		stopped = "the turn failed · " + stopped
	default:
		stopped = "cancelled · " + stopped
	}
	m.notice = stopped
	return m.layout(), nil
}

// minQueueHeight is the least screen height the queue shows on several
// lines at.
const minQueueHeight = 16

// maxQueueShown is how many queued prompts the lines above the input show.
const maxQueueShown = 3

// queueHeight is how many rows the queued prompts take.
func (m Model) queueHeight() int {
	if len(m.queue) == 0 {
		return 0
	}
	return strings.Count(m.queueView(), "\n") + 1
}

// queueView shows the queued prompts, one a row, and the keys that act on
// them.
func (m Model) queueView() string {
	st := m.th.Styles
	width := max(m.width-1, 10)
	if m.height < minQueueHeight { // a small screen: one line
		line, style := "queued › ", st.Accent
		if m.queueStopped {
			line, style = "queue stopped › ", st.Warning
		}
		line += strings.Join(strings.Fields(sanitize.Line(m.queue[0].text)), " ")
		if n := len(m.queue); n > 1 {
			line = fmt.Sprintf("%s (+%d)", textfmt.TruncateWidth(line, width-5), n-1)
		}
		return style.Render(textfmt.TruncateWidth(line, width))
	}
	var lines []string
	for i, q := range m.queue {
		if i == maxQueueShown {
			lines = append(lines, st.Subtle.Render(textfmt.TruncateWidth(fmt.Sprintf("  … and %d more", len(m.queue)-i), width)))
			break
		}
		text := "queued › " + strings.Join(strings.Fields(sanitize.Line(q.text)), " ")
		if len(q.files) > 0 {
			text += " + " + textfmt.Plural(len(q.files), "file")
		}
		lines = append(lines, st.Accent.Render(textfmt.TruncateWidth(text, width)))
	}
	help, short, style := "sent when the reply ends · ↑ edits the last · esc cancels the reply and stops the queue",
		"sent after the reply · ↑ edits", st.Subtle
	if m.queueStopped {
		help, short, style = "queue stopped · enter on an empty input sends the next · ↑ edits the last",
			"stopped · enter sends next · ↑ edits", st.Warning
	}
	if lipgloss.Width(help) > width {
		help = short
	}
	lines = append(lines, style.Render(textfmt.TruncateWidth(help, width)))
	return strings.Join(lines, "\n")
}
