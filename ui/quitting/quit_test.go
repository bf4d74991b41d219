package quitting

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
)

// A second press quits within Window of the first by the injected clock,
// not after it, and not after Forget; the copy before a press is unchanged.
func TestPressTwice(t *testing.T) {
	now := time.Unix(100, 0)
	clock := func() time.Time { return now }
	m := New(KeyMap{}, clock)
	first, again := m.Press()
	if again || !m.asked.IsZero() || first.asked.IsZero() {
		t.Fatal("a first press quit, or changed the copy before it")
	}
	now = now.Add(Window)
	if _, again := first.Press(); !again {
		t.Error("a second press within the window did not quit")
	}
	if _, again := first.Forget().Press(); again {
		t.Error("a press after another key quit")
	}
	now = now.Add(time.Millisecond)
	if _, again := first.Press(); again {
		t.Error("a second press after the window quit")
	}
}

// The hint names the keys as bound, and the queue quitting leaves unsent.
func TestHint(t *testing.T) {
	keys := KeyMap{Quit: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c/ctrl+q", "quit")), Exit: key.NewBinding(key.WithHelp("ctrl+d", "exit"))}
	m := New(keys, time.Now)
	if h := m.Hint(0); h != "press ctrl+c again to quit (ctrl+d quits at once)" {
		t.Errorf("hint %q", h)
	}
	if h := m.Hint(2); !strings.Contains(h, "2 queued prompts will not be sent") {
		t.Errorf("hint %q", h)
	}
	if m.Active() || !m.Start().Active() || m.Closed(nil).Err() != nil {
		t.Error("start or close")
	}
}
