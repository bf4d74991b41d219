package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
)

// saveJob is a batch of records for the journal, written in order:
// retractions, then settings, then entries.
type saveJob struct {
	retract []string
	params  *session.Params
	entries []session.Entry
}

// savedMsg reports a finished save and hands the session back to the model.
type savedMsg struct {
	sess *session.Session
	err  error
}

// save queues a job; one save runs at a time, so records keep their order.
func (m Model) save(job saveJob) (tea.Model, tea.Cmd) { return m.queueSave(job) }

// saveParams records changed settings. A session not yet created takes
// them when it is.
func (m Model) saveParams() (tea.Model, tea.Cmd) {
	if m.sess == nil && !m.saving && len(m.queue) == 0 {
		return m.layout(), nil
	}
	p := m.params
	next, cmd := m.queueSave(saveJob{params: &p})
	return next.layout(), cmd
}

// queueSave appends a job to the save queue and starts it if none runs.
func (m Model) queueSave(job saveJob) (Model, tea.Cmd) {
	if m.opts.Store == nil {
		if m.quitting {
			return m, tea.Quit
		}
		return m, nil
	}
	m.queue = append(m.queue, job)
	return m.nextSave()
}

func (m Model) nextSave() (Model, tea.Cmd) {
	if m.saving || len(m.queue) == 0 {
		if m.quitting && !m.saving {
			return m, tea.Quit
		}
		return m, nil
	}
	job := m.queue[0]
	m.queue = m.queue[1:]
	title := ""
	if m.sess == nil {
		if len(job.entries) == 0 {
			return m.nextSave() // nothing to create a session for yet
		}
		title = m.title
		if title == "" {
			title = session.TitleFrom(firstPrompt(job.entries))
			m.title = title
		}
	}
	m.saving = true
	return m, writeJournal(m.opts.Store, m.sess, m.params, title, job)
}

// writeJournal appends a job's records, creating the session first if needed.
func writeJournal(store *session.Store, sess *session.Session, params session.Params, title string, job saveJob) tea.Cmd {
	return func() tea.Msg {
		if sess == nil {
			var err error
			if sess, err = store.Create(params); err != nil {
				return savedMsg{err: err}
			}
			if title != "" {
				if err := store.SetTitle(sess, title); err != nil {
					return savedMsg{sess: sess, err: err}
				}
			}
		}
		if err := store.Retract(sess, job.retract); err != nil {
			return savedMsg{sess: sess, err: err}
		}
		if job.params != nil {
			if err := store.SetParams(sess, *job.params); err != nil {
				return savedMsg{sess: sess, err: err}
			}
		}
		for _, e := range job.entries {
			if err := store.Append(sess, e); err != nil {
				return savedMsg{sess: sess, err: err}
			}
		}
		return savedMsg{sess: sess}
	}
}

func (m Model) saved(msg savedMsg) (Model, tea.Cmd) {
	m.saving = false
	if msg.sess != nil {
		m.sess, m.sessID = msg.sess, msg.sess.ID
	}
	if msg.err != nil {
		m = m.addEntry(session.Entry{Kind: session.KindNotice, Text: "could not save the session: " + msg.err.Error()})
	}
	return m.nextSave()
}

func firstPrompt(entries []session.Entry) string {
	for _, e := range entries {
		if e.Kind == session.KindUser {
			return e.Text
		}
	}
	return ""
}
