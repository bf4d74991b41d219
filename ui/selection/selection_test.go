package selection

import (
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
)

func keys() KeyMap {
	b := func(k string) key.Binding { return key.NewBinding(key.WithKeys(k)) }
	return KeyMap{Up: b("up"), Down: b("down"), Top: b("home"), Bottom: b("end"), Copy: b("y"), Code: b("c"),
		Leave: b("esc"), Quit: b("ctrl+c"), Edit: b("e"), Regenerate: b("r"), PrevSibling: b("["), NextSibling: b("]"),
		Fork: b("f"), Attach: b("a"), PageUp: b("pgup"), PageDown: b("pgdown"), HalfUp: b("shift+up"), HalfDown: b("shift+down")}
}

func press(k string) tea.KeyMsg {
	switch k {
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "home":
		return tea.KeyMsg{Type: tea.KeyHome}
	case "end":
		return tea.KeyMsg{Type: tea.KeyEnd}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "pgup":
		return tea.KeyMsg{Type: tea.KeyPgUp}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// The moves stay within the messages; each action key gives its action,
// and a key selection mode does not know gives none.
func TestSelectionUpdate(t *testing.T) {
	m := New(keys()).Start().Select(3, 4)
	for _, c := range []struct {
		key    string
		action Action
		index  int
	}{{"down", Moved, 3}, {"up", Moved, 2}, {"home", Moved, 0}, {"up", Moved, 0}, {"end", Moved, 3},
		{"y", Copy, 3}, {"c", Code, 3}, {"e", Edit, 3}, {"r", Regenerate, 3}, {"[", PrevSibling, 3}, {"]", NextSibling, 3},
		{"f", Fork, 3}, {"a", Attach, 3}, {"pgup", Scroll, 3}, {"x", None, 3}, {"esc", Leave, 3}} {
		var a Action
		m, a = m.Update(press(c.key), 4)
		if a != c.action || m.Index() != c.index {
			t.Errorf("%s: action %d at %d, want %d at %d", c.key, a, m.Index(), c.action, c.index)
		}
	}
}

// Code copies the blocks one a press, round again after the last; a move
// starts from the first again.
func TestSelectionNextCode(t *testing.T) {
	m := New(keys()).Start().Select(1, 2)
	var got []int
	for range 4 {
		var i int
		m, i = m.NextCode(3)
		got = append(got, i)
	}
	if got[0] != 0 || got[1] != 1 || got[2] != 2 || got[3] != 0 {
		t.Errorf("code blocks %v", got)
	}
	if _, i := m.Select(0, 2).NextCode(3); i != 0 {
		t.Errorf("after a move: block %d", i)
	}
}

// Entry is the message selected while it is shown, none when off.
func TestSelectionEntry(t *testing.T) {
	es := []session.Entry{{ID: "a"}, {ID: "b"}}
	m := New(keys())
	if _, ok := m.Entry(es); ok || m.Active() {
		t.Fatal("off, yet an entry is selected")
	}
	m = m.Start().Select(1, len(es))
	if e, ok := m.Entry(es); !ok || e.ID != "b" {
		t.Errorf("selected %+v, %v", e, ok)
	}
	if _, ok := m.Entry(es[:1]); ok {
		t.Error("an entry no longer shown is selected")
	}
	if m = m.Leave(); m.Active() || m.Index() != 0 {
		t.Errorf("left: active %v at %d", m.Active(), m.Index())
	}
}
