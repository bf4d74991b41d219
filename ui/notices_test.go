package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"muse/ui/notices"
)

// A notice too long for the status line at 80 columns is cut there with
// "…", and ? and /info show it whole.
func TestNoticesReadWhole(t *testing.T) {
	h := newHarness(t, 0)
	m := h.model(t, nil)
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 80, Height: 40})
	long := "a notice far too long for the status line at eighty columns, which wraps it onto a second line above it and then cuts the rest with an ellipsis, so that what follows is never read there, ending in THE-END"
	m, _ = updateModel(m, notices.Msg{Text: long})
	if v := m.View(); strings.Contains(v, "THE-END") || !strings.Contains(v, "…") {
		t.Fatalf("the status line shows it whole, or does not cut it:\n%s", v)
	}
	m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("?")})
	if v := m.View(); !strings.Contains(v, "last notices, newest first") || !strings.Contains(v, "THE-END") {
		t.Errorf("? does not show the notice whole:\n%s", v)
	}
	m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyEsc})
	for _, r := range "/info" {
		m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyEnter})
	if v := m.View(); !strings.Contains(v, "THE-END") {
		t.Errorf("/info does not show the notice whole:\n%s", v)
	}
}
