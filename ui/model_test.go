package ui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/ui/turns"
)

// The model is a value (see Model): what a copy goes on to do leaves the
// model it was copied from as it was, for the parts held by pointer too:
// the turn in flight, the widgets, the picker, the conversation's display
// settings, the input, the session's shape.
func TestModelIsAValue(t *testing.T) {
	h := newHarness(t, 0)
	sess := threeReplies(t, h)
	m := sized(t, h, sess, 80, 24)
	m.turns = m.turns.With(turns.Run{ID: 1, Cancel: func() {}})

	c := m
	c, _ = updateModel(c, ctrl(tea.KeyEsc))                                   // cancels the turn
	c, _ = updateModel(c, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("?")}) // opens the help
	c, _ = updateModel(c, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")})
	c, _ = updateModel(c, ctrl(tea.KeyCtrlG)) // hides the previews
	c, _ = updateModel(c, ctrl(tea.KeyCtrlS)) // opens the picker
	c.branches = c.branches.Note(session.Entry{ID: "e-new", Parent: sess.Entries[0].ID}, c.conv.Entries())
	c = c.refreshBranches()
	if !c.turns.Turn().Cancelled || c.comp.Input().Value() != "x" || !c.w.help.Open() || c.conv.ShowPreviews() || !c.sessions.IsOpen() {
		t.Fatalf("the copy: cancelled %v, input %q, help %v, previews %v, picker %v",
			c.turns.Turn().Cancelled, c.comp.Input().Value(), c.w.help.Open(), c.conv.ShowPreviews(), c.sessions.IsOpen())
	}

	if m.turns.Turn().Cancelled || m.comp.Input().Value() != "" || !m.conv.ShowPreviews() || m.sessions.IsOpen() || m.w.help.Open() {
		t.Errorf("the original changed: cancelled %v, input %q, previews %v, picker %v, help %v",
			m.turns.Turn().Cancelled, m.comp.Input().Value(), m.conv.ShowPreviews(), m.sessions.IsOpen(), m.w.help.Open())
	}
	// The shape only grows with entries the journal holds: a copy's notes
	// are the original's too, but the original places its entries as it
	// did until it refreshes.
	if m.branches.View() != "3 branches" {
		t.Errorf("the original's branches: %q", m.branches.View())
	}
}
