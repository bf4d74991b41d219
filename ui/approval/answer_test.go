package approval

import (
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// What a key asks while a call waits: y, n, a, esc and shift+tab for a
// command's approval; enter, esc and typing for a typed result; never an
// answer right behind a paste, a space (for y, n, a) or a yes settling.
func TestKey(t *testing.T) {
	m := box(t)
	m.keys.Send = key.NewBinding(key.WithKeys("enter"))
	m.keys.Cancel = key.NewBinding(key.WithKeys("esc"))
	m = m.SetSize(60, 3).Open(call)
	typed := Context{Typing: true}
	r := func(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
	for _, c := range []struct {
		name string
		k    tea.KeyMsg
		c    Context
		want Answer
	}{
		{"y", r("y"), Context{}, Yes},
		{"a", r("a"), Context{}, Always},
		{"n", r("n"), Context{}, No},
		{"esc", tea.KeyMsg{Type: tea.KeyEsc}, Context{}, Cancel},
		{"shift+tab", tea.KeyMsg{Type: tea.KeyShiftTab}, Context{}, All},
		{"x", r("x"), Context{}, Waits},
		{"pgdown", tea.KeyMsg{Type: tea.KeyPgDown}, Context{}, Scrolled},
		{"y after a paste", r("y"), Context{AfterPaste: true}, Refused},
		{"y after a space", r("y"), Context{AfterSpace: true}, Refused},
		{"a key behind a yes", r("x"), Context{Settling: true}, Refused},
		{"pgdown behind a yes", tea.KeyMsg{Type: tea.KeyPgDown}, Context{Settling: true}, Refused},
		{"enter", tea.KeyMsg{Type: tea.KeyEnter}, typed, Result},
		{"esc typing", tea.KeyMsg{Type: tea.KeyEsc}, typed, Cancel},
		{"y typing", r("y"), typed, Typed},
		{"enter after a space", tea.KeyMsg{Type: tea.KeyEnter}, Context{Typing: true, AfterSpace: true}, Result},
		{"enter after a paste", tea.KeyMsg{Type: tea.KeyEnter}, Context{Typing: true, AfterPaste: true}, NotMine},
	} {
		if _, got := m.Key(c.k, c.c); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
	if scrolled, _ := m.Key(tea.KeyMsg{Type: tea.KeyPgDown}, Context{}); scrolled.top == 0 {
		t.Error("pgdown did not scroll the box it returned")
	}
}
