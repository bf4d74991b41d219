package ui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
)

// After a failed turn the status line gives one hint, and it works as
// given: with the prompt put back, enter "or /retry resends it",
// and /retry typed after it does the same; with a draft typed while the
// turn ran, the draft stays and /retry, typed or pasted after it, sends
// the failed prompt again (it was sent as the prompt "draft/retry"), the
// draft still in the input.
func TestRetryHintWorksAsGiven(t *testing.T) {
	prompts := func(m Model) []string {
		var ps []string
		for _, e := range m.conv.Entries() {
			if e.Kind == session.KindUser {
				ps = append(ps, e.Text)
			}
		}
		return ps
	}
	for _, paste := range []bool{false, true} {
		name := map[bool]string{false: "typed", true: "pasted"}[paste]
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, 0)
			tm := start(t, h.model(t, nil), 120, 30)
			send(tm, "demo:slow demo:error first")
			waitFor(t, tm, "demo:slow demo:error first")
			tm.Type("my draft")
			waitFor(t, tm, "your draft is kept: /retry sends the failed prompt again")
			if paste {
				tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/retry"), Paste: true})
			} else {
				tm.Type("/retry")
			}
			tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
			waitFor(t, tm, "‹ 2/2 ›") // the retry, as a second branch; it fails too
			m := quit(t, tm)
			if got := prompts(m); len(got) != 1 || got[0] != "demo:slow demo:error first" {
				t.Errorf("prompts sent: %q, want the failed one only", got)
			}
			if v := m.comp.Input().Value(); v != "my draft" {
				t.Errorf("input %q, want the draft", v)
			}
		})
	}
	t.Run("put back", func(t *testing.T) {
		h := newHarness(t, 0)
		tm := start(t, h.model(t, nil), 120, 30)
		send(tm, "demo:error again")
		waitFor(t, tm, "the prompt is back in the input: enter or /retry resends it")
		tm.Type("/retry")
		tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
		waitFor(t, tm, "‹ 2/2 ›")
		tm.Send(tea.KeyMsg{Type: tea.KeyEnter}) // the prompt back again: enter
		waitFor(t, tm, "‹ 3/3 ›")
		m := quit(t, tm)
		if got := prompts(m); len(got) != 1 || got[0] != "demo:error again" {
			t.Errorf("prompts sent: %q, want the failed one only", got)
		}
		if v := m.comp.Input().Value(); v != "demo:error again" {
			t.Errorf("input %q, want the failed prompt put back", v)
		}
	})
}
