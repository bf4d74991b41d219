// Package branches is the chat screen's view of a session's shape. A
// session is a tree (see session.Tree): the screen shows its active
// branch, each message with siblings says which of them it is, "‹ 2/3 ›",
// and the status bar how many branches the session holds. The package
// also holds the commands that move the session's head to another branch
// and fork the session into a new one; every write runs in a command, off
// the event loop.
//
// Model is a value, except for its tree, which only grows, and only with
// entries already written to the session's journal: what a copy adds is
// true for every copy.
package branches

import (
	"fmt"
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/ui/notices"
)

// Model is where the entries shown stand in the session's shape, as the
// screen keeps it from what messages brought (never asking the writer,
// which a turn may hold).
type Model struct {
	tree  *session.Tree
	at    map[string]session.Position
	count int
}

// New returns the shape of s; Refresh places the entries shown in it.
func New(s session.Session) Model { return Model{tree: s.Tree()} }

// Has reports whether the entry id is noted in the shape.
func (m Model) Has(id string) bool { return m.tree != nil && m.tree.Has(id) }

// Note notes the entry e, written, in the shape. An entry written after
// the head names no parent: it follows the last entry of shown (the
// entries on screen) before it that the shape holds.
func (m Model) Note(e session.Entry, shown []session.Entry) Model {
	if e.Parent == "" {
		for i := slices.IndexFunc(shown, func(x session.Entry) bool { return x.ID == e.ID }) - 1; i >= 0; i-- {
			if m.tree.Has(shown[i].ID) {
				e.Parent = shown[i].ID
				break
			}
		}
	}
	m.tree.Add(e)
	return m
}

// Refresh places the entries shown in the shape; live is the reply that
// just started, not written yet.
func (m Model) Refresh(shown []session.Entry, live ...session.Entry) Model {
	if m.tree == nil {
		m.at, m.count = nil, 0
		return m
	}
	m.at, m.count = m.tree.Positions(shown, live...)
	return m
}

// Badges are what the entries' headers show of their siblings, by entry
// id: " ‹ 2/3 ›" for those that have any.
func (m Model) Badges() map[string]string {
	badges := make(map[string]string, len(m.at))
	for id, p := range m.at {
		if b := Badge(p); b != "" {
			badges[id] = b
		}
	}
	return badges
}

// Badge is what an entry's header shows of its siblings: " ‹ 2/3 ›", or
// "" when it has none.
func Badge(p session.Position) string {
	if of := p.Of(); of != "" {
		return " ‹ " + of + " ›"
	}
	return ""
}

// At returns where the entry id stands, if it is shown and saved.
func (m Model) At(id string) (session.Position, bool) {
	p, ok := m.at[id]
	return p, ok
}

// Of is the entry id's place among its siblings, "2/3", or "".
func (m Model) Of(id string) string { return m.at[id].Of() }

// Count is how many branches the session holds.
func (m Model) Count() int { return m.count }

// View is what the status bar says of the branches: "3 branches", or ""
// while there is one.
func (m Model) View() string {
	if m.count < 2 {
		return ""
	}
	return fmt.Sprintf("%d branches", m.count)
}

// SwitchedMsg reports the head of W moved to the branch through the entry
// Sel, and the session as it then stands.
type SwitchedMsg struct {
	W   *session.Writer
	S   session.Session
	Sel string
	Err error
}

// Switch returns the command that makes the previous (by -1) or next (by
// 1) sibling of the entry id the active branch of w, through its latest
// path; or, when there is none, or the branch shown must not change now
// (refused, when set, says why), why not.
func (m Model) Switch(w *session.Writer, id string, by int, refused string) (tea.Cmd, string) {
	p := m.at[id]
	if len(p.Siblings) < 2 {
		return nil, "this message has no other branch"
	}
	if refused != "" {
		return nil, refused
	}
	k := p.Pos + by
	if k < 0 || k >= len(p.Siblings) {
		which := "later"
		if by < 0 {
			which = "earlier"
		}
		return nil, fmt.Sprintf("no %s branch: this is %d of %d", which, p.Pos+1, len(p.Siblings))
	}
	sib := p.Siblings[k]
	return func() tea.Msg {
		snap := w.Snapshot()
		err := w.SetHead(snap.Leaf(sib))
		return SwitchedMsg{W: w, S: w.Snapshot(), Sel: sib, Err: err}
	}, ""
}

// SwitchTo returns the command that makes the latest branch through the
// entry id the active one of w, as a search's hit on another branch asks.
// An entry gone since it was found leaves the head where it is.
func SwitchTo(w *session.Writer, id string) tea.Cmd {
	return func() tea.Msg {
		snap := w.Snapshot()
		if !slices.ContainsFunc(snap.All, func(e session.Entry) bool { return e.ID == id }) {
			return SwitchedMsg{W: w, S: snap, Sel: id}
		}
		err := w.SetHead(snap.Leaf(id))
		return SwitchedMsg{W: w, S: w.Snapshot(), Sel: id, Err: err}
	}
}

// ForkedMsg carries the session forked, opened for writing, as it stands.
type ForkedMsg struct {
	W   *session.Writer
	S   session.Session
	Err error
}

// Keep lets go of the session forked, kept saved, when the screen cannot
// show it: a command closes it, then says where it was forked into.
func (msg ForkedMsg) Keep() tea.Cmd {
	return func() tea.Msg {
		_ = msg.W.Close()
		return notices.Msg{Text: "forked into " + msg.S.ID}
	}
}

// Fork returns the command that copies the active branch of the session
// sessID of store, up to its entry id, into a new session, then opens it;
// or, when it cannot, why not: the session is not saved (store nil, or
// sessID ""), the branch shown must not change now (refused, when set,
// says why), or the entry is not saved in it.
func (m Model) Fork(store *session.Store, sessID, id, refused string) (tea.Cmd, string) {
	if store == nil || sessID == "" {
		return nil, "nothing to fork: the session is not saved yet"
	}
	if refused != "" {
		return nil, refused
	}
	p, ok := m.At(id)
	if !ok {
		return nil, "this message is not saved in the session: select another"
	}
	num := p.Num
	return func() tea.Msg {
		sess, err := store.Fork(sessID, num, "")
		if err != nil {
			return ForkedMsg{Err: err}
		}
		w, err := store.OpenWriter(sess.ID)
		if err != nil {
			return ForkedMsg{Err: err}
		}
		return ForkedMsg{W: w, S: w.Snapshot()}
	}, ""
}
