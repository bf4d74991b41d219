package input

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"muse/ui/menu"
)

// A [keys] table may rebind the search (search = ["ctrl+f"]) and the
// menu's moves (menuup, menudown): the new keys do it, ctrl+r no longer
// does, and the search's note names the key that switches its scope.
func TestRebindSearchAndMenuKeys(t *testing.T) {
	m := withHistory(t, "s1:explain channels", "s1:explain goroutines")
	_ = m.Remember("s1", " ")()
	km := testKeys()
	km.Search = key.NewBinding(key.WithKeys("ctrl+f"), key.WithHelp("ctrl+f", "search"))
	km.MenuUp = key.NewBinding(key.WithKeys("ctrl+k"))
	km.MenuDown = key.NewBinding(key.WithKeys("ctrl+j"))
	km = km.withDefaults()
	m.keys = &km
	m.menu = menu.New(m.keys.menuKeys())
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyCtrlR})
	if m.search != nil {
		t.Fatal("ctrl+r still searches")
	}
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyCtrlF})
	if m.search == nil {
		t.Fatal("ctrl+f does not search")
	}
	hint := strings.Join(m.Hint(), "\n")
	if !strings.Contains(hint, "ctrl+f this session only") || !strings.Contains(hint, "▸ explain goroutines") {
		t.Fatalf("the search shows:\n%s", hint)
	}
	m = update(m, tea.KeyMsg{Type: tea.KeyCtrlJ})
	if hint := strings.Join(m.Hint(), "\n"); !strings.Contains(hint, "▸ explain channels") {
		t.Errorf("menudown did not move the mark:\n%s", hint)
	}
	m = update(m, tea.KeyMsg{Type: tea.KeyCtrlK})
	if hint := strings.Join(m.Hint(), "\n"); !strings.Contains(hint, "▸ explain goroutines") {
		t.Errorf("menuup did not move the mark:\n%s", hint)
	}
}
