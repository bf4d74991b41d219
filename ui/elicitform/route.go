package elicitform

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"muse/theme"
	"muse/ui/mcp"
)

// RequestMsg carries an MCP server's request for input, to show as a form.
type RequestMsg struct{ e *mcp.Elicitation }

// GoneMsg says the server no longer waits for the answer to its request:
// it cancelled it, or muse's call to it ended (mcp.Elicitation.CallEnded).
type GoneMsg struct{ e *mcp.Elicitation }

// Wait waits, in a command, for the next request for input of the servers
// of mgr; nil when they can make none.
func Wait(mgr *mcp.Manager) tea.Cmd {
	if mgr == nil {
		return nil
	}
	ch := mgr.Elicitations()
	if ch == nil {
		return nil
	}
	return func() tea.Msg { return RequestMsg{<-ch} }
}

// Route handles what concerns the form: a server's request, which opens
// it without the keys (styled by th, width wide; a request while a form is
// open is cancelled: one form at a time), the request's end (which closes
// the form, whatever was typed in it), the Focus key while the form is
// open, and every key while it has them (esc declines). notice is what
// the status line says of it, if anything; ok is false for any other
// message, and for a key while the form does not have the keys, which the
// input takes, whole (see the package doc).
func (m Model) Route(msg tea.Msg, mgr *mcp.Manager, th *theme.Theme, width int) (_ Model, cmd tea.Cmd, notice string, ok bool) {
	switch msg := msg.(type) {
	case RequestMsg:
		next := Wait(mgr)
		if m.Active() {
			msg.e.Cancel()
			return m, next, "MCP server " + msg.e.Server + " asked for input while a form was open: cancelled", true
		}
		e := msg.e
		form := New(e, th, DefaultKeyMap()).SetSize(width, 0)
		return form, tea.Batch(next, func() tea.Msg { <-e.Done(); return GoneMsg{e} }),
			"MCP server " + e.Server + " asks for input: " + form.keys.Focus.Help().Key + " answers its form", true
	case GoneMsg:
		if m.Active() && m.e == msg.e {
			if msg.e.CallEnded() {
				return Model{}, nil, "MCP server " + msg.e.Server + "'s form closed unanswered: muse's call to it ended", true
			}
			return Model{}, nil, "MCP server " + msg.e.Server + " no longer waits for its form", true
		}
		return m, nil, "", true
	case tea.KeyMsg:
		if !m.Active() {
			return m, nil, "", false
		}
		if !m.focused {
			if !key.Matches(msg, m.keys.Focus) {
				return m, nil, "", false
			}
			m = m.SetFocused(true)
			return m, nil, m.focusNotice(), true
		}
		e := m.e
		m, cmd = m.Update(msg)
		if m.Active() && !m.Focused() {
			notice = m.focusNotice()
		}
		if !m.Active() {
			notice = "answered MCP server " + e.Server + "'s form"
			if msg.String() == "esc" {
				notice = "declined MCP server " + e.Server + "'s form"
			}
		}
		return m, cmd, notice, true
	}
	return m, nil, "", false
}

// focusNotice is what the status line says as the keys move between the
// form and the input: the keys that now answer.
func (m Model) focusNotice() string {
	f := m.keys.Focus.Help().Key
	if m.focused {
		return "answering MCP server " + m.e.Server + "'s form: enter sends, esc declines, " + f + " back to the input"
	}
	return "MCP server " + m.e.Server + "'s form waits: " + f + " answers it"
}
