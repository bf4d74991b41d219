//go:build linux

package e2e

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"muse/api/demo"
)

// heavyList is 640 KB of a nested list, under the reply limit, and an item
// that ends it: glamour pads every item to the width once for each list
// around it, and muse ran out of memory streaming it (1.2 GB, then
// "fatal error: out of memory"), and again on muse -c.
var heavyList = strings.Repeat("- a\n  - b\n", 64_000) + "- the end of the list\n"

// heavyListServer is the demo service, but for the message request whose
// last message asks for "a heavy list": that reply streams heavyList in
// 200-byte deltas and ends its turn.
func heavyListServer(t *testing.T) *httptest.Server {
	return textReplyServer(t, "a heavy list", func(_ *http.Request, send func(string, any)) {
		sendText(send, heavyList, 200)
		send("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
		send("message_delta", map[string]any{"type": "message_delta",
			"delta": map[string]any{"stop_reason": "end_turn", "stop_sequence": nil},
			"usage": map[string]int{"output_tokens": 128_000}})
		send("message_stop", map[string]any{"type": "message_stop"})
	})
}

// A reply of 640 KB of a nested list streams to its end on the chat
// screen, shown as plain text, a key typed shows within a second of
// muse's time, and the session opens again with muse -c, the list's end
// on the screen, and goes on.
func TestHeavyListReplyResumes(t *testing.T) {
	t.Parallel()
	srv := heavyListServer(t)
	h := newHome(t, "")
	h.env = append(h.env,
		"MUSE_BASE_URL="+srv.URL,
		"MUSE_ACCESS_TOKEN="+demo.DefaultToken,
		"MUSE_MODEL=demo-chat",
		"MUSE_IMAGE_MODEL=demo-image",
	)
	ended := func(s string) bool { return strings.Contains(s, "- the end of the list") && !busy(statusLine(s)) }
	tm := start(t, h, cols, rows)
	tm.waitFor("Ask anything")
	tm.typ("a heavy list please\r")
	tm.waitUntil("the reply's end shown, the turn over", waitDeadline, ended)
	tm.typAnswered("zq", "a key typed below the reply", func(s string) bool {
		return strings.HasSuffix(inputLine(s), "zq")
	})
	tm.typ("\x7f\x7f\x04")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}

	tm = start(t, h, cols, rows, "-c")
	defer tm.close()
	tm.waitUntil("the reply's end shown again by muse -c", waitDeadline, ended)
	tm.typAnswered("zq", "a key typed in the session opened again", func(s string) bool {
		return strings.HasSuffix(inputLine(s), "zq")
	})
	tm.typ("\x7f\x7fdemo:words:3 and after\r")
	tm.waitUntil("the next turn answered", waitDeadline, func(s string) bool {
		return strings.Contains(s, "and after") && !busy(statusLine(s))
	})
}
