//go:build linux

package e2e

import (
	"strings"
	"testing"
)

// ctrl+c in the session picker gets out, as a user expects and as esc
// does: at muse -r's first screen it ends muse (status 0, no session
// made); in the chat's picker (ctrl+s) it goes back to the chat, whose
// input takes keys again. The status line's "press ctrl+c again" is under
// the picker, so a ctrl+c that only armed it seemed to do nothing.
func TestPickerCtrlCLeaves(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	h.run(t, "--demo", "-p", "a first session")
	before := h.run(t, "sessions", "list")
	tm := start(t, h, 80, 24, "--demo", "-r")
	tm.waitUntil("the picker", waitDeadline, func(s string) bool {
		return strings.Contains(s, "resume a session") && strings.Contains(s, "a first session")
	})
	tm.typ("\x03")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("ctrl+c: muse exited with status %d", code)
	}
	if after := h.run(t, "sessions", "list"); after != before {
		t.Errorf("ctrl+c on the picker made a session:\nbefore\n%s\nafter\n%s", before, after)
	}

	tm = start(t, h, 80, 24, "--demo")
	tm.waitFor("Ask anything")
	tm.typ("\x13")
	tm.waitUntil("the chat's picker", waitDeadline, func(s string) bool {
		return strings.Contains(s, "sessions") && strings.Contains(s, "a first session") && !strings.Contains(s, "Ask anything")
	})
	tm.typ("\x03")
	tm.waitFor("Ask anything")
	tm.typ("zq")
	tm.waitUntil("the input taking keys", waitDeadline, func(s string) bool { return strings.HasSuffix(inputLine(s), "zq") })
	quitNow(t, tm)
}
