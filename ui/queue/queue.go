// Package queue holds the chat screen's prompt queue: a prompt sent while
// a reply or an image is on its way waits above the input, and is sent
// when the turn ends well. ↑ on an empty input brings the last one back
// into the input, to edit or to clear; a turn that fails or is cancelled
// stops the queue, and enter on an empty input starts it again.
//
// The queue is kept beside the session (see Save) each time it changes,
// so a kill or a crash does not lose it: resuming the session shows it
// again, stopped. It is a child of the chat screen: the root decides when
// a prompt waits and when the next goes; the queue keeps them, draws
// them, and saves them only in the command Save returns.
package queue

import (
	"muse/session"
	"muse/theme"
	"muse/ui/input"
	"muse/ui/pending"
)

// Prompt is a prompt waiting for the turn in flight to end, with the
// attachments that were waiting when it was sent.
type Prompt struct {
	Text  string
	Files []session.File
}

// Model is the queue: the prompts waiting, whether it stopped, and the
// prompt ↑ brought back into the input.
type Model struct {
	list    []Prompt
	stopped bool
	gen     uint64 // numbers the saves of the queue
	// back is the prompt ↑ brought back, which ctrl+c drops while the
	// input holds it as it came.
	back          *Prompt
	st            *theme.Styles
	width, height int
}

// New returns an empty queue drawn in st.
func New(st *theme.Styles) Model { return Model{st: st} }

// SetStyles draws the queue in st from the next frame.
func (m Model) SetStyles(st *theme.Styles) Model {
	m.st = st
	return m
}

// SetSize gives the window's size: below MinHeight rows the queue takes
// one line.
func (m Model) SetSize(width, height int) Model {
	m.width, m.height = width, height
	return m
}

// Len is how many prompts wait.
func (m Model) Len() int { return len(m.list) }

// Prompts are the prompts waiting, the next first; the caller must not
// change them.
func (m Model) Prompts() []Prompt { return m.list }

// Stopped reports whether the queue waits for enter to send the next.
func (m Model) Stopped() bool { return m.stopped }

// Push puts p last.
func (m Model) Push(p Prompt) Model {
	m.list = append(m.list[:len(m.list):len(m.list)], p)
	return m
}

// PopBack takes the last prompt off, to bring it back into the input; it
// is kept as the one Drop may drop.
func (m Model) PopBack() (Model, Prompt) {
	last := m.list[len(m.list)-1]
	m.list = m.list[:len(m.list)-1]
	if len(m.list) == 0 {
		m.stopped = false
	}
	m.back = &last
	return m, last
}

// Unqueue brings the last prompt back into in, an empty input, and its
// files above it into files, to be edited, sent again or dropped (see
// Drop).
func (m Model) Unqueue(in input.Model, files pending.Model) (Model, input.Model, pending.Model) {
	m, last := m.PopBack()
	return m, in.SetValue(last.Text), files.Append(last.Files)
}

// Drop drops the prompt Unqueue brought back, if in still holds it as it
// came: its text and the files it brought back go, the prompt is
// forgotten, and ok is true; otherwise nothing changes.
func (m Model) Drop(in input.Model, files pending.Model) (_ Model, _ input.Model, _ pending.Model, ok bool) {
	q := m.back
	if q == nil || in.Value() != q.Text {
		return m, in, files, false
	}
	m.back = nil
	return m, in.Reset(), files.DropLast(len(q.Files)), true
}

// Shift takes the first prompt off, to send it; the queue goes on.
func (m Model) Shift() (Model, Prompt) {
	q := m.list[0]
	m.list = m.list[1:]
	m.stopped = false
	return m, q
}

// Unshift puts q back first, refused, and stops the queue.
func (m Model) Unshift(q Prompt) Model {
	m.list = append([]Prompt{q}, m.list...)
	m.stopped = true
	return m
}

// Stop stops the queue until enter sends the next.
func (m Model) Stop() Model {
	m.stopped = true
	return m
}

// Restore shows the queue the session kept, stopped: it was not sent when
// muse stopped, and is sent only when the user says so.
func (m Model) Restore(q []session.QueuedPrompt) Model {
	m.list, m.stopped = nil, false
	for _, p := range q {
		qp := Prompt{Text: p.Text}
		for i, a := range p.Attachments {
			if i < len(p.Data) {
				qp.Files = append(qp.Files, session.File{Attachment: a, Data: p.Data[i]})
			}
		}
		m.list = append(m.list, qp)
	}
	m.stopped = len(m.list) > 0
	return m
}
