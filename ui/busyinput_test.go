package ui

import (
	"bytes"
	"strings"
	"testing"

	"muse/session"
	"muse/ui/status"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
)

// A slash command refused because a turn is in flight stays in the input,
// with the notice saying why: enter sends it again once the turn ends.
// (It was cleared, so the typed command was lost.) Every command of
// waitsForTurn is refused so, before anything else it would check
// (/continue with nothing to continue too).
func TestBusyRefusedCommandStaysInInput(t *testing.T) {
	for _, line := range []string{"/image a second fox", "/compact keep names", "/retry", "/clear", "/continue"} {
		t.Run(line, func(t *testing.T) {
			hs, hd := newHeldHarness(t, "held fox") // the image is in flight until let
			tm := start(t, hs.model(t, nil), 100, 40)
			send(tm, "/image a held fox")
			waitFor(t, tm, "esc cancels")
			ht := hd.held(t)
			send(tm, line)
			waitFor(t, tm, busyNotice)
			ht.let(t)
			waitSaved(t, hs.store, session.KindImage)
			m := quit(t, tm)
			if got := strings.TrimSpace(m.comp.Input().Value()); got != line {
				t.Errorf("input after the refusal: %q, want %q", got, line)
			}
		})
	}
}

// sendWhenIdle sends the slash command text, and enter again while it is
// refused because the turn before is still ending on screen (the command
// stays in the input), until the screen draws taken.
func sendWhenIdle(t *testing.T, tm *teatest.TestModel, text, taken string) {
	t.Helper()
	send(tm, text)
	for range 100 {
		refused := false
		onScreen(t, tm, func(b []byte) bool {
			refused = bytes.Contains(b, []byte(busyNotice))
			return refused || bytes.Contains(b, []byte(taken))
		})
		if !refused {
			return
		}
		tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	}
	t.Fatalf("%q was refused as busy 100 times", text)
}

// A refusal while a turn is in flight goes when the turn ends, by its kind
// and not by its words: a later notice stays, even one that quotes it.
func TestBusyRefusalGoesWithTheTurn(t *testing.T) {
	s := status.New().Busy(busyNotice + ": esc cancels it")
	if got := s.TurnEnded().Notice(); got != "" {
		t.Errorf("after the turn: %q, want no notice", got)
	}
	later := "exported: " + busyNotice + ".md"
	if got := s.Note(later).TurnEnded().Notice(); got != later {
		t.Errorf("after the turn: %q, want the later notice %q", got, later)
	}
}
