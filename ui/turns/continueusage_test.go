package turns

import (
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
	live.Add(base.Message.Usage)
	live.Add(s.Usage)
	resumed, _ = session.Branch{joined}.Usage()
	if live != resumed {
		t.Errorf("live %+v, after a resume %+v", live, resumed)
	}
}
