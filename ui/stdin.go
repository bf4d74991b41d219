package ui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"muse/ui/composer"
	"muse/ui/piped"
	"muse/ui/sanitize"
)

// pipedDone attaches what was piped into muse once its read ends: whole,
// or as much as was read when the user stopped it, saying so; or says why
// nothing was kept. The input is untouched either way, and a notice shown
// meanwhile (-a's warning about a secret file, a theme's) stays, with this
// one after it.
func (m Model) pipedDone(msg piped.DoneMsg) (tea.Model, tea.Cmd) {
	before := m.status.Notice()
	if piped.Stale(before) || strings.HasPrefix(before, "attached ") {
		before = "" // the read's own notes, or what the chips show
	}
	after := func(s string) string {
		if before == "" {
			return s
		}
		return before + " · " + s
	}
	switch {
	case msg.Err != nil:
		m.status = m.status.Note(after(sanitize.Line(msg.Err.Error())))
		return m.layout(), nil
	case len(msg.Data) == 0 && msg.Stopped:
		m.status = m.status.Note(after("standard input stopped: nothing had been read"))
		return m.layout(), nil
	case len(msg.Data) == 0:
		m.status = m.status.Note(before)
		return m.layout(), nil
	}
	c, out := m.comp.Attach([]composer.Source{{Name: "stdin", Data: msg.Data}}, "")
	if out.Cmd == nil { // refused at once
		m.comp, m.status = c, m.status.Note(after(out.Notice))
		return m, nil
	}
	note := "attached standard input · sent with the first prompt · /detach removes"
	if msg.Stopped {
		note = "standard input stopped at " + piped.Size(int64(len(msg.Data))) + ": what was read is attached · /detach removes it"
	}
	return m.compose(c, composer.Decorate(out, func(done composer.AttachedMsg) composer.AttachedMsg {
		done.Note = after(note)
		if done.Err != nil {
			done.Err = fmt.Errorf("%s", after("piped input not attached: "+done.Err.Error()))
		}
		return done
	}))
}
