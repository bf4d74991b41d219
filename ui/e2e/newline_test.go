//go:build linux

package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// TestBackslashAndShiftEnterAddLines: "\" then enter adds a line (the
// backslash goes), as in Claude Code; shift+enter sent apart from enter,
// as CSI 13;2u or CSI 27;2;13~, adds one too; enter then sends all lines.
func TestBackslashAndShiftEnterAddLines(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	tm := start(t, h, 80, 20, "--demo")
	tm.waitFor("Ask anything")
	step := func(text, want string) {
		t.Helper()
		tm.typ(text)
		tm.waitUntil(want, waitDeadline, func(s string) bool { return strings.Contains(s, want) })
	}
	// A key that adds a line has been read once an empty row stands
	// between the text and the status line ("  two\n" alone would match
	// before muse read the key, and the next word would join the line).
	newRow := func(key, after string) {
		t.Helper()
		tm.typ(key)
		empty := regexp.MustCompile(regexp.QuoteMeta(after) + `\n *\ntokens in`)
		tm.waitUntil("a new row after "+after, waitDeadline, empty.MatchString)
	}
	step(`one\`, `› one\`)
	newRow("\r", "› one")
	step("two", "  two")
	newRow("\x1b[13;2u", "  two")
	step("three", "  three")
	newRow("\x1b[27;2;13~", "  three")
	step("four", "  four")
	tm.typ("\r")
	tm.waitUntil("the reply", waitDeadline, func(s string) bool {
		return !busy(statusLine(s)) && strings.Contains(inputLine(s), "Ask anything")
	})
	tm.typ("/quit\r")
	if code := tm.waitExit(); code != 0 {
		t.Fatalf("muse exited with status %d", code)
	}
	m := savedRE.FindStringSubmatch(tm.screen())
	if m == nil {
		t.Fatal("muse did not say which session it saved")
	}
	if shown := h.run(t, "sessions", "show", m[1]); !strings.Contains(shown, "you:\none\ntwo\nthree\nfour\n") {
		t.Errorf("the saved session:\n%s", shown)
	}
}
