//go:build linux

package e2e

import (
	"regexp"
	"testing"
)

// TestDemoShowsContextShare: the demo's models list gives the chat
// model's context window, so after a reply --demo's status line shows how
// much of it the conversation fills, and /context says where the window
// came from.
func TestDemoShowsContextShare(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	tm := start(t, h, 100, 30, "--demo")
	tm.waitFor("Ask anything")
	tm.typ("hello there\r")
	ctx := regexp.MustCompile(`ctx \d+%`)
	tm.waitUntil("ctx% on the status line", waitDeadline, func(s string) bool {
		return ctx.MatchString(statusLine(s))
	})
	tm.typ("/context\r")
	tm.waitFor("models list")
	tm.typ("\x03\x03")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
}
