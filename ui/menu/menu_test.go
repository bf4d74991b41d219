package menu

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"muse/ui/textfmt"
)

// The mark moves round the ends and stays in view; lines fit the width;
// a hostile name is drawn sanitized; the mark follows its item when the
// items change.
func TestMenu(t *testing.T) {
	var items []Item
	for i := range 10 {
		items = append(items, Item{Label: fmt.Sprintf("file%d.md", i), Value: fmt.Sprint(i)})
	}
	items[3].Label = "evil\x1b[2Jname.md"
	m := New(DefaultKeyMap()).SetSize(20, 4).SetItems(items, "")
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyUp}) // round to the last
	if it, _ := m.Selected(); it.Value != "9" {
		t.Fatalf("marked %q", it.Value)
	}
	lines := m.Lines()
	if len(lines) != 5 || !strings.HasPrefix(lines[3], "▸ file9.md") || !strings.Contains(lines[4], "10 of 10") {
		t.Errorf("lines %q", lines)
	}
	for range 4 {
		m, _ = m.Update(tea.KeyMsg{Type: tea.KeyDown})
	}
	for _, l := range m.Lines() {
		if strings.Contains(l, "\x1b") || textfmt.Width(l) > 20 {
			t.Errorf("line %q", l)
		}
	}
	m = m.SetItems(items[2:], "note")
	if it, _ := m.Selected(); it.Value != "3" {
		t.Errorf("the mark left its item: %q", it.Value)
	}
	if m = m.SetItems(nil, ""); m.Open() {
		t.Error("an empty menu is open")
	}
}
