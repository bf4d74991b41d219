package ui

import (
	"fmt"
	"strings"
	"testing"

	"muse/session"
	"muse/ui/engine"
	"muse/ui/internal/waitfor"
	"muse/ui/meter"
)

// /compact shows the new branch, the compaction prompt and its summary,
// in place of the conversation, which stays in the session on its own
// branch; on an empty conversation it is refused.
func TestCompactCommand(t *testing.T) {
	h := newHarness(t, 0)
	tm := start(t, h.model(t, nil), 100, 30)
	send(tm, "/compact")
	waitFor(t, tm, "nothing to compact yet")
	send(tm, "first question")
	waitFor(t, tm, "stop end_turn")
	send(tm, "second question")
	waitSavedOn(t, h.store, 4, session.KindAssistant)
	// The turn has ended on screen too, so /compact is not refused as
	// busy: a stop drawn after the prompt was (not the first turn's).
	waitAfter(t, tm, "second question", "stop end_turn")
	send(tm, "/compact keep the names")
	waitSavedOn(t, h.store, 2, session.KindAssistant)
	// Ended on screen: a stop drawn after the summary's prompt was. (The
	// status line's earlier "stop end_turn" is drawn again as the "/"
	// menu moves it, so a plain wait could end before the compaction.)
	waitAfter(t, tm, "Summarise our conversation", "stop end_turn")
	final := quit(t, tm)
	es := final.conv.Entries()
	if len(es) != 2 || es[0].Kind != session.KindUser || es[0].Text != engine.CompactPrompt("keep the names") || es[1].Kind != session.KindAssistant {
		t.Fatalf("shown after /compact: %+v", es)
	}
	s, err := h.store.Latest()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.All) != 6 || len(s.Entries) != 2 {
		t.Errorf("saved: %d entries, %d on the branch", len(s.All), len(s.Entries))
	}
	if pct, _ := final.meter.Percent(); final.meter.Used() != es[1].Message.Usage.OutputTokens {
		t.Errorf("after /compact the context is %d tokens (%d%%), want the summary's %d", final.meter.Used(), pct, es[1].Message.Usage.OutputTokens)
	}
	if strings.Contains(final.conv.View(), "second question") {
		t.Error("the old branch is still shown")
	}
}

// With auto_compact, a turn that leaves the context at 90% of the window
// or more is followed by a compaction, which is not itself compacted.
func TestAutoCompact(t *testing.T) {
	h := newHarness(t, 0)
	m := h.modelWith(t, nil, func(o *Options) { o.Meter = meter.Options{Window: 100, AutoCompact: true} })
	tm := start(t, m, 100, 30)
	send(tm, "first question")
	waitFor(t, tm, "compacting (auto_compact)")
	waitSavedOn(t, h.store, 2, session.KindAssistant)
	final := quit(t, tm)
	es := final.conv.Entries()
	if len(es) != 2 || es[0].Text != engine.CompactPrompt("") {
		t.Fatalf("shown after auto_compact: %+v", es)
	}
	if s, _ := h.store.Latest(); len(s.All) != 4 {
		t.Errorf("saved %d entries, want the first turn and the compaction", len(s.All))
	}
}

// waitSavedOn waits until the session's active branch, as saved, holds n
// entries, the last a finished one of kind.
func waitSavedOn(t *testing.T, store *session.Store, n int, kind string) {
	t.Helper()
	what := fmt.Sprintf("a saved branch of %d entries ending in a finished %s", n, kind)
	waitfor.Dir(t, store.Dir(), nil, what, func() bool {
		s, err := store.Latest()
		return err == nil && len(s.Entries) == n && finished(s.Entries[n-1], kind)
	})
}

// finished says whether e is an entry of kind whose turn has ended well.
func finished(e session.Entry, kind string) bool {
	return e.Kind == kind && e.Status != session.StatusStreaming && e.Status != session.StatusInterrupted
}
