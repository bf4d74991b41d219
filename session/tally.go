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
	// Uncounted is how many of the replies the server never gave the
	// output count of (see Counted): OutputTokens leaves theirs out, and
	// is then the least they spent, not what they spent.
	Uncounted int
}

// Counted reports whether the server gave the output count of the reply
// m: it ended m, with the stop reason of its message_delta, which carries
// the count. A reply cancelled, broken off, or cut at muse's size limit
// (StopSizeLimit, muse's own) holds only message_start's output_tokens, a
// placeholder (often 1) that is no count of what it spent.
func Counted(m *api.Message) bool {
	return m.StopReason != "" && m.StopReason != api.StopSizeLimit
}

// Spent is what the reply m spent, as a tally counts it: its input and
// cache tokens, and its output tokens when the server counted them (else
// it is one reply Uncounted).
func Spent(m *api.Message) Usage {
	v := m.Usage
	u := Usage{InputTokens: v.InputTokens, CacheCreationInputTokens: v.CacheCreationInputTokens, CacheReadInputTokens: v.CacheReadInputTokens}
	if Counted(m) {
		u.OutputTokens = v.OutputTokens
	} else {
		u.Uncounted = 1
	}
	return u
}

// Add adds v to u.
func (u *Usage) Add(v Usage) {
	u.InputTokens += v.InputTokens
	u.OutputTokens += v.OutputTokens
	u.CacheCreationInputTokens += v.CacheCreationInputTokens
	u.CacheReadInputTokens += v.CacheReadInputTokens
	u.Uncounted += v.Uncounted
}

// Less is what u has more than v: what a reply adds to a tally when it
// replaces v.
func (u Usage) Less(v Usage) Usage {
	return Usage{InputTokens: u.InputTokens - v.InputTokens, OutputTokens: u.OutputTokens - v.OutputTokens,
		CacheCreationInputTokens: u.CacheCreationInputTokens - v.CacheCreationInputTokens,
		CacheReadInputTokens:     u.CacheReadInputTokens - v.CacheReadInputTokens, Uncounted: u.Uncounted - v.Uncounted}
}

// Branch is a run of entries, each following the one before: a session's
// active branch, as Session.Entries holds it, or what a screen shows of it.
type Branch []Entry

// Usage adds up what the replies of b spent (Spent), and tells how the
// last one stopped.
func (b Branch) Usage() (u Usage, stop string) {
	for _, e := range b {
		if e.Message != nil {
			u.Add(Spent(e.Message))
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
