package input

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"muse/theme"
)

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// testKeys are the chat screen's default keys for the input.
func testKeys() KeyMap {
	b := func(keys ...string) key.Binding { return key.NewBinding(key.WithKeys(keys...)) }
	return KeyMap{Complete: b("tab"), Prev: b("up"), Next: b("down"), Newline: b("alt+enter", "ctrl+j"),
		LineStart: b("ctrl+a"), LineEnd: b("ctrl+e"), WordLeft: b("alt+left", "alt+b"), WordRight: b("alt+right", "alt+f"),
		DeleteWord: b("ctrl+w", "alt+backspace"), DeleteToEnd: b("ctrl+k")}
}

// sized returns an empty input on a screen of w×h.
func sized(t *testing.T, w, h int) Model {
	t.Helper()
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	return New(th, testKeys(), nil).SetSize(w, h)
}

// rows returns the rows the input shows, under its border.
func rows(t *testing.T, m Model) []string {
	t.Helper()
	lines := strings.Split(m.View(), "\n")
	if !strings.HasPrefix(lines[0], "─") || len(lines) != m.Height()+1 {
		t.Fatalf("want a border and %d rows:\n%s", m.Height(), m.View())
	}
	return lines[1:]
}

func update(m Model, msg tea.Msg) Model {
	m, _ = m.Update(msg)
	return m
}

// A prompt longer than the width wraps, and the input grows with it.
func TestInputGrowsWithWrappedRows(t *testing.T) {
	m := update(sized(t, 40, 30), tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.Repeat("word ", 20) + "end")})
	if m.Height() != 3 {
		t.Errorf("input is %d rows high, want 3 for 103 characters at 40 columns", m.Height())
	}
	r := rows(t, m)
	if !strings.HasPrefix(r[0], "› word") || !strings.Contains(r[2], "end"+cursorOn) {
		t.Errorf("input rows %q", r)
	}
}

// A 60-line paste fills a third of the screen and shows its end, where the
// cursor is; moving to the top scrolls the input up.
func TestLongPasteShowsTheCursor(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	m := update(sized(t, 80, 24), tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.TrimSuffix(b.String(), "\n")), Paste: true})
	if m.Height() != 8 {
		t.Fatalf("input is %d rows high, want a third of 24", m.Height())
	}
	r := rows(t, m)
	if !strings.Contains(r[7], "line 60"+cursorOn) || !strings.Contains(r[0], "line 53") {
		t.Errorf("after the paste the input shows %q, want lines 53 to 60 and the cursor", r)
	}
	// alt+< goes to the start of the input: the view follows the cursor.
	m = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("<"), Alt: true})
	r = rows(t, m)
	if !strings.HasPrefix(r[0], "› "+cursorOn+"l"+cursorOff+"ine 1") || strings.Contains(strings.Join(r, "\n"), "line 60") {
		t.Errorf("at the start the input shows %q", r)
	}
	if v := m.Value(); strings.Count(v, "\n") != 59 {
		t.Errorf("the paste kept %d lines", strings.Count(v, "\n")+1)
	}
}

// The cursor is drawn in reverse video even with NO_COLOR, where no colour
// or style is drawn (the tests run lipgloss without colours).
func TestCursorShowsWithoutColour(t *testing.T) {
	m := sized(t, 60, 20)
	if v := m.View(); !strings.Contains(v, cursorOn+" "+cursorOff+"Ask anything") {
		t.Errorf("no cursor before the placeholder:\n%q", v)
	}
	m = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("hi")})
	if v := m.View(); !strings.Contains(v, "› hi"+cursorOn+" "+cursorOff) {
		t.Errorf("no cursor after the text:\n%q", v)
	}
	// A message selected: no cursor; a tool call waiting: one line saying so.
	if v := m.SetState(State{Selecting: true}).View(); strings.Contains(v, cursorOn) {
		t.Errorf("a cursor while a message is selected:\n%q", v)
	}
	if v := m.SetState(State{Busy: true, Answering: true}).SetSize(60, 20).View(); !strings.Contains(v, "waiting for your answer above") {
		t.Errorf("a tool call waits, and the input shows:\n%q", v)
	}
}

// An enter right behind a paste is held: a key behind it makes it a line
// break, and only an enter nothing followed is due.
func TestHeldSendBecomesALineBreak(t *testing.T) {
	m := sized(t, 80, 24)
	m, k := m.Receive(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("first")})
	if !k.Paste {
		t.Fatal("several runes at once are not text")
	}
	m = update(m, k)
	m, _ = m.Receive(tea.KeyMsg{Type: tea.KeyEnter})
	if !m.AfterPaste() {
		t.Fatal("the enter does not follow the paste")
	}
	m, _ = m.HoldSend()
	stale := SendDueMsg{seq: m.sendSeq}
	m, k = m.Receive(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")})
	m = update(m, k)
	if _, due := m.SendDue(stale); due || m.Value() != "first\nx" {
		t.Errorf("due %v, input %q: want a line break and no send", due, m.Value())
	}
	m, _ = m.HoldSend()
	if _, due := m.SendDue(SendDueMsg{seq: m.sendSeq}); !due {
		t.Error("an enter nothing followed is not due")
	}
}
