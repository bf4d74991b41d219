package input

import (
	"errors"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// Tab on what a server completes asks it in a command, never in Update;
// its options go in as a /command's do, the hint naming each by its value;
// an answer to an input that changed meanwhile is dropped; a failure or no
// option is a notice.
func TestTabAsksTheServer(t *testing.T) {
	asked := 0
	answer := []string{"/ev:p department=Sales ", "/ev:p department=Support "}
	var fail error
	ask := func(value string) func() ([]string, error) {
		if !strings.HasSuffix(value, "department=S") {
			return nil
		}
		return func() ([]string, error) { asked++; return answer, fail }
	}
	m := typed(t, "/ev:p department=S").WithAskedCompletions(ask)
	next, cmd := m.Update(tea.KeyMsg{Type: tea.KeyTab})
	if cmd == nil || asked != 0 || next.Value() != "/ev:p department=S" {
		t.Fatalf("Tab asked in Update (%d) or changed the input to %q", asked, next.Value())
	}
	m, notices, _ := tab(t, m, 1)
	if m.Value() != answer[0] || len(notices) != 0 || asked != 1 {
		t.Errorf("value %q, notices %q, asked %d", m.Value(), notices, asked)
	}
	if h := strings.Join(m.Hint(), "\n"); !strings.Contains(h, "[Sales]  Support") {
		t.Errorf("hint %q", h)
	}
	if m, _, _ = tab(t, m, 1); m.Value() != answer[1] {
		t.Errorf("Tab again: %q", m.Value())
	}

	// The input changed before the answer came.
	m = typed(t, "/ev:p department=S").WithAskedCompletions(ask)
	m, cmd = m.Update(tea.KeyMsg{Type: tea.KeyTab})
	msg := cmd()
	m = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")})
	if m = update(m, msg); m.Value() != "/ev:p department=Sx" {
		t.Errorf("a stale answer applied: %q", m.Value())
	}

	for _, c := range []struct {
		answer []string
		err    error
		want   string
	}{
		{nil, errors.New("the MCP server ev did not complete department: timeout"), "the MCP server ev did not complete department: timeout"},
		{nil, nil, "the server has no completion for this"},
	} {
		answer, fail = c.answer, c.err
		m, notices, _ := tab(t, typed(t, "/ev:p department=S").WithAskedCompletions(ask), 1)
		if m.Value() != "/ev:p department=S" || !slices.Equal(notices, []string{c.want}) {
			t.Errorf("value %q, notices %q; want %q", m.Value(), notices, c.want)
		}
	}
}
