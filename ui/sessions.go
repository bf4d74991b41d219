package ui

import (
	"fmt"
	"os"
	"path/filepath"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
)

// openPicker shows the session picker.
func (m Model) openPicker() (Model, tea.Cmd) {
	if m.opts.Store == nil {
		m.notice = "sessions are not saved in this run"
		return m, nil
	}
	var cmd tea.Cmd
	m.w.picker, cmd = m.w.picker.SetSize(m.width, m.height).Open()
	m.state = statePicker
	return m, cmd
}

// sessionLoadedMsg carries a session to resume, locked for this process.
type sessionLoadedMsg struct {
	sess   *session.Session
	unlock func() error
	err    error
}

// loadSession locks and loads a session.
func loadSession(store *session.Store, id string) tea.Cmd {
	return func() tea.Msg {
		unlock, err := store.Lock(id)
		if err != nil {
			return sessionLoadedMsg{err: err}
		}
		sess, err := store.Load(id)
		if err != nil {
			unlock()
			return sessionLoadedMsg{err: err}
		}
		return sessionLoadedMsg{sess: sess, unlock: unlock}
	}
}

// pick resumes the session chosen in the picker.
func (m Model) pick(id string) (Model, tea.Cmd) {
	if id == m.sessID {
		m.state = stateChat
		return m, nil
	}
	if m.busy() {
		m.state = stateChat
		m.notice = "a reply or image is still on its way: esc cancels it, then ctrl+s"
		return m, nil
	}
	return m, loadSession(m.opts.Store, id)
}

func (m Model) loaded(msg sessionLoadedMsg) (Model, tea.Cmd) {
	if msg.err != nil {
		m.w.picker.status = msg.err.Error()
		return m, nil
	}
	m, cmd := m.leave()
	m = m.resume(msg.sess, msg.unlock)
	m.notice = "resumed " + msg.sess.ID
	return m, tea.Batch(cmd, loadPreviews(msg.sess.Entries, m.previewer()))
}

// leave lets go of the current session: its lock is released once no save
// for it is pending.
func (m Model) leave() (Model, tea.Cmd) {
	j := m.journal
	if j == nil || m.pendingFor(j) {
		return m, nil
	}
	return m, unlockJournal(j)
}

// pendingFor reports whether a save for j is queued or running.
func (m Model) pendingFor(j *journal) bool {
	if m.saving && m.savingJ == j {
		return true // saved() releases it once this save lands
	}
	for _, job := range m.queue {
		if job.j == j {
			return true
		}
	}
	return false
}

// unlockJournal releases a journal's lock.
func unlockJournal(j *journal) tea.Cmd {
	return func() tea.Msg {
		if j.unlock != nil {
			if err := j.unlock(); err != nil {
				return noticeMsg{text: "release session lock: " + err.Error()}
			}
		}
		return nil
	}
}

// rename gives the session a new title.
func (m Model) rename(title string) (tea.Model, tea.Cmd) {
	m.title = title
	m.notice = "renamed"
	if m.sessID == "" && !m.titleSaved {
		return m, nil // the title goes with the session when it is created
	}
	m.titleSaved = true
	next, cmd := m.save(saveJob{title: title})
	return next, cmd
}

// exportedMsg reports a finished export.
type exportedMsg struct {
	path string
	err  error
}

// export writes the conversation as Markdown to path (default ./muse-<id>.md).
func (m Model) export(path string) tea.Cmd {
	sess := &session.Session{ID: m.sessID, Title: m.title, Params: m.params, Entries: m.conv.Entries(), Updated: m.now().UTC()}
	if sess.ID == "" {
		sess.ID = "unsaved"
	}
	if path == "" {
		path = fmt.Sprintf("muse-%s.md", sess.ID)
	}
	return func() tea.Msg {
		path = expandHome(path)
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
		if err != nil {
			return exportedMsg{err: fmt.Errorf("export to %s: %w", path, err)}
		}
		err = session.Export(sess, "md", f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return exportedMsg{err: fmt.Errorf("export to %s: %w", path, err)}
		}
		abs, _ := filepath.Abs(path)
		return exportedMsg{path: abs}
	}
}

func expandHome(path string) string {
	if len(path) > 1 && path[0] == '~' && path[1] == '/' {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, path[2:])
		}
	}
	return path
}

// newSession starts an empty session (ctrl+n).
func (m Model) newSession() (tea.Model, tea.Cmd) { return m.clear() }
