//go:build unix

package input

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// A pasted path of a file in the working folder that is a link out of it
// is reported with the link's target, which the notice names (attack
// review: the chip and the notice read only "README.md" before).
func TestPastedLinkNamesItsTarget(t *testing.T) {
	root := t.TempDir()
	home, proj := filepath.Join(root, "home"), filepath.Join(root, "proj")
	t.Setenv("HOME", home)
	private := filepath.Join(home, "notes", "private.txt")
	for _, d := range []string{filepath.Dir(private), proj} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(private, []byte("PRIVATE\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(proj, "README.md")
	if err := os.Symlink(private, link); err != nil {
		t.Fatal(err)
	}
	t.Chdir(proj)
	m := sized(t, 200, 30)
	m, k := m.Receive(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(link), Paste: true})
	m, cmd := m.Update(k)
	p, ok := pastedPathOf(cmd)
	// The target comes shortened from the command, since shortening reads
	// the file system, which the notice's Update must not.
	if want := "~/notes/private.txt"; !ok || p.Target != want {
		t.Fatalf("reported %+v %v, want the target %s", p, ok, want)
	}
	if _, notice := m.PathPasted(p); !strings.HasPrefix(notice, "pasted a file: README.md → ~/notes/private.txt is attached at the next enter") {
		t.Errorf("notice %q", notice)
	}
}
