//go:build linux

package e2e

import (
	"strings"
	"syscall"
	"testing"
)

// ctrl+z suspends muse to the shell, as SIGTSTP from outside does: the
// process stops with the terminal given back in cooked mode; fg (SIGCONT)
// brings it back with the draft in the input, and ctrl+u then ctrl+d
// clear it and quit.
func TestCtrlZSuspendsAndFgResumes(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	tm := start(t, h, 80, 24, "--demo")
	tm.waitFor("Ask anything")
	tm.typ("a draft")
	tm.waitUntil("the draft in the input", waitDeadline, func(s string) bool {
		return strings.HasPrefix(inputLine(s), "› a draft")
	})
	tm.typ("\x1a")
	tm.waitStopped()
	tm.waitUntil("the terminal given back", waitDeadline, func(string) bool { return tm.given() })
	tm.checkCooked()
	tm.signal(syscall.SIGCONT)
	tm.waitUntil("the screen taken again with the draft", waitDeadline, func(s string) bool {
		return !tm.given() && strings.HasPrefix(inputLine(s), "› a draft")
	})
	tm.typ("\x15\x04") // ctrl+u deletes the line; ctrl+d on the empty input quits
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
	tm.checkRestored()
}
