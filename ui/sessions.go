package ui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/ui/branches"
	"muse/ui/picker"
	"muse/ui/sessions"
)

// current is the session shown: its writer; its id, once written, and its
// title, as messages bring them; its settings; what its replies spent and
// how the last stopped (why it is not saved is the status line's, why it
// could not be saved on quitting the way out's). The root model
// holds it (see Model).
type current struct {
	writer   *session.Writer
	sessID   string
	title    string
	params   session.Params
	usage    session.Usage
	lastStop string
}

// openPickerMsg opens the session picker; first, as muse's first screen
// (muse -r), where esc quits.
type openPickerMsg struct{ first bool }

// updateSession handles the messages that open, switch, fork or write the
// session shown, and the picker's; ok is false for any other message.
func (m Model) updateSession(msg tea.Msg) (_ tea.Model, _ tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case picker.ListedMsg, picker.ChangedMsg, picker.DoneMsg:
		var cmd tea.Cmd
		m.sessions, cmd = m.sessions.Update(msg)
		if done, ok := msg.(picker.DoneMsg); ok && done.Quit { // esc on muse -r's picker
			next, quit := m.quit()
			return next, quit, true
		}
		return m, cmd, true
	case picker.PickedMsg:
		next, cmd := m.pick(msg.ID, msg.EntryID)
		return next, cmd, true
	case picker.RenameOpenMsg:
		title := session.CleanTitle(msg.Title)
		if title == "" {
			m.sessions = m.sessions.SetStatus("a title needs some text")
			return m, nil, true
		}
		m.title = title
		return m, sessions.Rename(m.writer, title), true
	case openPickerMsg:
		var cmd tea.Cmd
		var refused string
		if msg.first {
			m.sessions, cmd, refused = m.sessions.OpenFirst()
		} else {
			m.sessions, cmd, refused = m.sessions.Open(m.sessID)
		}
		if refused != "" {
			m.status = m.status.Note(refused)
		}
		return m, cmd, true
	case sessions.LoadedMsg:
		if msg.Err != nil {
			m.sessions = m.sessions.SetStatus(msg.Err.Error())
			return m, nil, true
		}
		next, cmd := m.resumed(msg.W, msg.S, "resumed "+msg.S.ID)
		next.conv = next.conv.RevealID(msg.EntryID)
		return next, cmd, true
	case branches.SwitchedMsg:
		next, cmd := m.switched(msg)
		return next, cmd, true
	case branches.ForkedMsg: // opened as resuming it would
		switch {
		case msg.Err != nil:
			m.status = m.status.Note(strings.TrimSpace(msg.Err.Error()))
			return m, nil, true
		case m.turns.Busy(): // cannot happen: fork waits for the turn
			return m, msg.Keep(), true
		}
		next, cmd := m.resumed(msg.W, msg.S, "forked into "+msg.S.ID)
		return next, cmd, true
	case sessions.SavedMsg:
		if msg.W != m.writer {
			return m, nil, true
		}
		if msg.ID != "" {
			m.sessID = msg.ID
		}
		m.status = m.status.Saved(msg.Err, msg.Unsaved)
		return m.layout(), nil, true
	case sessions.LeftMsg:
		m.status = m.status.Note("the last session was not saved: " + msg.Err.Error())
		return m, nil, true
	case sessions.ClosedMsg:
		m.sessID, m.quitting = msg.ID, m.quitting.Closed(msg.Err)
		return m, tea.Quit, true
	}
	return nil, nil, false
}

// pick resumes the session chosen in the picker, scrolled to entryID when
// a text search found it there.
func (m Model) pick(id, entryID string) (Model, tea.Cmd) {
	if id != m.sessID {
		if m.turns.Busy() {
			m.sessions = m.sessions.Close()
			m.status = m.status.Busy(busyNotice + ": esc cancels it, then ctrl+s")
			return m, nil
		}
		return m, sessions.Load(m.opts.Store, id, entryID)
	}
	m.sessions = m.sessions.Close()
	if entryID == "" || m.conv.Has(entryID) {
		m.conv = m.conv.RevealID(entryID)
		return m, nil
	}
	// A hit on another branch of this session: that branch becomes the
	// active one, as ‹ › would make it.
	if why := m.branchRefused(); why != "" {
		m.status = refused(m.status, why, m.turns.Busy())
		return m, nil
	}
	return m, branches.SwitchTo(m.writer, entryID)
}

// resumed shows the session s of w, opened for another (picked, forked),
// saying notice; the session shown before is let go of.
func (m Model) resumed(w *session.Writer, s session.Session, notice string) (Model, tea.Cmd) {
	cmd := sessions.Leave(m.writer)
	m = m.resumeFrom(w, s)
	m.status = m.status.Note(notice)
	return m, tea.Batch(cmd, loadPreviews(m.conv.Entries(), m.previewer()))
}
