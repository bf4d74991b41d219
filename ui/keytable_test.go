package ui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
)

// A profile's [keys] table rebinds the row of the screen's key table: the
// new key does what the action does, and the old one is typed into the
// input like any other.
func TestKeyTableFollowsRebinding(t *testing.T) {
	h := newHarness(t, 0)
	m := h.modelWith(t, nil, func(o *Options) {
		o.Keys = map[string][]string{"sessions": {"ctrl+p"}, "help": {"f1"}}
	})
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 80, Height: 24})

	old, _ := updateModel(m, ctrl(tea.KeyCtrlS))
	if old.sessions.IsOpen() {
		t.Error("ctrl+s, rebound away, still opens the picker")
	}
	opened, cmd := updateModel(m, ctrl(tea.KeyCtrlP))
	if !opened.sessions.IsOpen() || cmd == nil {
		t.Errorf("ctrl+p, bound to sessions, did not open the picker: open %v", opened.sessions.IsOpen())
	}

	typed, _ := updateModel(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("?")})
	if typed.w.help.Open() || typed.comp.Input().Value() != "?" {
		t.Errorf("?, rebound away: help %v, input %q", typed.w.help.Open(), typed.comp.Input().Value())
	}
	help, _ := updateModel(m, ctrl(tea.KeyF1))
	if !help.w.help.Open() {
		t.Error("f1, bound to help, did not open the help")
	}
	// The help opened in a copy: the model it came from still has it closed.
	if m.w.help.Open() {
		t.Error("opening the help changed the model it was opened from")
	}
}

// A row's condition picks between the rows of one key: backspace on an
// empty input takes back the last attachment, and on a typed one deletes
// a character.
func TestKeyTableConditions(t *testing.T) {
	h := newHarness(t, 0)
	m := h.model(t, nil)
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m.comp = m.comp.SetPending(m.comp.Pending().Set([]session.File{{Attachment: session.Attachment{Name: "notes.md"}}}))
	typed := m
	typed.comp = typed.comp.SetInput(typed.comp.Input().SetValue("ab"))
	deleted, _ := updateModel(typed, ctrl(tea.KeyBackspace))
	if deleted.comp.Input().Value() != "a" || deleted.comp.Pending().Len() != 1 {
		t.Errorf("backspace on a typed input: input %q, %d attachments", deleted.comp.Input().Value(), deleted.comp.Pending().Len())
	}
	detached, _ := updateModel(m, ctrl(tea.KeyBackspace))
	if detached.comp.Pending().Len() != 0 || detached.status.Notice() != "removed notes.md" {
		t.Errorf("backspace on an empty input: %d attachments left, notice %q", detached.comp.Pending().Len(), detached.status.Notice())
	}
}
