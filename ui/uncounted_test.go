package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"muse/ui/meter"
)

// A reply cancelled before its end holds only message_start's
// output_tokens, a placeholder (the demo's is 1, as the service's): the
// server's count comes in the message_delta it never sent. Nothing claims
// that figure: the status line says the least the session spent (out not
// counted, never out 1 or 0+), /info says the reply's output was not counted and why,
// /context and the cost say "at least"; after a resume, the same.
func TestCancelledReplyClaimsNoOutputCount(t *testing.T) {
	h, hd := newHeldHarness(t, "tell me everything") // held before its message_delta
	opts := func(o *Options) {
		shortReplies(o)
		o.Meter = meter.Options{Window: 16000, Prices: meter.Prices{Input: 3, Output: 15}}
	}
	tm := start(t, h.modelWith(t, nil, opts), 160, 30)
	send(tm, "tell me everything")
	waitFor(t, tm, "Good question; the answer")
	ht := hd.held(t)
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	waitFor(t, tm, "cancelled")
	ht.cancelled(t)
	send(tm, "/info")
	waitFor(t, tm, "not counted (cancelled before the server's final count)")
	final := quit(t, tm)
	check := func(when string, m Model) {
		t.Helper()
		if s := statusOf(m); strings.Contains(s, "out 1") || !strings.Contains(s, "out not counted") || !strings.Contains(s, "ctx 0%+") || !strings.Contains(s, "+ turn") {
			t.Errorf("%s: status line %q, want out not counted, ctx 0%%+ and a cost marked +", when, s)
		}
		if c := m.meter.Context(); !strings.Contains(c, "context: at least ") || !strings.Contains(c, "the last reply's output is not in it") {
			t.Errorf("%s: /context says %q", when, c)
		}
		info := infoText(m.conv.Entries(), m.usage, m.meter.SetModel(m.params.Model), "", m.params)
		for _, want := range []string{"out\u00a0not counted (cancelled before the server's final count)", "session: in\u00a0", " · out\u00a0not counted (1 reply not counted", "cost: last turn at least $"} {
			if !strings.Contains(info, want) {
				t.Errorf("%s: /info lacks %q:\n%s", when, want, info)
			}
		}
		if strings.Contains(info, "out\u00a01 ") || strings.Contains(info, "at least 0") {
			t.Errorf("%s: /info claims the placeholder:\n%s", when, info)
		}
	}
	check("live", final)
	sess, err := h.store.Latest()
	if err != nil {
		t.Fatal(err)
	}
	resumed, _ := updateModel(h.modelWith(t, sess, opts), tea.WindowSizeMsg{Width: 160, Height: 30})
	check("resumed", resumed)
}
