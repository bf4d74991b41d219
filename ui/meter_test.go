package ui

import (
	"strings"
	"testing"

	"muse/ui/meter"
)

// After a reply the status line shows the share of the context window
// (the profile's, then the models list's, which beats it) and the cost;
// /context and /info say them in full.
func TestContextAndCost(t *testing.T) {
	h := newHarness(t, 0)
	m := h.modelWith(t, nil, func(o *Options) {
		o.Meter = meter.Options{Window: 100, Prices: meter.Prices{Input: 3, Output: 15}}
	})
	tm := start(t, m, 120, 30)
	send(tm, "hello there")
	waitFor(t, tm, "full: /compact") // the demo's turn is far more than 80 tokens
	send(tm, "/context")
	waitFor(t, tm, "window from the profile's context_window")
	tm.Send(modelsListedMsg{windows: meter.WindowsMsg{"demo-chat": 1_000_000, "other": 5}})
	send(tm, "/info")
	waitFor(t, tm, "cost: last turn $0.")
	final := quit(t, tm)
	s := statusOf(final)
	if !strings.Contains(s, "ctx 0%") || strings.Contains(s, "full") || !strings.Contains(s, "$0.") {
		t.Errorf("status after the models list's window: %q", s)
	}
	if v := final.View(); !strings.Contains(v, "window from the service's models list") {
		t.Errorf("/info does not say where the window comes from:\n%s", v)
	}
}
