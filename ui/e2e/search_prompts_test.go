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
