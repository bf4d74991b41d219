package elicitform

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"muse/theme"
	"muse/ui/mcp"
)

// The form routes its own messages: a request opens it, saying so and
// how to answer, a second request while it is open is cancelled, the end
// of another request changes nothing, esc (once it has the keys) declines,
// and the end of its own request closes it; keys pass by while no form is
// open.
func TestRoute(t *testing.T) {
	first := &mcp.Elicitation{Server: "a", Fields: []mcp.Field{{Name: "name", Type: "string"}}}
	second := &mcp.Elicitation{Server: "b"}
	var m Model
	if _, _, _, ok := m.Route(tea.KeyMsg{Type: tea.KeyEnter}, nil, nil, 80); ok {
		t.Fatal("a key was taken with no form open")
	}
	m, cmd, notice, ok := m.Route(RequestMsg{first}, nil, nil, 80)
	if !ok || !m.Active() || m.Focused() || m.Elicitation() != first || cmd == nil || notice != "MCP server a asks for input: ctrl+l answers its form" {
		t.Fatalf("request: ok %v active %v focused %v cmd %v notice %q", ok, m.Active(), m.Focused(), cmd != nil, notice)
	}
	m, _, notice, _ = m.Route(RequestMsg{second}, nil, nil, 80)
	if m.Elicitation() != first || notice != "MCP server b asked for input while a form was open: cancelled" {
		t.Errorf("second request: form of %v, notice %q", m.Elicitation().Server, notice)
	}
	m, _, notice, ok = m.Route(GoneMsg{second}, nil, nil, 80)
	if !ok || m.Elicitation() != first || notice != "" {
		t.Errorf("the other request's end: form of %v, notice %q", m.Elicitation(), notice)
	}
	focused, _, _, ok := m.Route(tea.KeyMsg{Type: tea.KeyCtrlL}, nil, nil, 80)
	if !ok || !focused.Focused() {
		t.Fatalf("ctrl+l: ok %v focused %v", ok, focused.Focused())
	}
	declined, _, notice, ok := focused.Route(tea.KeyMsg{Type: tea.KeyEsc}, nil, nil, 80)
	if !ok || declined.Active() || notice != "declined MCP server a's form" {
		t.Errorf("esc: active %v, notice %q", declined.Active(), notice)
	}
	gone, _, notice, _ := m.Route(GoneMsg{first}, nil, nil, 80)
	if gone.Active() || notice != "MCP server a no longer waits for its form" {
		t.Errorf("its request's end: active %v, notice %q", gone.Active(), notice)
	}
}

// The attack review's case: a form that opens while the user types takes
// none of the keys: the rest of the word, and the enter meant for the
// prompt (or esc meant to cancel the reply), pass by to the input, and the
// form stays open, unanswered and empty. Only ctrl+l, which its last line
// names, gives it the keys, and ctrl+l again gives them back to the input,
// keeping what was typed in the form.
func TestFormTakesKeysOnlyWhenAsked(t *testing.T) {
	th, err := theme.New("", true, theme.WithProfile(termenv.Ascii))
	if err != nil {
		t.Fatal(err)
	}
	e := &mcp.Elicitation{Server: "ev", Message: "Please confirm", Fields: []mcp.Field{{Name: "note", Type: "string", Required: true}}}
	m, _, _, _ := Model{}.Route(RequestMsg{e}, nil, th, 80)
	if v := m.View(); !strings.Contains(v, "MCP server ev asks: Please confirm") || !strings.Contains(v, "ctrl+l answers the form · until then you type in the input") {
		t.Fatalf("the form as it opens:\n%s", v)
	}
	for _, k := range []tea.KeyMsg{
		{Type: tea.KeyRunes, Runes: []rune("r")}, {Type: tea.KeyRunes, Runes: []rune("2")},
		{Type: tea.KeyEnter}, {Type: tea.KeyEsc}, {Type: tea.KeyTab}, {Type: tea.KeyBackspace},
	} {
		next, _, notice, ok := m.Route(k, nil, th, 80)
		if ok || notice != "" || !next.Active() || next.Focused() {
			t.Fatalf("%q, typed before ctrl+l: taken %v, notice %q, open %v, focused %v", k, ok, notice, next.Active(), next.Focused())
		}
		m = next
	}
	if v := m.View(); strings.Contains(v, "r2") {
		t.Fatalf("the form holds what was typed in the input:\n%s", v)
	}
	m, _, _, ok := m.Route(tea.KeyMsg{Type: tea.KeyCtrlL}, nil, th, 80)
	if !ok || !m.Focused() || !strings.Contains(m.View(), "enter sends · tab next field · esc declines · ctrl+l back to the input") {
		t.Fatalf("ctrl+l: taken %v, focused %v:\n%s", ok, m.Focused(), m.View())
	}
	for _, r := range "ok" {
		if m, _, _, ok = m.Route(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}, nil, th, 80); !ok {
			t.Fatalf("%q with the keys: not taken", r)
		}
	}
	m, _, _, ok = m.Route(tea.KeyMsg{Type: tea.KeyCtrlL}, nil, th, 80)
	if !ok || m.Focused() || !m.Active() {
		t.Fatalf("ctrl+l again: taken %v, focused %v, open %v", ok, m.Focused(), m.Active())
	}
	if _, _, _, ok = m.Route(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")}, nil, th, 80); ok {
		t.Error("a key after ctrl+l gave the keys back was taken")
	}
	if v := m.View(); !strings.Contains(v, "note*  ok") {
		t.Errorf("what was typed in the form is lost:\n%s", v)
	}
}
