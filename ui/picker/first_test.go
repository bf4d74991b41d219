package picker

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// doneOf runs cmd and returns its DoneMsg; ok is false when it gives none.
func doneOf(cmd tea.Cmd) (DoneMsg, bool) {
	if cmd == nil {
		return DoneMsg{}, false
	}
	d, ok := cmd().(DoneMsg)
	return d, ok
}

// As muse's first screen (muse -r), the picker says what leaves it: esc
// quits muse and ctrl+n goes to a new session; esc in the filter ends the
// filter only.
// Opened from the chat (ctrl+s), esc goes back to it, as before.
func TestFirstScreenEscQuits(t *testing.T) {
	p := pickerOf(t, []string{"zebra crossing"}, []string{"apple"})
	esc, ctrlN := tea.KeyMsg{Type: tea.KeyEsc}, tea.KeyMsg{Type: tea.KeyCtrlN}

	first, cmd := p.OpenFirst()
	first, _ = first.Update(cmd())
	view := first.View()
	if !strings.Contains(view, "resume a session") || !strings.Contains(view, "esc quit") || !strings.Contains(view, "ctrl+n new session") {
		t.Errorf("the first screen does not say what esc and ctrl+n do:\n%s", view)
	}
	if _, cmd := first.Update(esc); !isDone(cmd, true) {
		t.Error("esc on the first screen does not quit")
	}
	if _, cmd := first.Update(ctrlN); !isDone(cmd, false) {
		t.Error("ctrl+n on the first screen does not go to a new session")
	}
	filtering, _ := typed(first, "/ap")
	if !filtering.list.SettingFilter() {
		t.Fatal("/ does not start the filter")
	}
	if _, cmd := filtering.Update(esc); cmd != nil {
		if _, ok := doneOf(cmd); ok {
			t.Error("esc in the filter left the picker")
		}
	}

	again, cmd := first.Open("")
	again, _ = again.Update(cmd())
	if view := again.View(); strings.Contains(view, "esc quit") || strings.Contains(view, "resume a session") {
		t.Errorf("opened from the chat, the picker still says esc quits:\n%s", view)
	}
	if _, cmd := again.Update(esc); !isDone(cmd, false) {
		t.Error("esc from the chat's picker does not go back")
	}
	if _, cmd := again.Update(ctrlN); isDone(cmd, false) {
		t.Error("ctrl+n acts in the chat's picker")
	}
}

// isDone reports whether cmd gives a DoneMsg that quits or not, as quit.
func isDone(cmd tea.Cmd, quit bool) bool {
	d, ok := doneOf(cmd)
	return ok && d.Quit == quit
}

// With no session saved, the first screen says how to start one.
func TestFirstScreenWithNoSessions(t *testing.T) {
	p := pickerOf(t)
	p, cmd := p.OpenFirst()
	p, _ = p.Update(cmd())
	if v := p.View(); !strings.Contains(v, "no session saved yet: ctrl+n starts one, esc quits") {
		t.Errorf("the empty first screen:\n%s", v)
	}
	p, cmd = p.Open("")
	p, _ = p.Update(cmd())
	if v := p.View(); strings.Contains(v, "ctrl+n starts one") {
		t.Errorf("the chat's empty picker:\n%s", v)
	}
}

// While a filter is typed or applied on the first screen, esc ends the
// filter: the key line says so alone, not "esc quit" beside it.
func TestFirstScreenFilterKeyLine(t *testing.T) {
	p := pickerOf(t, []string{"zebra crossing"}, []string{"apple"})
	first, cmd := p.OpenFirst()
	first, _ = first.Update(cmd())
	filtering, _ := typed(first, "/unt")
	if !filtering.list.SettingFilter() {
		t.Fatal("/ does not start the filter")
	}
	if v := filtering.View(); strings.Contains(v, "esc quit") {
		t.Errorf("while the filter is typed, the key line says esc quits:\n%s", v)
	}
	applied, _ := filtering.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if v := applied.View(); strings.Contains(v, "esc quit") {
		t.Errorf("with a filter applied, the key line says esc quits:\n%s", v)
	}
	cleared, _ := applied.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if v := cleared.View(); !strings.Contains(v, "esc quit") {
		t.Errorf("once the filter is cleared, the key line no longer says esc quits:\n%s", v)
	}
}

// The screen's quit key (ctrl+c) leaves the picker as esc does on its
// list, whatever the picker shows: out of muse from the first screen,
// back to the chat from the chat's picker, even in a filter, a rename or a
// search, where esc only ends that.
func TestLeave(t *testing.T) {
	p := pickerOf(t, []string{"zebra crossing"}, []string{"apple"})
	first, cmd := p.OpenFirst()
	first, _ = first.Update(cmd())
	chat, cmd := first.Open("")
	chat, _ = chat.Update(cmd())
	for _, tc := range []struct {
		name string
		p    Model
		quit bool
	}{{"first screen", first, true}, {"chat's picker", chat, false}} {
		for _, keys := range []string{"", "/ap", "r", "f", "d"} {
			shown, _ := typed(tc.p, keys)
			left, cmd := shown.Leave()
			if !isDone(cmd, tc.quit) {
				t.Errorf("%s after %q: Leave does not give DoneMsg{Quit: %v}", tc.name, keys, tc.quit)
			}
			if left.mode != pickBrowse {
				t.Errorf("%s after %q: left in mode %v", tc.name, keys, left.mode)
			}
		}
	}
}
