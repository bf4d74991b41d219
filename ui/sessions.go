package ui

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/ui/notices"
	"muse/ui/picker"
)

// openPicker shows the session picker.
func (m Model) openPicker() (Model, tea.Cmd) {
	if m.opts.Store == nil {
		m.notice = "sessions are not saved in this run"
		return m, nil
	}
	var cmd tea.Cmd
	m.w.picker, cmd = m.w.picker.SetSize(m.width, m.height).Open(m.sessID)
	m.state = statePicker
	return m, cmd
}

// sessionLoadedMsg carries a session to resume, opened for writing, as it
// stands, and the entry to show (a text search's match), if any.
type sessionLoadedMsg struct {
	w       *session.Writer
	s       session.Session
	entryID string
	err     error
}

// loadSession opens a session for writing. When entryID, a search's hit,
// is on another branch than the active one, the latest branch through it
// is made the active one, so that the hit shows.
func loadSession(store *session.Store, id, entryID string) tea.Cmd {
	return func() tea.Msg {
		w, err := store.OpenWriter(id)
		if err != nil {
			return sessionLoadedMsg{err: err}
		}
		snap := w.Snapshot()
		if entryID != "" && !slices.ContainsFunc(snap.Entries, func(e session.Entry) bool { return e.ID == entryID }) &&
			slices.ContainsFunc(snap.All, func(e session.Entry) bool { return e.ID == entryID }) {
			if err := w.SetHead(snap.Leaf(entryID)); err == nil {
				snap = w.Snapshot()
			}
		}
		return sessionLoadedMsg{w: w, s: snap, entryID: entryID}
	}
}

// pick resumes the session chosen in the picker, scrolled to entryID when
// a text search found it there.
func (m Model) pick(id, entryID string) (Model, tea.Cmd) {
	if id == m.sessID {
		m.state = stateChat
		if entryID == "" || m.indexOf(entryID) >= 0 {
			return m.showEntry(entryID), nil
		}
		// A hit on another branch of this session: that branch becomes
		// the active one, as ‹ › would make it.
		if why := m.branchRefused(); why != "" {
			m.notice = why
			return m, nil
		}
		w := m.writer
		return m, func() tea.Msg {
			snap := w.Snapshot()
			if !slices.ContainsFunc(snap.All, func(e session.Entry) bool { return e.ID == entryID }) {
				return switchedMsg{w: w, s: snap, sel: entryID} // gone since it was found
			}
			err := w.SetHead(snap.Leaf(entryID))
			return switchedMsg{w: w, s: w.Snapshot(), sel: entryID, err: err}
		}
	}
	if m.busy() {
		m.state = stateChat
		m.notice = busyNotice + ": esc cancels it, then ctrl+s"
		return m, nil
	}
	return m, loadSession(m.opts.Store, id, entryID)
}

// showEntry scrolls the conversation to the entry id, if it shows.
func (m Model) showEntry(id string) Model {
	if id == "" {
		return m
	}
	es := m.conv.Entries()
	for i := range es {
		if es[i].ID == id {
			m.conv = m.conv.Reveal(i)
			break
		}
	}
	return m
}

func (m Model) loaded(msg sessionLoadedMsg) (Model, tea.Cmd) {
	if msg.err != nil {
		m.w.picker = m.w.picker.SetStatus(msg.err.Error())
		return m, nil
	}
	cmd := m.leave()
	m = m.resumeFrom(msg.w, msg.s).showEntry(msg.entryID)
	m.notice = "resumed " + msg.s.ID
	return m, tea.Batch(cmd, loadPreviews(m.conv.Entries(), m.previewer()))
}

// leave lets go of the current session: what waits is written, and its
// lock released.
func (m Model) leave() tea.Cmd {
	w := m.writer
	return func() tea.Msg {
		if err := w.Close(); err != nil {
			return notices.Msg{Text: "the last session was not saved: " + err.Error()}
		}
		return nil
	}
}

// savedMsg reports a record written by a command: the session's id, once
// it has one, and how many records still wait to be written.
type savedMsg struct {
	w       *session.Writer
	id      string
	unsaved int
	err     error
}

// save runs write, a change of the session's settings or title, in a
// command: writing is a side effect, never done in Update.
func (m Model) save(write func(w *session.Writer) error) tea.Cmd {
	w := m.writer
	return func() tea.Msg {
		err := write(w)
		n, _ := w.Unsaved()
		return savedMsg{w: w, id: w.ID(), unsaved: n, err: err}
	}
}

func (m Model) saved(msg savedMsg) (tea.Model, tea.Cmd) {
	if msg.w != m.writer {
		return m, nil
	}
	if msg.id != "" {
		m.sessID = msg.id
	}
	if msg.err != nil {
		m.saveErr = msg.err.Error()
	} else if msg.unsaved == 0 {
		m.saveErr = ""
	}
	return m.layout(), nil
}

// saveParams records changed settings.
func (m Model) saveParams() (tea.Model, tea.Cmd) {
	p := m.params
	return m.layout(), m.save(func(w *session.Writer) error { return w.SetParams(p) })
}

// renameOpen gives the session a new title from the picker, where it was
// typed for the session shown.
func (m Model) renameOpen(typed string) (tea.Model, tea.Cmd) {
	title := session.CleanTitle(typed)
	if title == "" {
		m.w.picker = m.w.picker.SetStatus("a title needs some text")
		return m, nil
	}
	m.title = title
	w := m.writer
	return m, func() tea.Msg { return picker.ChangedMsg{What: "renamed", Err: w.SetTitle(title)} }
}

// rename gives the session a new title.
func (m Model) rename(title string) (tea.Model, tea.Cmd) {
	m.title = title
	m.notice = "renamed"
	return m, m.save(func(w *session.Writer) error { return w.SetTitle(title) })
}

// newSession starts an empty session (ctrl+n).
func (m Model) newSession() (tea.Model, tea.Cmd) { return m.clear() }
