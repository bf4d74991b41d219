package picker

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// TestFullHelpAlone: ? shows the full help, every key once, with its last
// line whole (ctrl+n on the first screen), and no short key line under
// it; esc closes it and the short line is back. At 60x20 and 80x24.
func TestFullHelpAlone(t *testing.T) {
	for _, size := range [][2]int{{60, 20}, {80, 24}} {
		p := pickerOf(t, []string{"zebra crossing"}, []string{"apple"})
		first, cmd := p.OpenFirst()
		first, _ = first.Update(cmd())
		first = first.SetSize(size[0], size[1])
		short := ansi.Strip(first.View())
		if !strings.Contains(short, "? more") {
			t.Fatalf("%v: no short key line before ?:\n%s", size, short)
		}
		help, _ := first.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("?")})
		v := ansi.Strip(help.View())
		if strings.Contains(v, "? more") || strings.Contains(v, "↑↓ move") {
			t.Errorf("%v: the short key line shows under the full help:\n%s", size, v)
		}
		for _, want := range []string{"? close help", "ctrl+n", "new session", "esc", "quit", "rename", "delete"} {
			if strings.Count(v, want) != 1 {
				t.Errorf("%v: the full help names %q %d times, want once:\n%s", size, want, strings.Count(v, want), v)
			}
		}
		if got := strings.Count(v, "\n") + 1; got > size[1] {
			t.Errorf("%v: the help view is %d rows", size, got)
		}
		closed, _ := help.Update(tea.KeyMsg{Type: tea.KeyEsc})
		if v := ansi.Strip(closed.View()); !strings.Contains(v, "? more") {
			t.Errorf("%v: esc did not bring back the short line:\n%s", size, v)
		}
	}
}
