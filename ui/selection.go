package ui

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/ui/composer"
	"muse/ui/selection"
)

// Selection mode is a child (ui/selection): it keeps the message selected
// and maps its keys to actions, which selectKey carries out on the
// selected entry.

// startSelection enters selection mode on the last message.
func (m Model) startSelection() (tea.Model, tea.Cmd) {
	n := len(m.conv.Entries())
	if n == 0 {
		m.status = m.status.Note("nothing to select yet")
		return m, nil
	}
	m.w = m.w.with(func(w *widgets) { w.help = w.help.Close() })
	m.sel = m.sel.Start()
	return m.selectAt(n - 1), nil
}

// selectAt selects entry i and scrolls it into view.
func (m Model) selectAt(i int) Model {
	es := m.conv.Entries()
	m.sel = m.sel.Select(i, len(es))
	i = m.sel.Index()
	m.conv = m.conv.Select(es[i].ID).Reveal(i)
	m.status = m.status.Note("")
	return m.layout()
}

// leaveSelection goes back to the input.
func (m Model) leaveSelection() Model {
	m.sel = m.sel.Leave()
	m.conv = m.conv.Select("")
	m.status = m.status.Note("")
	return m.layout()
}

// selectKey carries out the action of a key in selection mode. Keys it
// does not know do nothing: typing does not reach the input.
func (m Model) selectKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	e, ok := m.sel.Entry(m.conv.Entries())
	if !ok {
		return m.leaveSelection(), nil
	}
	sel, action := m.sel.Update(msg, len(m.conv.Entries()))
	switch action {
	case selection.Leave:
		return m.leaveSelection(), nil
	case selection.Moved:
		return m.selectAt(sel.Index()), nil
	case selection.Copy:
		text := entrySource(e)
		if text == "" {
			m.status = m.status.Note("this message has no text to copy")
			return m, nil
		}
		return m, copyText(m.opts, text, describe(e)+" as markdown")
	case selection.Code:
		blocks := codeBlocks(entrySource(e))
		if len(blocks) == 0 {
			m.status = m.status.Note("this message has no code block")
			return m, nil
		}
		var i int
		m.sel, i = m.sel.NextCode(len(blocks))
		what := fmt.Sprintf("code block %d of %d", i+1, len(blocks))
		if len(blocks) > 1 {
			what += " · c copies the next"
		}
		return m, copyText(m.opts, blocks[i].text, what)
	case selection.Edit:
		p, ok := m.branches.At(e.ID)
		switch {
		case e.Kind != session.KindUser:
			m.status = m.status.Note("only a prompt can be edited: e on one of yours (r regenerates a reply)")
		case m.turns.Busy():
			m.status = m.status.Busy(busyNotice + ": esc cancels it first")
		case !ok:
			m.status = m.status.Note("this prompt is not saved on the branch")
		default:
			return m.leaveSelection().compose(m.comp.Edit(e, p.Num, m.writer))
		}
		return m, nil
	case selection.Regenerate:
		return m.regenerate(e)
	case selection.PrevSibling, selection.NextSibling:
		by := 1
		if action == selection.PrevSibling {
			by = -1
		}
		cmd, why := m.branches.Switch(m.writer, e.ID, by, m.branchRefused())
		if cmd == nil {
			m.status = refused(m.status, why, m.turns.Busy())
		}
		return m, cmd
	case selection.Fork:
		cmd, why := m.branches.Fork(m.opts.Store, m.sessID, e.ID, m.branchRefused())
		if cmd == nil {
			m.status = refused(m.status, why, m.turns.Busy())
		}
		return m, cmd
	case selection.Attach:
		sources := composer.OfEntry(m.writer, e)
		if len(sources) == 0 {
			m.status = m.status.Note("this message has no image or attachment to attach")
			return m, nil
		}
		return m.leaveSelection().compose(m.comp.Attach(sources, ""))
	case selection.Scroll:
		var cmd tea.Cmd
		m.conv, cmd = m.conv.Update(msg)
		return m, cmd
	}
	return m, nil
}
