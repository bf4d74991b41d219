package turns

import (
	"context"
	"testing"

	"muse/api"
	"muse/session"
	"muse/ui/engine"
)

// A /continue adds to the session's tally what the joined reply saved has
// more than the reply it extended, so that the tally agrees with the one
// a resume adds up from the journal (the saved replies' usage).
func TestContinueCountsWhatTheJoinAdds(t *testing.T) {
	var n int
	base := session.Entry{ID: "e2", Kind: session.KindAssistant, Status: session.StatusComplete,
		Message: &api.Message{StopReason: api.StopMaxTokens, Usage: api.Usage{InputTokens: 10, OutputTokens: 40, CacheReadInputTokens: 5}}}
	m, _ := applyAll(inFlight(&n), Item{Event: &engine.Event{Kind: engine.ReplyStarted, Entry: base}})
	m = m.Continues(base)
	m, _ = applyAll(m, stream(api.EventMessageStart, func(e *api.Event) {
		e.Message = &api.Message{ID: "msg", Usage: api.Usage{InputTokens: 60, CacheReadInputTokens: 5}}
	}))
	joined := base
	joined.Message = &api.Message{StopReason: api.StopEndTurn, Usage: api.Usage{InputTokens: 60, OutputTokens: 70, CacheReadInputTokens: 5}}
	_, s := m.Apply(Item{Event: &engine.Event{Kind: engine.ReplyEnded, Entry: joined}}, t0)
	want := api.Usage{InputTokens: 50, OutputTokens: 30}
	if !s.Count || s.Usage.InputTokens != want.InputTokens || s.Usage.OutputTokens != want.OutputTokens ||
		s.Usage.CacheReadInputTokens != 0 || s.Usage.CacheCreationInputTokens != 0 {
		t.Errorf("counted %v %+v, want %+v", s.Count, s.Usage, want)
	}
	var live, resumed session.Usage
	live.Add(session.Spent(base.Message))
	live.Add(s.Usage)
	resumed, _ = session.Branch{joined}.Usage()
	if live != resumed {
		t.Errorf("live %+v, after a resume %+v", live, resumed)
	}
}

// A /continue cancelled before its end leaves a joined reply the server
// never ended: its output, the reply it extended included, is no longer
// counted, live as after a resume, which adds up the saved reply alone.
func TestCancelledContinueCountsAsAResume(t *testing.T) {
	var n int
	base := session.Entry{ID: "e2", Kind: session.KindAssistant, Status: session.StatusComplete,
		Message: &api.Message{StopReason: api.StopMaxTokens, Usage: api.Usage{InputTokens: 10, OutputTokens: 40}}}
	m, _ := applyAll(inFlight(&n), Item{Event: &engine.Event{Kind: engine.ReplyStarted, Entry: base}})
	m = m.Continues(base)
	joined := base
	joined.Status = session.StatusCancelled
	joined.Message = &api.Message{Usage: api.Usage{InputTokens: 60, OutputTokens: 41}}
	_, s := m.Apply(Item{Event: &engine.Event{Kind: engine.ReplyEnded, Entry: joined, Err: context.Canceled}}, t0)
	var live session.Usage
	live.Add(session.Spent(base.Message))
	live.Add(s.Usage)
	resumed, _ := session.Branch{joined}.Usage()
	if !s.Count || live != resumed || live.Uncounted != 1 || live.OutputTokens != 0 {
		t.Errorf("live %+v (counted %v), after a resume %+v", live, s.Count, resumed)
	}
}
