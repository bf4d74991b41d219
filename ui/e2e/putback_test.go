//go:build linux

package e2e

import (
	"strings"
	"testing"
)

// TestCommandAfterPutBackPrompt: after a failed turn muse puts the prompt
// back in the input, and a /command typed behind it is a command, never
// the end of a prompt sent as text ("demo:error please/retry" was sent to
// the model). A command refused stays in the input to be fixed; one that
// runs leaves the prompt in the input; /retry sends it again.
func TestCommandAfterPutBackPrompt(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	tm := start(t, h, 80, 20, "--demo")
	tm.waitFor("Ask anything")
	// enter types text, waits for the input to show it, and presses enter:
	// an enter that follows keys at once is taken for a line break in a
	// paste.
	enter := func(text, shown string) {
		t.Helper()
		tm.typ(text)
		tm.waitUntil(shown, waitDeadline, func(s string) bool { return inputLine(s) == shown })
		tm.typ("\r")
	}
	enter("demo:error please", "› demo:error please")
	putBack := func(what string) {
		t.Helper()
		tm.waitUntil(what, waitDeadline, func(s string) bool {
			return !busy(statusLine(s)) && inputLine(s) == "› demo:error please"
		})
	}
	tm.waitFor("■ failed")
	putBack("the prompt put back")

	// Refused: the command stays, after the prompt.
	enter("/temperature 7", "› demo:error please/temperature 7")
	tm.waitUntil("the command refused", waitDeadline, func(s string) bool {
		area := statusArea(s)
		return strings.Contains(area, "from 0 to 1") && strings.Contains(area, `got "7"`) &&
			inputLine(s) == "› demo:error please/temperature 7"
	})
	for range len("/temperature 7") {
		tm.typ("\x7f")
	}
	putBack("the command deleted")

	// Run: the prompt stays in the input.
	enter("/temperature 0.5", "› demo:error please/temperature 0.5")
	tm.waitUntil("the temperature set, the prompt kept", waitDeadline, func(s string) bool {
		return strings.Contains(statusLine(s), "0.5") && inputLine(s) == "› demo:error please"
	})

	// /retry sends the failed prompt again: it fails again and is put back.
	enter("/retry", "› demo:error please/retry")
	tm.waitUntil("the retry failed", waitDeadline, func(s string) bool { return strings.Contains(s, "‹ 2/2 ›") })
	putBack("the prompt put back after the retry")

	tm.typ("\x03") // clear the input
	tm.typ("/quit\r")
	if code := tm.waitExit(); code != 0 {
		t.Fatalf("muse exited with status %d", code)
	}
	m := savedRE.FindStringSubmatch(tm.screen())
	if m == nil {
		t.Fatal("muse did not say which session it saved")
	}
	shown := h.run(t, "sessions", "show", m[1])
	if strings.Contains(shown, "please/") || !strings.Contains(shown, "demo:error please") {
		t.Errorf("the saved session:\n%s", shown)
	}
}
