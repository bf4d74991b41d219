//go:build linux

package e2e

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestNotifyAsksForFocusReports runs muse with notify on in its profile:
// it has the terminal report focus (mode 1004) while it runs, and turns
// that off again when it exits. Without notify it never asks.
func TestNotifyAsksForFocusReports(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		config string
		asks   bool
	}{
		{"default_profile = \"n\"\n[profiles.n]\nnotify = \"bell\"\n", true},
		{"", false},
	} {
		h := newHome(t, tc.config)
		tm := start(t, h, 80, 12, "--demo")
		tm.waitFor("Ask anything")
		tm.mu.Lock()
		on, set := tm.modes[ansi.ModeFocusEvent]
		tm.mu.Unlock()
		if on != tc.asks || set != tc.asks {
			t.Errorf("notify %v: focus reports set %v, on %v", tc.asks, set, on)
		}
		tm.typ("\x04") // quit (ctrl+d)
		if code := tm.waitExit(); code != 0 {
			t.Errorf("muse exited with status %d", code)
		}
		tm.checkRestored()
	}
}
