package input

import (
	"os"
	"path/filepath"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// pastedPathOf runs the command of a key's update and returns the
// PathPastedMsg it reports, if any.
func pastedPathOf(cmd tea.Cmd) (PathPastedMsg, bool) {
	if cmd == nil {
		return PathPastedMsg{}, false
	}
	switch msg := cmd().(type) {
	case PathPastedMsg:
		return msg, true
	case tea.BatchMsg:
		for _, c := range msg {
			if p, ok := pastedPathOf(c); ok {
				return p, true
			}
		}
	}
	return PathPastedMsg{}, false
}

// A path in a burst of keys without bracketed paste (tmux send-keys,
// dictation) is text: only a real paste may be a file dropped on the
// terminal.
func TestBurstIsNoDroppedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.md")
	os.WriteFile(path, []byte("x"), 0o600)
	m := sized(t, 80, 24)
	m, k := m.Receive(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(path)})
	m, cmd := m.Update(k)
	if p, ok := pastedPathOf(cmd); ok {
		t.Errorf("a burst of keys was taken for a dropped file: %+v", p)
	}
	m = m.Reset()
	m, k = m.Receive(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(path), Paste: true})
	_, cmd = m.Update(k)
	if p, ok := pastedPathOf(cmd); !ok || p.Path != path {
		t.Errorf("a bracketed paste of a path is a dropped file: %+v %v", p, ok)
	}
}

// A dropped file that is a secret says so, to be left as text.
func TestDroppedSecretIsNamed(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	key := filepath.Join(home, ".ssh", "id_rsa")
	os.MkdirAll(filepath.Dir(key), 0o700)
	os.WriteFile(key, []byte("x"), 0o600)
	m := sized(t, 80, 24)
	m, k := m.Receive(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(key), Paste: true})
	_, cmd := m.Update(k)
	if p, ok := pastedPathOf(cmd); !ok || p.Secret == "" {
		t.Errorf("the key's path should be reported as a secret: %+v %v", p, ok)
	}
}

// Typed holds while every character came from a key of the user's own,
// Tab completion included, and no longer once text came any other way,
// until the input is empty again.
func TestTypedOnlyWhileTheUserTyped(t *testing.T) {
	m := sized(t, 80, 24)
	for _, r := range "/he" {
		m = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	m = update(m, tea.KeyMsg{Type: tea.KeyTab})
	if !m.Typed() || m.Value() == "/he" {
		t.Fatalf("typed and completed %q: Typed %v", m.Value(), m.Typed())
	}
	for name, set := range map[string]func(Model) Model{
		"a paste": func(m Model) Model {
			return update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x y"), Paste: true})
		},
		"a burst of keys": func(m Model) Model {
			m, k := m.Receive(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("xy")})
			return update(m, k)
		},
		"the editor's text": func(m Model) Model { return m.SetValue("from the editor") },
	} {
		if set(m).Typed() {
			t.Errorf("text from %s is taken for typed", name)
		}
		next := set(m)
		for next.Value() != "" {
			next = update(next, tea.KeyMsg{Type: tea.KeyBackspace})
		}
		if !next.Typed() || !set(m).Reset().Typed() {
			t.Errorf("after %s, an empty input is not typed again", name)
		}
	}
}
