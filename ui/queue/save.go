package queue

import (
	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
)

// Saver keeps the queue beside the session: session.Writer.
type Saver interface {
	SaveQueue(gen uint64, q []session.QueuedPrompt) error
}

// SavedMsg reports that the queue could not be kept beside the session.
type SavedMsg struct{ Err error }

// Save returns the command that keeps the queue as it is now with w,
// numbered so that the last change wins; it reports a failure in a
// SavedMsg.
func (m Model) Save(w Saver) (Model, tea.Cmd) {
	m.gen++
	gen := m.gen
	q := make([]session.QueuedPrompt, len(m.list))
	for i, p := range m.list {
		q[i].Text = p.Text
		for _, f := range p.Files {
			q[i].Attachments = append(q[i].Attachments, f.Attachment)
			q[i].Data = append(q[i].Data, f.Data)
		}
	}
	return m, func() tea.Msg {
		if err := w.SaveQueue(gen, q); err != nil {
			return SavedMsg{err}
		}
		return nil
	}
}
