package input

import (
	tea "github.com/charmbracelet/bubbletea"

	"muse/ui/notices"
)

// historyRefreshedMsg ends the refresh of the prompt history that the first
// ↑ or ↓ of a walk asked for; the step is taken then.
type historyRefreshedMsg struct {
	older bool
	err   error
}

// recallKey walks the prompt history for ↑ (older) or ↓. The first key of
// a walk has the history take in the prompts other muses saved meanwhile
// (it looks at the file's size and time) in a command, off the event loop,
// and the step is taken when that ends; the next keys step at once.
func (m Model) recallKey(older bool) (Model, tea.Cmd) {
	if m.recall != nil || m.history == nil {
		return m.recallPrompt(older), nil
	}
	h := m.history
	return m, func() tea.Msg { return historyRefreshedMsg{older: older, err: h.Refresh()} }
}

// historyRefreshed takes the step a refresh waited for, unless the input
// was typed in meanwhile. A history that could not be read again is still
// walked, as it was, and the status line says why.
func (m Model) historyRefreshed(msg historyRefreshedMsg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	if msg.err != nil {
		text := "could not read the prompt history again: " + msg.err.Error()
		cmd = func() tea.Msg { return notices.Msg{Text: text} }
	}
	if v := m.ed.value(); v != "" && (m.recall == nil || v != m.recalled) {
		return m, cmd
	}
	return m.recallPrompt(msg.older), cmd
}
