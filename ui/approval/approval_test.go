package approval

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"muse/theme"
)

func box(t *testing.T) Model {
	t.Helper()
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	return New(th, KeyMap{
		PageUp:   key.NewBinding(key.WithKeys("pgup")),
		PageDown: key.NewBinding(key.WithKeys("pgdown")),
		Mode:     key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "approve all")),
	})
}

var call = Call{Name: "rm_rf", Command: []string{"sh", "-c", "rm -rf $X"}, Dir: "/tmp/w", HasCommand: true,
	Input: json.RawMessage(`{"a":1,"b":2,"c":3,"d":4,"e":5}`)}

// The box shows the command quoted as a shell takes it, its folder, the
// input and the keys, every line within the width; closed, nothing.
func TestView(t *testing.T) {
	m := box(t).SetSize(60, 20)
	if m.View() != "" || m.IsOpen() {
		t.Fatal("a closed box draws")
	}
	m = m.Open(call)
	v := ansi.Strip(m.View())
	for _, want := range []string{"run tool rm_rf?", `$ sh -c 'rm -rf $X'`, "in /tmp/w", `"e": 5`, "y yes · n no, say why · a always"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in\n%s", want, v)
		}
	}
	for _, l := range strings.Split(v, "\n") {
		if w := ansi.StringWidth(l); w > 60 {
			t.Errorf("line %d wide: %q", w, l)
		}
	}
	if v := ansi.Strip(m.Open(Call{Name: "ask", Server: "srv", HasCommand: false}).View()); !strings.Contains(v, "tool ask needs a result") || !strings.Contains(v, "esc declines") {
		t.Errorf("typed result box:\n%s", v)
	}
}

// n asks why: the box says so until it is closed; a new call starts
// asking again.
func TestDecline(t *testing.T) {
	m := box(t).SetSize(80, 20).Open(call).Decline()
	if !m.Declining() || !strings.Contains(ansi.Strip(m.View()), "not running rm_rf: why not?") {
		t.Errorf("declining: %v\n%s", m.Declining(), m.View())
	}
	if m.Close().Declining() || m.Open(call).Declining() || box(t).Decline().Declining() {
		t.Error("declining outlived its call")
	}
}

// The body scrolls by line and by page, and never past its ends.
func TestScroll(t *testing.T) {
	m := box(t).SetSize(80, 2).Open(call)
	body := m.Body()
	if len(body) < 6 {
		t.Fatalf("body %q", body)
	}
	down := tea.KeyMsg{Type: tea.KeyDown}
	for range len(body) + 3 {
		m, _ = m.Update(down)
	}
	if m.top != len(body)-2 {
		t.Errorf("scrolled to %d of %d", m.top, len(body))
	}
	m, ok := m.Update(tea.KeyMsg{Type: tea.KeyPgUp})
	if !ok || m.top != len(body)-4 {
		t.Errorf("pgup: %v %d", ok, m.top)
	}
	if _, ok := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")}); ok {
		t.Error("y scrolled")
	}
	// A typed result's box leaves ↑↓ to the input.
	if _, ok := m.Open(Call{Name: "ask"}).Update(down); ok {
		t.Error("↓ scrolled a typed result's box")
	}
}

// The mode is said on the status line while it is all, and not in ask.
func TestMode(t *testing.T) {
	m := box(t)
	if l, _ := m.Setting(); l != "" || m.All() {
		t.Errorf("ask shows %q", l)
	}
	m = m.SetAll(true)
	if l, s := m.Setting(); l != "approve all" || s == "" || !strings.Contains(m.ModeNotice(), "shift+tab or /approve ask") {
		t.Errorf("all: %q %q %q", l, s, m.ModeNotice())
	}
	if !strings.Contains(m.SetAll(false).ModeNotice(), "/approve all") {
		t.Error(m.SetAll(false).ModeNotice())
	}
}

// "a always" holds until forgotten, and a copy of the box made before
// is not changed by it.
func TestAlways(t *testing.T) {
	before := box(t)
	m := before.Allow("x")
	if !m.Always("x") || m.Always("y") || before.Always("x") || m.Forget().Always("x") {
		t.Error("always is wrong")
	}
}

func TestShellQuote(t *testing.T) {
	if q := ShellQuote([]string{"echo", "a b", "it's", "", "it's $X"}); q != `echo "a b" "it's" "" 'it'\''s $X'` {
		t.Errorf("%s", q)
	}
}
