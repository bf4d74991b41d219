package ui

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// movingClock is a clock a test moves by hand.
type movingClock struct{ ns atomic.Int64 }

func newMovingClock() *movingClock {
	c := &movingClock{}
	c.ns.Store(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC).UnixNano())
	return c
}

func (c *movingClock) now() time.Time          { return time.Unix(0, c.ns.Load()).UTC() }
func (c *movingClock) advance(d time.Duration) { c.ns.Add(int64(d)) }
func ctrl(t tea.KeyType) tea.KeyMsg            { return tea.KeyMsg{Type: t} }

// ctrl+c on an empty input asks for a second press, and quits only on a
// second within a second; a key between, or a second too late, asks again.
func TestCtrlCTwiceQuits(t *testing.T) {
	h := newHarness(t, 0)
	clock := newMovingClock()
	m := h.modelWith(t, nil, func(o *Options) { o.Now = clock.now })
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 80, Height: 24})

	m, _ = updateModel(m, ctrl(tea.KeyCtrlC))
	if m.quitting.Active() || !strings.Contains(m.status.Notice(), "press ctrl+c again to quit") {
		t.Fatalf("a first ctrl+c: quitting %v, notice %q", m.quitting.Active(), m.status.Notice())
	}
	if !strings.Contains(m.View(), "press ctrl+c again to quit") {
		t.Errorf("the status line does not say so:\n%s", m.View())
	}
	clock.advance(1500 * time.Millisecond)
	m, _ = updateModel(m, ctrl(tea.KeyCtrlC))
	if m.quitting.Active() {
		t.Fatal("a second ctrl+c 1.5 s later quit")
	}
	clock.advance(200 * time.Millisecond)
	m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")})
	m, _ = updateModel(m, ctrl(tea.KeyBackspace))
	m, _ = updateModel(m, ctrl(tea.KeyCtrlC))
	if m.quitting.Active() {
		t.Fatal("ctrl+c after other keys quit")
	}
	clock.advance(900 * time.Millisecond)
	m, cmd := updateModel(m, ctrl(tea.KeyCtrlC))
	if !m.quitting.Active() || cmd == nil {
		t.Fatal("a second ctrl+c within a second did not quit")
	}
}

// Through the program: ctrl+c twice quits; ctrl+d on an empty input quits
// at once, and deletes the character under the cursor otherwise.
func TestQuitKeys(t *testing.T) {
	h := newHarness(t, 0)
	tm := start(t, h.model(t, nil), 80, 24)
	tm.Send(ctrl(tea.KeyCtrlC))
	waitFor(t, tm, "press ctrl+c again to quit (ctrl+d quits at once)")
	tm.Send(ctrl(tea.KeyCtrlC))
	if m := finalModel(t, tm); !m.quitting.Active() {
		t.Error("two ctrl+c did not quit")
	}

	tm = start(t, h.model(t, nil), 80, 24)
	tm.Type("abc")
	tm.Send(ctrl(tea.KeyLeft))
	tm.Send(ctrl(tea.KeyCtrlD)) // deletes the c
	waitFor(t, tm, "› ab")
	tm.Send(ctrl(tea.KeyCtrlA))
	tm.Send(ctrl(tea.KeyCtrlK))
	tm.Send(ctrl(tea.KeyCtrlD)) // empty: quits
	if m := finalModel(t, tm); !m.quitting.Active() || len(m.conv.Entries()) != 0 {
		t.Errorf("ctrl+d on an empty input: quitting %v", m.quitting.Active())
	}
}

// ctrl+u deletes to the start of the line, as in shells; ctrl+w, ctrl+a,
// ctrl+e, alt+b and alt+f keep working.
func TestShellEditingKeys(t *testing.T) {
	h := newHarness(t, 0)
	tm := start(t, h.model(t, nil), 80, 24)
	tm.Type("one two three")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("b"), Alt: true}) // before "three"
	tm.Send(ctrl(tea.KeyCtrlU))                                            // "three"
	tm.Send(ctrl(tea.KeyCtrlE))
	tm.Type(" four")
	tm.Send(ctrl(tea.KeyCtrlW)) // "three "
	tm.Send(ctrl(tea.KeyCtrlA))
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f"), Alt: true}) // after "three"
	tm.Type("!")
	waitFor(t, tm, "› three!")
	m := quit(t, tm)
	if got := m.comp.Input().Value(); got != "three! " {
		t.Errorf("input %q, want %q", got, "three! ")
	}
}

// ctrl+z suspends muse through Options.Suspend (the screen's, which stops
// the process as SIGTSTP does); a failure is said in the status line.
func TestCtrlZSuspends(t *testing.T) {
	h := newHarness(t, 0)
	called := make(chan struct{}, 1)
	m := h.modelWith(t, nil, func(o *Options) {
		o.Suspend = func() error {
			called <- struct{}{}
			return errSuspendTest
		}
	})
	tm := start(t, m, 80, 24)
	tm.Send(ctrl(tea.KeyCtrlZ))
	<-called
	waitFor(t, tm, "no job control here")
	quit(t, tm)
}

var errSuspendTest = errors.New("suspend muse: no job control here")
