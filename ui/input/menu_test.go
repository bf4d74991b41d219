package input

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// typeKeys types s a key at a time, running the commands the input asks
// for (the walk of the working folder) as the event loop would.
func typeKeys(t *testing.T, m Model, s string) Model {
	t.Helper()
	for _, r := range s {
		var cmd tea.Cmd
		m, cmd = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		m = runCmds(m, cmd)
	}
	return m
}

// runCmds runs cmd and the batches in it, and gives the input what they
// report.
func runCmds(m Model, cmd tea.Cmd) Model {
	if cmd == nil {
		return m
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			m = runCmds(m, c)
		}
	case filesListedMsg:
		m, _ = m.Update(msg)
	}
	return m
}

// "@" typed opens the menu of the files under the working folder, filtered
// as the path is typed; tab takes the marked one as a mention, typed, so it
// is the user's choice (Typed).
func TestFileMenu(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"notes.md", "docs/notes-old.md", "main.go", "my file.txt", "build/notes.bin"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("build/\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	// Update lists nothing itself: the walk is a command, and until it
	// ends the menu says so.
	waiting, cmd := sized(t, 80, 24).Update(runes("@"))
	if cmd == nil || !strings.Contains(strings.Join(waiting.Hint(), "\n"), "listing the files here") {
		t.Errorf("no walk asked for, or the menu does not wait for it: %q", waiting.Hint())
	}
	m := typeKeys(t, sized(t, 80, 24), "see @no")
	hint := strings.Join(m.Hint(), "\n")
	if !strings.Contains(hint, "▸ notes.md") || !strings.Contains(hint, "docs/notes-old.md") || strings.Contains(hint, "build") {
		t.Fatalf("the menu:\n%s", hint)
	}
	m = update(m, keyOf(tea.KeyDown))
	m = update(m, tea.KeyMsg{Type: tea.KeyTab})
	if m.Value() != "see @docs/notes-old.md " || !m.Typed() {
		t.Errorf("took %q, typed %v", m.Value(), m.Typed())
	}
	if len(m.Hint()) != 0 {
		t.Errorf("the menu stays open: %q", m.Hint())
	}
	// A name with a space is taken quoted; enter takes as tab does.
	m = typeKeys(t, sized(t, 80, 24), "@my")
	m, ok := m.Enter()
	if !ok || m.Value() != `@"my file.txt" ` {
		t.Errorf("enter took %q (%v)", m.Value(), ok)
	}
	// A path typed whole: enter is the screen's, to send.
	m = typeKeys(t, sized(t, 80, 24), "see @notes.md")
	if m, ok = m.Enter(); ok || !strings.HasPrefix(m.Value(), "see @notes.md") {
		t.Errorf("enter on a path typed whole: %q (%v)", m.Value(), ok)
	}
	// Pasted text opens no menu.
	m = update(sized(t, 80, 24), tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("see @no"), Paste: true})
	if len(m.Hint()) != 0 {
		t.Errorf("a paste opened the menu: %q", m.Hint())
	}
}

// Enter on a command that needs its argument takes it and waits; on one
// that needs none it puts it in and lets the screen run it.
func TestEnterOnCommandMenu(t *testing.T) {
	m := typeKeys(t, sized(t, 80, 24), "/mod")
	m, ok := m.Enter()
	if !ok || m.Value() != "/model " {
		t.Errorf("%q, %v", m.Value(), ok)
	}
	m = typeKeys(t, sized(t, 80, 24), "/ret")
	m, ok = m.Enter()
	if ok || strings.TrimSpace(m.Value()) != "/retry" {
		t.Errorf("%q, %v", m.Value(), ok)
	}
}
