package session

import (
	"strings"

	"muse/api"
)

// What a screen adds up from a session: the tokens its replies spent, and
// the prompt whose turn failed.

// Usage is the tokens replies spent, added up.
type Usage struct {
	InputTokens, OutputTokens, CacheCreationInputTokens, CacheReadInputTokens int
}

// Add adds what one request spent.
func (u *Usage) Add(v api.Usage) {
	u.InputTokens += v.InputTokens
	u.OutputTokens += v.OutputTokens
	u.CacheCreationInputTokens += v.CacheCreationInputTokens
	u.CacheReadInputTokens += v.CacheReadInputTokens
}

// Branch is a run of entries, each following the one before: a session's
// active branch, as Session.Entries holds it, or what a screen shows of it.
type Branch []Entry

// Usage adds up what the replies of b spent, and tells how the last one
// stopped.
func (b Branch) Usage() (u Usage, stop string) {
	for _, e := range b {
		if e.Message != nil {
			u.Add(e.Message.Usage)
			stop = e.Message.StopReason
		}
	}
	return u, stop
}

// FailedPrompt returns the last prompt of b, trimmed, when b ends in its
// failure: an error, after at most a failed reply and other errors.
func (b Branch) FailedPrompt() (string, bool) {
	if len(b) == 0 || b[len(b)-1].Kind != KindError {
		return "", false
	}
	u := len(b) - 1
	for u >= 0 && b[u].Kind != KindUser {
		u--
	}
	if u < 0 {
		return "", false
	}
	for _, e := range b[u+1:] {
		if e.Kind != KindError && (e.Kind != KindAssistant || e.Status != StatusFailed) {
			return "", false
		}
	}
	return strings.TrimSpace(b[u].Text), true
}
