package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"muse/ui/slash"
)

// The ? overlay scrolls with ↓ and pgdn, and at every size shows every
// key and every command, whole, somewhere on the way down; its first page
// is kept as a golden at each size.
func TestHelpOverlayScrollsToEverything(t *testing.T) {
	for _, size := range []struct{ w, h int }{{120, 40}, {80, 24}, {40, 10}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			h := newHarness(t, 0)
			tm := start(t, h.model(t, nil), size.w, size.h)
			tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("?")})
			waitFor(t, tm, "↑↓")
			m := quit(t, tm)
			first := m.View()
			golden.RequireEqual(t, []byte(first))

			all := m.w.help.Lines(m.status.Notices())
			seen := ""
			for i := 0; i < len(all)+2; i++ {
				view := m.View()
				if n := strings.Count(view, "\n") + 1; n != size.h {
					t.Fatalf("the view has %d lines, want %d", n, size.h)
				}
				for j, line := range strings.Split(view, "\n") {
					if w := visibleWidth(line); w > size.w {
						t.Fatalf("line %d is %d wide: %q", j, w, line)
					}
				}
				seen += view
				m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyDown})
			}
			for _, l := range all {
				if !strings.Contains(seen, l) {
					t.Errorf("the line %q is never shown", l)
				}
			}
			flat := strings.Join(strings.Fields(strings.Join(all, "\n")), "") // wrapping may break at a hyphen
			for _, group := range m.keys.FullHelp() {
				for _, b := range group {
					if !strings.Contains(seen, b.Help().Key) {
						t.Errorf("the key %q is never shown", b.Help().Key)
					}
				}
			}
			for _, l := range slash.HelpLines() {
				name, _, _ := strings.Cut(l, " ")
				if !strings.Contains(seen, name) {
					t.Errorf("the command %s is never shown", name)
				}
				if words := strings.Join(strings.Fields(l), ""); !strings.Contains(flat, words) {
					t.Errorf("the help of %s is cut: %q", name, words)
				}
			}
			if !strings.Contains(seen, "esc or ? closes this help") {
				t.Error("the end of the help is never reached")
			}
			m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyPgUp})
			m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyHome})
			if m.View() != first {
				t.Error("home does not scroll back to the first page")
			}
		})
	}
}
