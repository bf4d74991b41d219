// Package sessions is the chat screen's session switcher: the session
// picker (ui/picker) over the screen while it is open, and the commands
// that open a session for writing, let go of one, and write the settings
// and the title of the one shown, each off the event loop. The root model
// keeps the session shown, and sets its other children anew when one of
// these messages brings another.
package sessions

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/session/index"
	"muse/theme"
	"muse/ui/picker"
)

// Model is the session picker, open or not, with what it needs to be made
// again in another theme. It is a value: the picker, 26 KB, is held by a
// pointer so that the chat screen's model stays small to copy, and is
// copied before it changes, never changed in place.
type Model struct {
	picker        *picker.Model
	open          bool
	store         *session.Store
	index         *index.Shared
	width, height int
}

// New returns the switcher of the sessions of store, listed and searched
// from ix, the index of store; a nil ix opens one of its own the first
// time the picker shows.
func New(store *session.Store, ix *index.Shared, th *theme.Theme) Model {
	if ix == nil && store != nil {
		ix = index.NewShared(store)
	}
	p := picker.New(store, ix, th)
	return Model{picker: &p, store: store, index: ix}
}

// Open shows the picker, which loads the list; current is the id of the
// session shown, if it was saved. With no store, sessions are not saved:
// the picker stays closed, and refused says so.
func (m Model) Open(current string) (_ Model, _ tea.Cmd, refused string) {
	if m.store == nil {
		return m, nil, "sessions are not saved in this run"
	}
	p, cmd := m.picker.SetSize(m.width, m.height).Open(current)
	m.picker, m.open = &p, true
	return m, cmd, ""
}

// OpenFirst shows the picker as muse's first screen (muse -r alone):
// esc there quits muse (picker.DoneMsg's Quit), ctrl+n goes to a new
// session. With no store it stays closed, as Open does.
func (m Model) OpenFirst() (_ Model, _ tea.Cmd, refused string) {
	if m.store == nil {
		return m, nil, "sessions are not saved in this run"
	}
	p, cmd := m.picker.SetSize(m.width, m.height).OpenFirst()
	m.picker, m.open = &p, true
	return m, cmd, ""
}

// IsOpen reports whether the picker shows.
func (m Model) IsOpen() bool { return m.open }

// Close goes back to the chat.
func (m Model) Close() Model {
	m.open = false
	return m
}

// SetSize sets the picker's size.
func (m Model) SetSize(width, height int) Model {
	m.width, m.height = width, height
	p := m.picker.SetSize(width, height)
	m.picker = &p
	return m
}

// SetTheme makes the picker anew in th; it is closed while a command is
// typed, and opens in the new colours.
func (m Model) SetTheme(th *theme.Theme) Model {
	p := picker.New(m.store, m.index, th).SetSize(m.width, m.height)
	m.picker = &p
	return m
}

// SetStatus shows a line of news in the picker, such as why a session
// could not be resumed.
func (m Model) SetStatus(s string) Model {
	p := m.picker.SetStatus(s)
	m.picker = &p
	return m
}

// Update handles the picker's keys and messages; its DoneMsg closes it.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if _, ok := msg.(picker.DoneMsg); ok {
		return m.Close(), nil
	}
	p, cmd := m.picker.Update(msg)
	m.picker = &p
	return m, cmd
}

// Leave leaves the picker as esc does (see picker.Model.Leave).
func (m Model) Leave() (Model, tea.Cmd) {
	if !m.open {
		return m, nil
	}
	p, cmd := m.picker.Leave()
	m.picker = &p
	return m, cmd
}

// View draws the picker.
func (m Model) View() string { return m.picker.View() }

// LoadedMsg carries a session to resume, opened for writing, as it
// stands, and the entry to show (a text search's match), if any.
type LoadedMsg struct {
	W       *session.Writer
	S       session.Session
	EntryID string
	Err     error
}

// Load opens the session id of store for writing. When entryID, a
// search's hit, is on another branch than the active one, the latest
// branch through it is made the active one, so that the hit shows.
func Load(store *session.Store, id, entryID string) tea.Cmd {
	return func() tea.Msg {
		w, err := store.OpenWriter(id)
		if err != nil {
			return LoadedMsg{Err: err}
		}
		snap := w.Snapshot()
		if entryID != "" && !slices.ContainsFunc(snap.Entries, func(e session.Entry) bool { return e.ID == entryID }) &&
			slices.ContainsFunc(snap.All, func(e session.Entry) bool { return e.ID == entryID }) {
			if err := w.SetHead(snap.Leaf(entryID)); err == nil {
				snap = w.Snapshot()
			}
		}
		return LoadedMsg{W: w, S: snap, EntryID: entryID}
	}
}

// LeftMsg reports that the session let go of could not be saved.
type LeftMsg struct{ Err error }

// Leave lets go of the session of w: what waits is written, and its lock
// released. Only a failure is reported.
func Leave(w *session.Writer) tea.Cmd {
	return func() tea.Msg {
		if err := w.Close(); err != nil {
			return LeftMsg{Err: err}
		}
		return nil
	}
}

// ClosedMsg reports the session closed, on quitting, and its id.
type ClosedMsg struct {
	ID  string
	Err error
}

// Close writes what waits of the session of w and lets go of it, on
// quitting.
func Close(w *session.Writer) tea.Cmd {
	return func() tea.Msg {
		err := w.Close()
		return ClosedMsg{ID: w.ID(), Err: err}
	}
}

// SavedMsg reports a record written by a command: the session's id, once
// it has one, and how many records still wait to be written.
type SavedMsg struct {
	W       *session.Writer
	ID      string
	Unsaved int
	Err     error
}

// Save runs write, a change of the settings or the title of the session
// of w, in a command: writing is a side effect, never done in Update.
func Save(w *session.Writer, write func(w *session.Writer) error) tea.Cmd {
	return func() tea.Msg {
		err := write(w)
		n, _ := w.Unsaved()
		return SavedMsg{W: w, ID: w.ID(), Unsaved: n, Err: err}
	}
}

// SaveParams records the session's changed settings p, in a command.
func SaveParams(w *session.Writer, p session.Params) tea.Cmd {
	return Save(w, func(w *session.Writer) error { return w.SetParams(p) })
}

// SetTitle gives the session of w the title typed in /rename, in a
// command.
func SetTitle(w *session.Writer, title string) tea.Cmd {
	return Save(w, func(w *session.Writer) error { return w.SetTitle(title) })
}

// Rename gives the session of w, open in the picker, the title typed
// there, and tells the picker.
func Rename(w *session.Writer, title string) tea.Cmd {
	return func() tea.Msg { return picker.ChangedMsg{What: "renamed", Err: w.SetTitle(title)} }
}
