package piped

import (
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

// The read's own notes, its progress and that of a prompt sent while it
// goes on, are out of date once it ends; other notices are not.
func TestStale(t *testing.T) {
	m := New(nil, 10, KeyMap{Stop: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop"))})
	m.reading = true
	for _, n := range []string{m.View(), m.StillReading()} {
		if !Stale(n) {
			t.Errorf("%q is not stale", n)
		}
	}
	if got := m.StillReading(); got != "standard input is still being read: esc stops it and attaches what was read, then enter sends" {
		t.Errorf("StillReading: %q", got)
	}
	for _, n := range []string{"", "theme dark", "-a: notes.md looks like a secret"} {
		if Stale(n) {
			t.Errorf("%q is stale", n)
		}
	}
}
