package elicitform

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"muse/ui/mcp"
)

// The form routes its own messages: a request opens it, a second request
// while it is open is cancelled, the end of another request changes
// nothing, esc declines, and the end of its own request closes it; keys
// pass by while no form is open.
func TestRoute(t *testing.T) {
	first := &mcp.Elicitation{Server: "a", Fields: []mcp.Field{{Name: "name", Type: "string"}}}
	second := &mcp.Elicitation{Server: "b"}
	var m Model
	if _, _, _, ok := m.Route(tea.KeyMsg{Type: tea.KeyEnter}, nil, nil, 80); ok {
		t.Fatal("a key was taken with no form open")
	}
	m, cmd, notice, ok := m.Route(RequestMsg{first}, nil, nil, 80)
	if !ok || !m.Active() || m.Elicitation() != first || cmd == nil || notice != "" {
		t.Fatalf("request: ok %v active %v cmd %v notice %q", ok, m.Active(), cmd != nil, notice)
	}
	m, _, notice, _ = m.Route(RequestMsg{second}, nil, nil, 80)
	if m.Elicitation() != first || notice != "MCP server b asked for input while a form was open: cancelled" {
		t.Errorf("second request: form of %v, notice %q", m.Elicitation().Server, notice)
	}
	m, _, notice, ok = m.Route(GoneMsg{second}, nil, nil, 80)
	if !ok || m.Elicitation() != first || notice != "" {
		t.Errorf("the other request's end: form of %v, notice %q", m.Elicitation(), notice)
	}
	declined, _, notice, ok := m.Route(tea.KeyMsg{Type: tea.KeyEsc}, nil, nil, 80)
	if !ok || declined.Active() || notice != "declined MCP server a's form" {
		t.Errorf("esc: active %v, notice %q", declined.Active(), notice)
	}
	gone, _, notice, _ := m.Route(GoneMsg{first}, nil, nil, 80)
	if gone.Active() || notice != "MCP server a no longer waits for its form" {
		t.Errorf("its request's end: active %v, notice %q", gone.Active(), notice)
	}
}
