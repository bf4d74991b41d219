// Package selection is the chat screen's selection mode: a message of the
// conversation is chosen with the keys of KeyMap, and actions work on it:
// copy it or its code blocks, edit a prompt, regenerate a reply, switch to
// a sibling branch, fork the session there, attach its files again. It is
// a child of the chat screen: it keeps which message is selected and maps
// keys to an Action, which the root carries out on the conversation; it
// does no I/O.
package selection

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
)

// KeyMap are the keys of selection mode. Quit leaves it too, and the
// scroll keys scroll the conversation.
type KeyMap struct {
	Up, Down, Top, Bottom, Copy, Code, Leave, Quit           key.Binding
	Edit, Regenerate, PrevSibling, NextSibling, Fork, Attach key.Binding
	PageUp, PageDown, HalfUp, HalfDown                       key.Binding
}

// Action is what a key asks of the root.
type Action int

// The actions of selection mode.
const (
	None        Action = iota // a key selection mode does not know: nothing
	Leave                     // back to the input
	Moved                     // another message is selected (Index)
	Copy                      // copy the message as markdown
	Code                      // copy its next code block (see NextCode)
	Edit                      // edit the prompt
	Regenerate                // regenerate the reply
	PrevSibling               // switch to the previous branch
	NextSibling               // switch to the next branch
	Fork                      // fork the session at the message
	Attach                    // attach its images or files again
	Scroll                    // scroll the conversation by the key
)

// Model is selection mode: off, or on a message.
type Model struct {
	keys   *KeyMap // shared by copies: the root model is copied on every Update
	active bool
	idx    int // the entry selected
	code   int // the code block Code copies next
}

// New returns selection mode, off.
func New(keys KeyMap) Model { return Model{keys: &keys} }

// Start turns selection mode on.
func (m Model) Start() Model { return Model{keys: m.keys, active: true} }

// Leave turns selection mode off.
func (m Model) Leave() Model { return Model{keys: m.keys} }

// Active reports whether selection mode is on.
func (m Model) Active() bool { return m.active }

// Index is the place of the message selected among those shown.
func (m Model) Index() int { return m.idx }

// Entry is the message selected of those shown, es; false when selection
// mode is off, or es no longer holds it.
func (m Model) Entry(es []session.Entry) (session.Entry, bool) {
	if !m.active || m.idx >= len(es) {
		return session.Entry{}, false
	}
	return es[m.idx], true
}

// Select selects message i of n, within them; the code blocks start from
// the first.
func (m Model) Select(i, n int) Model {
	m.idx, m.code = min(max(i, 0), n-1), 0
	return m
}

// NextCode is the code block, of n, the Code action copies now; the next
// one is copied next time.
func (m Model) NextCode(n int) (Model, int) {
	i := m.code % n
	m.code = i + 1
	return m, i
}

// Update maps the key k to an action, on a conversation of n messages;
// the moves select the message they go to.
func (m Model) Update(k tea.KeyMsg, n int) (Model, Action) {
	keys := *m.keys
	switch {
	case key.Matches(k, keys.Leave, keys.Quit):
		return m, Leave
	case key.Matches(k, keys.Up):
		return m.Select(m.idx-1, n), Moved
	case key.Matches(k, keys.Down):
		return m.Select(m.idx+1, n), Moved
	case key.Matches(k, keys.Top):
		return m.Select(0, n), Moved
	case key.Matches(k, keys.Bottom):
		return m.Select(n-1, n), Moved
	}
	for _, a := range []struct {
		b key.Binding
		a Action
	}{{keys.Copy, Copy}, {keys.Code, Code}, {keys.Edit, Edit}, {keys.Regenerate, Regenerate},
		{keys.PrevSibling, PrevSibling}, {keys.NextSibling, NextSibling}, {keys.Fork, Fork}, {keys.Attach, Attach}} {
		if key.Matches(k, a.b) {
			return m, a.a
		}
	}
	if key.Matches(k, keys.PageUp, keys.PageDown, keys.HalfUp, keys.HalfDown) {
		return m, Scroll
	}
	return m, None
}

// ShortHelp is the help line of selection mode, short enough for 80
// columns: the keys that move, the actions, and last the key that leaves.
func (m Model) ShortHelp() []key.Binding {
	k := *m.keys
	first := func(b key.Binding) string {
		f, _, _ := strings.Cut(b.Help().Key, "/")
		return f
	}
	both := func(a, b key.Binding, sep, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(append(a.Keys(), b.Keys()...)...), key.WithHelp(first(a)+sep+first(b), desc))
	}
	code := key.NewBinding(key.WithKeys(k.Code.Keys()...), key.WithHelp(k.Code.Help().Key, "code"))
	return []key.Binding{both(k.Up, k.Down, "", "move"), k.Edit, k.Regenerate,
		both(k.PrevSibling, k.NextSibling, " ", "branch"), k.Fork, k.Copy, code, k.Leave}
}
