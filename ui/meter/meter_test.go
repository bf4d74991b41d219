package meter

import (
	"strings"
	"testing"

	"muse/api"
	"muse/session"
)

func reply(in, out, read, write int) session.Entry {
	return session.Entry{Kind: session.KindAssistant, Message: &api.Message{StopReason: api.StopEndTurn, Usage: api.Usage{
		InputTokens: in, OutputTokens: out, CacheReadInputTokens: read, CacheCreationInputTokens: write}}}
}

func total(b session.Branch) session.Usage {
	u, _ := b.Usage()
	return u
}

func prompt() session.Entry { return session.Entry{Kind: session.KindUser, Text: "hi"} }

// A branch of two turns, the second with a tool round: the context is the
// last request and its reply; the turn is the replies after the last
// prompt; the session all of them.
func TestMeasure(t *testing.T) {
	b := session.Branch{prompt(), reply(100, 10, 0, 0), prompt(), reply(200, 20, 50, 5), {Kind: session.KindTool}, reply(300, 30, 60, 0)}
	m := New(Options{Window: 1000}).Measure(b, total(b))
	if m.Used() != 390 {
		t.Errorf("used %d, want 390 (300 in + 60 cache read + 30 out)", m.Used())
	}
	if m.turn.InputTokens != 500 || m.turn.OutputTokens != 50 || m.total.InputTokens != 600 {
		t.Errorf("turn %+v total %+v", m.turn, m.total)
	}
	if pct, ok := m.Percent(); !ok || pct != 39 {
		t.Errorf("percent %d %v", pct, ok)
	}
	if v := m.View(); v != "ctx 39%" {
		t.Errorf("view %q", v)
	}
}

// The models list's window beats the profile's, for the model in use only;
// with neither, the percentage is not shown and /context says what to set.
func TestWindowSources(t *testing.T) {
	b := session.Branch{prompt(), reply(850, 50, 0, 0)}
	m := New(Options{Window: 1000}).Measure(b, total(b)).SetModel("big")
	if w, from := m.Window(); w != 1000 || !strings.Contains(from, "context_window") {
		t.Errorf("profile: %d %q", w, from)
	}
	if !m.Warns() || m.View() != "ctx 90% full: /compact" || !strings.Contains(m.Context(), "nearly full") {
		t.Errorf("past 80%%: view %q, context %q", m.View(), m.Context())
	}
	m = m.Update(WindowsMsg{"big": 10000, "other": 10})
	if w, from := m.Window(); w != 10000 || !strings.Contains(from, "models list") {
		t.Errorf("listed: %d %q", w, from)
	}
	if m.Warns() || m.View() != "ctx 9%" {
		t.Errorf("listed view %q", m.View())
	}
	m = New(Options{}).Measure(b, total(b))
	if _, ok := m.Percent(); ok || m.View() != "" || !strings.Contains(m.Context(), "set context_window in the profile") {
		t.Errorf("unknown window: view %q context %q", m.View(), m.Context())
	}
	if c := New(Options{Window: 200000}).Context(); !strings.Contains(c, "nothing sent yet") || !strings.Contains(c, "200,000") {
		t.Errorf("empty: %q", c)
	}
}

// Prices per million tokens give the turn's and the session's cost; no
// prices, no cost anywhere.
func TestCost(t *testing.T) {
	p := Prices{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}
	u := session.Usage{InputTokens: 1_000_000, OutputTokens: 100_000, CacheReadInputTokens: 1_000_000, CacheCreationInputTokens: 200_000}
	if c := p.Cost(u); c < 5.549 || c > 5.551 {
		t.Errorf("cost %v, want 3 + 1.5 + 0.3 + 0.75 = 5.55", c)
	}
	b := session.Branch{prompt(), reply(1000, 100, 0, 0), prompt(), reply(2000, 200, 0, 0)}
	m := New(Options{Prices: p}).Measure(b, total(b))
	if v := m.View(); v != "$0.0090 turn, $0.0135 session" {
		t.Errorf("view %q", v)
	}
	if c := m.Cost(); !strings.Contains(c, "last turn $0.0090 · session $0.0135") {
		t.Errorf("cost %q", c)
	}
	if m := New(Options{}).Measure(b, total(b)); m.Cost() != "" || m.View() != "" {
		t.Errorf("no prices: %q %q", m.Cost(), m.View())
	}
	if Dollars(12.345) != "$12.35" || group(1234567) != "1,234,567" || group(12) != "12" {
		t.Error(Dollars(12.345), group(1234567))
	}
}

// In a long session the turn is the last one only, and Measure reads no
// further back than the reply before it: the entries before are left nil,
// which reading them would trip on.
func TestMeasureReadsOnlyTheEnd(t *testing.T) {
	b := make(session.Branch, 10000) // zero entries: no Kind, no Message
	b = append(b, reply(7, 7, 0, 0), prompt(), reply(1, 1, 0, 0))
	for i := range b[:10000] {
		b[i].Kind = "unread"
		b[i].Message = &api.Message{Usage: api.Usage{InputTokens: 1 << 40}}
	}
	m := New(Options{}).Measure(b, session.Usage{InputTokens: 8})
	if m.turn.InputTokens != 1 || m.total.InputTokens != 8 || m.Used() != 2 {
		t.Errorf("turn %+v total %+v used %d", m.turn, m.total, m.Used())
	}
}

// After a compaction the context is the summary, not the history it read.
func TestCompacted(t *testing.T) {
	b := session.Branch{prompt(), reply(900, 50, 0, 0)}
	m := New(Options{Window: 1000}).Measure(b, total(b)).Compacted()
	if m.Used() != 50 || m.View() != "ctx 5%" {
		t.Errorf("used %d, view %q", m.Used(), m.View())
	}
}

// auto_compact compacts at 90% of the window, not before, and only when on.
func TestAutoCompact(t *testing.T) {
	b := session.Branch{prompt(), reply(880, 10, 0, 0)}
	on := New(Options{Window: 1000, AutoCompact: true})
	if on.Measure(b, total(b)).AutoCompact() {
		t.Error("compacts at 89%")
	}
	b = session.Branch{prompt(), reply(890, 10, 0, 0)}
	if !on.Measure(b, total(b)).AutoCompact() {
		t.Error("does not compact at 90%")
	}
	if New(Options{Window: 1000}).Measure(b, total(b)).AutoCompact() || New(Options{AutoCompact: true}).Measure(b, total(b)).AutoCompact() {
		t.Error("compacts while off, or with no window")
	}
}
