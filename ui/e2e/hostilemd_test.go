//go:build linux

package e2e

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"muse/api/demo"
)

// hostileMarkdown is the 160 KB reply of "[a](" that goldmark parses in
// time quadratic in its length: before muse showed such text flat, the
// chat screen froze for 6-16 s while it streamed, the spinner stopped and
// esc could not cancel.
var hostileMarkdown = strings.Repeat("[a](", 40_000)

// hostileServer is the demo service, but for the message request whose
// last message asks for "hostile markdown": that reply streams
// hostileMarkdown in 4 KB deltas and then stays open, its turn under way,
// until muse ends it.
func hostileServer(t *testing.T) *httptest.Server {
	done := make(chan struct{})
	t.Cleanup(func() { close(done) }) // after the server's Close, which ends the reply's request too
	return textReplyServer(t, "hostile markdown", func(r *http.Request, send func(string, any)) {
		sendText(send, hostileMarkdown, 4096)
		select { // the turn stays under way until muse cancels it
		case <-r.Context().Done():
		case <-done:
		}
	})
}

// A reply shaped to make the markdown parser quadratic streams without
// freezing the chat screen: its text shows, flat, a key typed shows within
// a second of muse's time, and esc cancels the turn as promptly; the
// session goes on.
func TestHostileMarkdownKeepsTheScreenResponsive(t *testing.T) {
	t.Parallel()
	srv := hostileServer(t)
	h := newHome(t, "")
	h.env = append(h.env,
		"MUSE_BASE_URL="+srv.URL,
		"MUSE_ACCESS_TOKEN="+demo.DefaultToken,
		"MUSE_MODEL=demo-chat",
		"MUSE_IMAGE_MODEL=demo-image",
	)
	tm := start(t, h, cols, rows, "--max-tokens", "16")
	defer tm.close()
	tm.waitFor("Ask anything")
	tm.typ("hostile markdown please\r")
	// The whole reply has come (the end of the stream shows), while the
	// turn is still under way.
	tm.waitUntil("the reply's end shown, the turn under way", waitDeadline, func(s string) bool {
		return strings.Contains(s, strings.Repeat("[a](", 10)) && busy(statusLine(s))
	})
	tm.typAnswered("zq", "a key typed while the reply is on the screen", func(s string) bool {
		return strings.HasSuffix(inputLine(s), "zq")
	})
	tm.typAnswered("\x1b", "the turn cancelled by esc", func(s string) bool { return !busy(statusLine(s)) })
	// The session goes on: the next turn is answered.
	tm.typ("\x7f\x7fdemo:words:3 and after\r")
	tm.waitUntil("the next turn answered", waitDeadline, func(s string) bool {
		return strings.Contains(s, "and after") && !busy(statusLine(s))
	})
}
