package ui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"muse/ui/piped"
	"muse/ui/sanitize"
)

// pipedDone attaches what was piped into muse once its read ends: whole,
// or as much as was read when the user stopped it, saying so; or says why
// nothing was kept. The input is untouched either way.
func (m Model) pipedDone(msg piped.DoneMsg) (tea.Model, tea.Cmd) {
	switch {
	case msg.Err != nil:
		m.notice = sanitize.Line(msg.Err.Error())
		return m.layout(), nil
	case len(msg.Data) == 0 && msg.Stopped:
		m.notice = "standard input stopped: nothing had been read"
		return m.layout(), nil
	case len(msg.Data) == 0:
		if strings.HasPrefix(m.notice, "reading standard input") {
			m.notice = ""
		}
		return m.layout(), nil
	}
	m, cmd := m.startAttach([]attachSource{{name: "stdin", data: msg.Data}}, "", "")
	note := "attached standard input · sent with the first prompt · /detach removes"
	if msg.Stopped {
		note = "standard input stopped at " + piped.Size(int64(len(msg.Data))) + ": what was read is attached · /detach removes it"
	}
	if cmd == nil {
		return m, nil
	}
	return m, noteAttached(cmd, note)
}
