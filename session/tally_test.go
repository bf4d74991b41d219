package session

import (
	"testing"

	"muse/api"
)

// A reply the server never ended (cancelled, broken off, or cut at muse's
// size limit) holds message_start's placeholder output_tokens: the tally
// adds its input and cache tokens, not that figure, and counts the reply
// as uncounted. An ended reply's output counts, whatever its status.
func TestUsageLeavesOutUncountedOutput(t *testing.T) {
	reply := func(stop, status string) Entry {
		return Entry{Kind: KindAssistant, Status: status, Message: &api.Message{StopReason: stop,
			Usage: api.Usage{InputTokens: 10, OutputTokens: 1, CacheReadInputTokens: 2, CacheCreationInputTokens: 3}}}
	}
	b := Branch{{Kind: KindUser, Text: "hi"}, reply("end_turn", StatusComplete), {Kind: KindUser, Text: "more"},
		reply("", StatusCancelled), reply("", StatusFailed), reply(api.StopSizeLimit, StatusComplete), reply("max_tokens", StatusFailed)}
	u, stop := b.Usage()
	want := Usage{InputTokens: 50, OutputTokens: 2, CacheReadInputTokens: 10, CacheCreationInputTokens: 15, Uncounted: 3}
	if u != want || stop != "max_tokens" {
		t.Errorf("usage %+v, stop %q; want %+v", u, stop, want)
	}
	if d := Spent(b[1].Message).Less(Spent(b[3].Message)); d != (Usage{OutputTokens: 1, Uncounted: -1}) {
		t.Errorf("less %+v", d)
	}
}
