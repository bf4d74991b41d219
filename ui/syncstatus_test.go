package ui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"muse/ui/syncrun"
)

// kicker counts the syncs asked for.
type kicker struct{ n int }

func (k *kicker) Kick() { k.n++ }

// The status line shows the background sync: running, its time, or its
// error sanitized; a finished turn asks for a sync.
func TestSyncStatus(t *testing.T) {
	h := newHarness(t, 0)
	k := &kicker{}
	m := h.modelWith(t, nil, func(o *Options) { o.Sync = k })
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 120, Height: 24})
	if s := statusOf(m); strings.Contains(s, "sync") {
		t.Errorf("status before any sync %q", s)
	}
	m, _ = updateModel(m, syncrun.StatusMsg{Running: true})
	if s := statusOf(m); !strings.Contains(s, "syncing") {
		t.Errorf("status %q", s)
	}
	last := time.Date(2026, 1, 2, 15, 4, 0, 0, time.Local)
	m, _ = updateModel(m, syncrun.StatusMsg{Last: last})
	if s := statusOf(m); !strings.Contains(s, "synced 15:04") {
		t.Errorf("status %q", s)
	}
	m, _ = updateModel(m, syncrun.StatusMsg{Last: last, Err: "git fetch: \x1b]0;pwned\x07unreachable"})
	s := statusOf(m)
	if !strings.Contains(s, "sync ✗ git fetch:") || strings.Contains(s, "\x07") || strings.Contains(s, "\x1b]0") {
		t.Errorf("status %q", s)
	}
	tm := start(t, m, 100, 30)
	send(tm, "hello there")
	waitFor(t, tm, "stop end_turn")
	quit(t, tm)
	if k.n != 1 {
		t.Errorf("%d syncs asked for after one turn", k.n)
	}
}
