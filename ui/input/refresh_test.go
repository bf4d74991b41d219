package input

import (
	"path/filepath"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session/prompts"
	"muse/theme"
)

// ↑ finds a prompt another muse saved while this one ran: the first ↑ of a
// walk refreshes the history in a command (Update itself reads no file),
// and the step is taken when it ends; the next ↑ steps at once. A key typed
// before the refresh ends keeps the input as typed.
func TestRecallSeesPromptsOfAnotherMuse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "prompts.jsonl")
	mine, err := prompts.Open(path, 100)
	if err != nil {
		t.Fatal(err)
	}
	other, err := prompts.Open(path, 100)
	if err != nil {
		t.Fatal(err)
	}
	if err := mine.Add("s1", "mine"); err != nil {
		t.Fatal(err)
	}
	th, _ := theme.New("dark", true)
	m := New(th, testKeys(), mine).SetSize(80, 24)
	if err := other.Add("s2", "from the other muse"); err != nil {
		t.Fatal(err)
	}
	up := tea.KeyMsg{Type: tea.KeyUp}
	m, cmd := m.Update(up)
	if cmd == nil || m.Value() != "" {
		t.Fatalf("the first ↑ stepped at once (%q), without refreshing the history", m.Value())
	}
	m, _ = m.Update(cmd())
	if m.Value() != "from the other muse" {
		t.Errorf("the first ↑ shows %q", m.Value())
	}
	m, cmd = m.Update(up)
	if cmd != nil || m.Value() != "mine" {
		t.Errorf("the second ↑ shows %q (command %v)", m.Value(), cmd != nil)
	}

	// Typed over before the refresh ended: the input stays as typed.
	m = New(th, testKeys(), mine).SetSize(80, 24)
	m, cmd = m.Update(up)
	m = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")})
	m, _ = m.Update(cmd())
	if m.Value() != "x" {
		t.Errorf("a refresh ending after a key replaced the input: %q", m.Value())
	}
}
