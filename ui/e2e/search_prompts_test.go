//go:build linux

package e2e

import (
	"strings"
	"testing"
)

// TestCtrlRSearchesPastPrompts: a prompt sent in one session is found by
// ctrl+r in the next, filtered by a word typed; enter puts it in the
// input, esc gives the draft back.
func TestCtrlRSearchesPastPrompts(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	tm := start(t, h, 80, 24, "--demo")
	tm.waitFor("Ask anything")
	for _, p := range []string{"tell me about capybaras", "explain channels"} {
		tm.typ(p)
		tm.waitUntil(p, waitDeadline, func(s string) bool { return inputLine(s) == "› "+p })
		tm.typ("\r")
		tm.waitUntil("the reply", waitDeadline, func(s string) bool {
			return !busy(statusLine(s)) && strings.Contains(inputLine(s), "Ask anything")
		})
	}
	tm.typ("/quit\r")
	if code := tm.waitExit(); code != 0 {
		t.Fatalf("muse exited with status %d", code)
	}

	tm = start(t, h, 80, 24, "--demo")
	tm.waitFor("Ask anything")
	for _, k := range []string{"d", "r", "a", "f", "t"} {
		tm.typ(k)
	}
	tm.waitUntil("the draft", waitDeadline, func(s string) bool { return inputLine(s) == "› draft" })
	tm.typ("\x12") // ctrl+r
	tm.waitUntil("the search", waitDeadline, func(s string) bool {
		return strings.Contains(s, "search past prompts") && strings.Contains(s, "▸ explain channels")
	})
	for _, k := range []string{"c", "a", "p", "y"} {
		tm.typ(k)
	}
	tm.waitUntil("the prompt found", waitDeadline, func(s string) bool {
		return strings.Contains(s, "▸ tell me about capybaras") && !strings.Contains(s, "explain channels")
	})
	tm.typ("\x1b")
	tm.waitUntil("the draft back", waitDeadline, func(s string) bool {
		return inputLine(s) == "› draft" && !strings.Contains(s, "capybaras")
	})
	tm.typ("\x12")
	tm.waitFor("▸ explain channels")
	tm.typ("\x1b[B") // ↓
	tm.waitFor("▸ tell me about capybaras")
	tm.typ("\r")
	tm.waitUntil("the prompt taken", waitDeadline, func(s string) bool {
		return inputLine(s) == "› tell me about capybaras" && !strings.Contains(s, "▸")
	})
	tm.typ("\x03\x03")
	tm.typ("\x04")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
}

// TestCtrlRThisSessionAfterResume: ctrl+r twice keeps to this session's
// prompts, and for a session resumed with -r those are its prompts from
// its journal, sent before muse started, not only those sent since; a
// prompt of another session is not among them.
func TestCtrlRThisSessionAfterResume(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	var ids []string
	for _, p := range []string{"alpha about capybaras", "beta about capybaras"} {
		tm := start(t, h, 80, 24, "--demo")
		tm.waitFor("Ask anything")
		tm.typ(p)
		tm.waitUntil(p, waitDeadline, func(s string) bool { return inputLine(s) == "› "+p })
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
		ids = append(ids, m[1])
	}

	tm := start(t, h, 80, 24, "--demo", "-r", ids[0])
	tm.waitFor("alpha about capybaras")
	tm.typ("\x12") // ctrl+r: every session's
	tm.waitUntil("the search of all sessions", waitDeadline, func(s string) bool {
		return strings.Contains(s, "beta about capybaras") && strings.Contains(s, "past prompts of all sessions")
	})
	tm.typ("\x12") // again: this session's
	tm.waitUntil("this session's prompts", waitDeadline, func(s string) bool {
		return strings.Contains(s, "past prompts of this session") && strings.Contains(s, "▸ alpha about capybaras")
	})
	if s := tm.screen(); strings.Contains(s, "beta about") {
		t.Errorf("another session's prompt is listed as this session's:\n%s", tm.dump())
	}
	tm.typ("\r")
	tm.waitUntil("the prompt taken", waitDeadline, func(s string) bool {
		return inputLine(s) == "› alpha about capybaras"
	})
	tm.typ("\x03\x03")
	tm.typ("\x04")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
}
