//go:build linux

package e2e

import (
	"strings"
	"testing"
)

// A prompt cancelled during the countdown to its request's retry, before
// any of its reply arrived, is marked "■ cancelled" as a reply cancelled
// while it streams is, on screen and in the saved session: two prompts
// never follow each other unmarked.
func TestCancelledRetryIsMarked(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	tm := start(t, h, cols, rows, "--demo")
	tm.waitFor("Ask anything")
	tm.typ("demo:ratelimit wait\r")
	tm.waitFor("waiting to retry in")
	tm.typ("\x1b")
	tm.waitUntil("the prompt marked cancelled", waitDeadline, func(s string) bool {
		i := strings.Index(s, "demo:ratelimit wait")
		return i >= 0 && strings.Contains(s[i:], "■ cancelled") && !busy(statusLine(s))
	})
	tm.typ("next\r")
	tm.waitUntil("the reply to next", waitDeadline, func(s string) bool {
		return strings.Contains(statusLine(s), "· stop ") && !busy(statusLine(s))
	})
	tm.typ("/quit\r")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
	m := savedRE.FindStringSubmatch(tm.screen())
	if m == nil {
		t.Fatal("muse did not say which session it saved")
	}
	shown := h.run(t, "sessions", "show", m[1])
	i, j := strings.Index(shown, "demo:ratelimit wait"), strings.Index(shown, "you:\nnext")
	if i < 0 || j < i || !strings.Contains(shown[i:j], "cancelled") {
		t.Errorf("the saved session does not mark the cancelled prompt:\n%s", shown)
	}
}
