package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"muse/ui/elicitform"
	"muse/ui/mcp"
)

// elicitMsg carries an MCP server's request for input, to show as a form.
type elicitMsg struct{ e *mcp.Elicitation }

// elicitGoneMsg says the server no longer waits for the answer to e.
type elicitGoneMsg struct{ e *mcp.Elicitation }

// waitElicit waits, in a command, for the next request for input of the
// servers of mgr.
func waitElicit(mgr *mcp.Manager) tea.Cmd {
	ch := mgr.Elicitations()
	if ch == nil {
		return nil
	}
	return func() tea.Msg { return elicitMsg{<-ch} }
}

// elicitRouted hands msg to the form while it is open: it takes every key
// (esc declines); ok is false when no form is open.
func (m Model) elicitRouted(msg tea.Msg) (tea.Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case elicitMsg:
		next := waitElicit(m.opts.MCP)
		if m.elicit.Active() {
			msg.e.Cancel() // one form at a time
			m.status = m.status.Note("MCP server " + msg.e.Server + " asked for input while a form was open: cancelled")
			return m, next, true
		}
		m.elicit = elicitform.New(msg.e, m.th, elicitform.DefaultKeyMap()).SetSize(m.size.Width)
		e := msg.e
		return m.layout(), tea.Batch(next, func() tea.Msg { <-e.Done(); return elicitGoneMsg{e} }), true
	case elicitGoneMsg:
		if m.elicit.Active() && m.elicit.Elicitation() == msg.e {
			m.elicit = elicitform.Model{}
			m.status = m.status.Note("MCP server " + msg.e.Server + " no longer waits for its form")
			return m.layout(), nil, true
		}
		return m, nil, true
	case tea.KeyMsg:
		if !m.elicit.Active() {
			return nil, nil, false
		}
		e := m.elicit.Elicitation()
		var cmd tea.Cmd
		m.elicit, cmd = m.elicit.Update(msg)
		if !m.elicit.Active() {
			m.status = m.status.Note("answered MCP server " + e.Server + "'s form")
			if msg.String() == "esc" {
				m.status = m.status.Note("declined MCP server " + e.Server + "'s form")
			}
		}
		return m.layout(), cmd, true
	}
	return nil, nil, false
}
