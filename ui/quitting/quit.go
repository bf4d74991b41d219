// Package quitting is the chat screen's way out. ctrl+c, once nothing inside
// is left for it to stop (a queued prompt brought back, a turn, an edit,
// the draft), quits on a second press only, within Window of the first by
// the screen's clock, which is injected; any other key in between forgets
// the first. Quitting waits for the turn in flight to be saved, and the
// session's close reports why it could not be saved, if it could not. It
// is a child of the chat screen, a value that does no I/O.
package quitting

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"

	"muse/ui/textfmt"
)

// Window is how soon a second ctrl+c must follow the first to quit.
const Window = time.Second

// KeyMap are the keys the hints name: Quit, pressed twice, and Exit, which
// quits at once on an empty input.
type KeyMap struct {
	Quit, Exit key.Binding
}

// Model is the way out: when ctrl+c was first pressed, whether the screen
// is quitting, and why the session could not be saved when it closed.
type Model struct {
	keys     *KeyMap // shared by the copies: it never changes
	now      func() time.Time
	asked    time.Time
	active   bool
	closeErr error
}

// New returns a screen not quitting, timing presses by now.
func New(keys KeyMap, now func() time.Time) Model {
	return Model{keys: &keys, now: now}
}

// Press takes a ctrl+c that nothing else took: again reports that it
// follows a first press within Window, and quits; otherwise the returned
// model remembers it as a first press.
func (m Model) Press() (_ Model, again bool) {
	now := m.now()
	if !m.asked.IsZero() && now.Sub(m.asked) <= Window {
		m.asked = time.Time{}
		return m, true
	}
	m.asked = now
	return m, false
}

// Forget forgets a first press, as any other key does.
func (m Model) Forget() Model {
	m.asked = time.Time{}
	return m
}

// Hint is what the status line says after a first press; queued is how
// many prompts wait in the queue, which quitting leaves unsent.
func (m Model) Hint(queued int) string {
	first, _, _ := strings.Cut(m.keys.Quit.Help().Key, "/")
	hint := "press " + first + " again to quit"
	if queued > 0 {
		// Kept in the prompt history (↑), and beside the session: resuming it shows them again.
		return hint + ": " + textfmt.Plural(queued, "queued prompt") + " will not be sent now (kept: resuming the session shows the queue again)"
	}
	if exit, _, _ := strings.Cut(m.keys.Exit.Help().Key, "/"); exit != "" {
		hint += " (" + exit + " quits at once)"
	}
	return hint
}

// Start quits: the screen ends once the turn in flight is saved.
func (m Model) Start() Model {
	m.active = true
	return m
}

// Active reports whether the screen is quitting.
func (m Model) Active() bool { return m.active }

// Closed notes why the session could not be saved when it closed; nil
// says it was.
func (m Model) Closed(err error) Model {
	m.closeErr = err
	return m
}

// Err is why the session could not be saved when it closed, or nil.
func (m Model) Err() error { return m.closeErr }
