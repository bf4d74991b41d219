package input

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// "\" before the cursor becomes a line break; anything else is no line
// continued.
func TestContinueLine(t *testing.T) {
	m := update(sized(t, 80, 24), runes(`one\`))
	m, ok := m.ContinueLine()
	if !ok || m.Value() != "one\n" {
		t.Fatalf("%q, %v", m.Value(), ok)
	}
	m = update(m, runes("two"))
	if m.Value() != "one\ntwo" {
		t.Fatalf("%q", m.Value())
	}
	for _, text := range []string{"", "a\\b", "no"} {
		if _, ok := update(sized(t, 80, 24), runes(text)).ContinueLine(); ok {
			t.Errorf("%q continued", text)
		}
	}
}

// fakeCSI stands for Bubble Tea's unexported message for a sequence it
// does not know, which only its String names.
type fakeCSI string

func (f fakeCSI) String() string { return string(f) }

func TestShiftEnter(t *testing.T) {
	for seq, want := range map[string]bool{"?CSI[49 51 59 50 117]?": true, "?CSI[50 55 59 50 59 49 51 126]?": true, "?CSI[49 59 50 65]?": false} {
		k, ok := ShiftEnter(fakeCSI(seq))
		if ok != want || ok && k.(tea.KeyMsg).String() != "alt+enter" {
			t.Errorf("%s: %v %v", seq, k, ok)
		}
	}
}
