package ui

import (
	"fmt"
	"os"
	"path/filepath"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/session/transcript"
	"muse/ui/sanitize"
)

// openPicker shows the session picker.
func (m Model) openPicker() (Model, tea.Cmd) {
	if m.opts.Store == nil {
		m.notice = "sessions are not saved in this run"
		return m, nil
	}
	var cmd tea.Cmd
	m.w.picker, cmd = m.w.picker.SetSize(m.width, m.height).Open(m.SessionID())
	m.state = statePicker
	return m, cmd
}

// sessionLoadedMsg carries a session to resume, opened for writing, and
// the entry to show (a text search's match), if any.
type sessionLoadedMsg struct {
	w       *session.Writer
	entryID string
	err     error
}

// loadSession opens a session for writing.
func loadSession(store *session.Store, id, entryID string) tea.Cmd {
	return func() tea.Msg {
		w, err := store.OpenWriter(id)
		return sessionLoadedMsg{w: w, entryID: entryID, err: err}
	}
}

// pick resumes the session chosen in the picker, scrolled to entryID when
// a text search found it there.
func (m Model) pick(id, entryID string) (Model, tea.Cmd) {
	if id == m.SessionID() {
		m.state = stateChat
		return m.showEntry(entryID), nil
	}
	if m.busy() {
		m.state = stateChat
		m.notice = "a reply or image is still on its way: esc cancels it, then ctrl+s"
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
	m = m.resume(msg.w).showEntry(msg.entryID)
	m.notice = "resumed " + msg.w.ID()
	return m, tea.Batch(cmd, loadPreviews(m.conv.Entries(), m.previewer()))
}

// leave lets go of the current session: what waits is written, and its
// lock released.
func (m Model) leave() tea.Cmd {
	w := m.writer
	return func() tea.Msg {
		if err := w.Close(); err != nil {
			return noticeMsg{text: "the last session was not saved: " + err.Error()}
		}
		return nil
	}
}

// savedMsg reports a record written by a command.
type savedMsg struct {
	w   *session.Writer
	err error
}

// save runs write, a change of the session's settings or title, in a
// command: writing is a side effect, never done in Update.
func (m Model) save(write func(w *session.Writer) error) tea.Cmd {
	w := m.writer
	return func() tea.Msg { return savedMsg{w: w, err: write(w)} }
}

func (m Model) saved(msg savedMsg) (tea.Model, tea.Cmd) {
	if msg.w != m.writer {
		return m, nil
	}
	if msg.err != nil {
		m.saveErr = msg.err.Error()
	} else if n, _ := msg.w.Unsaved(); n == 0 {
		m.saveErr = ""
	}
	return m.layout(), nil
}

// saveParams records changed settings.
func (m Model) saveParams() (tea.Model, tea.Cmd) {
	p := m.params
	return m.layout(), m.save(func(w *session.Writer) error { return w.SetParams(p) })
}

// rename gives the session a new title.
func (m Model) rename(title string) (tea.Model, tea.Cmd) {
	m.title = title
	m.notice = "renamed"
	return m, m.save(func(w *session.Writer) error { return w.SetTitle(title) })
}

// exportedMsg reports a finished export.
type exportedMsg struct {
	path string
	err  error
}

// export writes the conversation as Markdown to path (default ./muse-<id>.md).
func (m Model) export(path string) tea.Cmd {
	// A copy of the session as written: the command never reads what the
	// model or the engine keeps writing.
	snap := m.writer.Snapshot()
	sess := &snap
	if sess.ID == "" {
		sess.ID = "unsaved"
	}
	if sess.Created.IsZero() {
		sess.Created = m.now().UTC()
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
		err = transcript.Export(sess, "md", f, sanitize.ForExport)
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
