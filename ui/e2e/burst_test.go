//go:build linux

package e2e

import (
	"bytes"
	"strings"
	"testing"
)

// TestEnterAndEscInOneRead types a prompt, its enter and an esc in one
// read, as fast typing or a slow link delivers them: the enter becomes a
// line break (keys followed it at once), and the input box must still be
// drawn, holding both lines. It was left off the screen until the next key.
func TestEnterAndEscInOneRead(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	tm := start(t, h, 80, 12, "--demo")
	tm.waitFor("Ask anything")
	tm.typ("hello\r\x1b")
	tm.waitUntil("the input box with hello", waitDeadline, func(s string) bool {
		return strings.HasPrefix(inputLine(s), "› hello")
	})
	tm.typ("x")
	tm.waitFor("  x")
	// The emulator reports mode 2026, so muse wraps its frames in it.
	tm.mu.Lock()
	synced := bytes.Contains(tm.raw.Bytes(), syncBegin)
	tm.mu.Unlock()
	if !synced {
		t.Error("the frames are not wrapped in synchronized output")
	}
	tm.typ("\x03\x04") // clear the input (ctrl+c), then quit (ctrl+d)
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
	tm.checkRestored()
}
