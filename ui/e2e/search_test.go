//go:build linux

package e2e

import (
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// TestPickerSearch drives the session picker's text search in the real
// binary: a search typed in one read with the key that opens it, the
// terminal resized and esc pressed while it shows, the best hit opened
// with enter, the next prompt sent, and the same search after a kill -9
// of that muse finding that prompt. (A hit on another branch of the open
// session is TestPickerHitOnAnotherBranchOfTheOpenSession's, in ui.)
func TestPickerSearch(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	tm := start(t, h, 100, 30, "--demo")
	tm.waitFor("Ask anything")
	tm.typ("tell me about capybaras\r")
	tm.waitForHeading("tell me about capybaras")
	tm.typ("and lemurs too\r")
	tm.waitForHeading("and lemurs too")

	tm.typ("\x13") // ctrl+s: the picker
	tm.waitFor("f search •")
	tm.typ("fcapy") // as one read: f opens the search, capy is its query
	tm.waitFor(`for "capy"`)
	tm.resize(60, 20)
	tm.waitUntil("the hits at 60 columns", waitDeadline, func(s string) bool {
		return strings.Contains(s, "capybaras") && strings.Contains(s, "enter open")
	})
	tm.typ("\x1b") // esc: every session again, the picker stays
	tm.waitUntil("the list of sessions", waitDeadline, func(s string) bool {
		return strings.Contains(s, "1 session") && !strings.Contains(s, "search all text")
	})
	tm.typ("f")
	tm.waitFor("search all text")
	tm.typ("lemurs")
	tm.waitFor(`for "lemurs"`)
	tm.typ("\r") // the best hit, opened on its entry
	tm.waitUntil("the conversation again", waitDeadline, func(s string) bool {
		return strings.Contains(s, "Ask anything") && strings.Contains(s, "and lemurs too")
	})
	tm.typ("one more\r")
	tm.waitForHeading("one more")

	tm.signal(syscall.SIGKILL)
	tm.waitExit()
	tm = start(t, h, 80, 24, "--demo")
	tm.waitFor("Ask anything")
	tm.typ("\x13")
	tm.waitFor("enter resume")
	tm.typ("f")
	tm.waitFor("search all text")
	tm.typ("one more")
	// The status line says "N matches … for "one more"" with none found
	// too: wait for a count of one or more.
	found := regexp.MustCompile(`[1-9][0-9]* match(es)? in .* for "one more"`)
	tm.waitUntil("hits for the prompt sent before the kill", waitDeadline, found.MatchString)
	tm.typ("\x1b") // leave the search
	tm.waitUntil("the list of sessions", waitDeadline, func(s string) bool { return !strings.Contains(s, "search all text") })
	tm.typ("\x1b") // then the picker
	tm.waitFor("Ask anything")
	tm.typ("\x04") // ctrl+d on an empty input quits
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
	tm.checkRestored()
}
