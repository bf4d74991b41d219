package helpview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"muse/theme/themetest"
	"muse/ui/notices"
)

func newModel(t *testing.T, width, height int) Model {
	t.Helper()
	b := func(k, desc string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, desc)) }
	keys := KeyMap{PageUp: b("pgup", ""), PageDown: b("pgdown", ""), HalfUp: b("shift+up", ""), HalfDown: b("shift+down", ""),
		Top: b("home", ""), Bottom: b("end", "")}
	full := [][]key.Binding{{b("enter", "send"), b("?", "help"), b("ctrl+c", "quit")}}
	return New(themetest.Styles(t), keys, full).SetSize(width, height)
}

// Closed, the overlay shows nothing and takes no key; open, it scrolls
// within its lines, to the last and back to the first.
func TestOverlayScrolls(t *testing.T) {
	m := newModel(t, 40, 12)
	n := notices.New().Update("a notice")
	if m.View(n) != "" {
		t.Fatal("closed, yet drawn")
	}
	if _, ok := m.Update(tea.KeyMsg{Type: tea.KeyDown}, n); ok {
		t.Fatal("closed, yet scrolled")
	}
	m = m.Toggle()
	lines := m.Lines(n)
	if !strings.Contains(lines[1], "a notice") {
		t.Errorf("the notices are not first: %q", lines[:2])
	}
	m, ok := m.Update(tea.KeyMsg{Type: tea.KeyEnd}, n)
	if !ok || m.Top() != len(lines)-(m.room()-1) {
		t.Fatalf("end: at %d of %d (room %d)", m.Top(), len(lines), m.room())
	}
	if v := m.View(n); !strings.Contains(v, "esc or ? closes this help") || strings.Count(v, "\n")+1 != m.room() {
		t.Errorf("the last page:\n%s", v)
	}
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyDown}, n)
	if m.Top() != len(lines)-(m.room()-1) {
		t.Errorf("down past the end: at %d", m.Top())
	}
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyHome}, n)
	if m.Top() != 0 {
		t.Errorf("home: at %d", m.Top())
	}
	if _, ok := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")}, n); ok {
		t.Error("x scrolled")
	}
	if m.Toggle().Open() || m.Close().Open() {
		t.Error("not closed")
	}
}

// Wide enough, the keys sit in two columns; too narrow, one a line.
func TestTwoColumns(t *testing.T) {
	lines := []string{"a  one", "b  two", "c  three"}
	if got := twoColumns(lines, 40); len(got) != 2 || !strings.Contains(got[0], "c  three") {
		t.Errorf("wide: %q", got)
	}
	if got := twoColumns(lines, 10); got != nil {
		t.Errorf("narrow: %q", got)
	}
}
