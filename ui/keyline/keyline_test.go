package keyline

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
)

func b(k, d string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, d)) }

// At every width the last key stays, the line fits when it can, and keys
// are dropped from before the last, in order.
func TestFit(t *testing.T) {
	h := help.New()
	keys := []key.Binding{b("enter", "send"), b("alt+enter", "newline"), b("ctrl+↑", "select"), b("ctrl+c", "clear/quit"), b("?", "help")}
	disabled := b("x", "never")
	disabled.SetEnabled(false)
	keys = append(keys[:1], append([]key.Binding{disabled}, keys[1:]...)...)
	for width := 10; width <= 90; width++ {
		got := Fit(h, keys, width)
		line := h.ShortHelpView(got)
		if !strings.HasSuffix(line, "? help") || !strings.HasPrefix(line, "enter send") {
			t.Errorf("width %d: %q", width, line)
		}
		if len(got) > 2 && lipgloss.Width(line) > width {
			t.Errorf("width %d: %q is %d wide", width, line, lipgloss.Width(line))
		}
		if strings.Contains(line, "never") {
			t.Errorf("a disabled key is shown: %q", line)
		}
	}
	if got := h.ShortHelpView(Fit(h, keys, 60)); got != "enter send • alt+enter newline • ctrl+↑ select • ? help" {
		t.Errorf("at 60: %q", got)
	}
}
