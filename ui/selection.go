package ui

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

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
		return m.startEdit(e)
	case selection.Regenerate:
		return m.regenerate(e)
	case selection.PrevSibling, selection.NextSibling:
		by := 1
		if action == selection.PrevSibling {
			by = -1
		}
		cmd, why := m.branches.Switch(m.writer, e.ID, by, m.branchRefused())
		if cmd == nil {
			m.status = m.status.Note(why)
		}
		return m, cmd
	case selection.Fork:
		cmd, why := m.branches.Fork(m.opts.Store, m.sessID, e.ID, m.branchRefused())
		if cmd == nil {
			m.status = m.status.Note(why)
		}
		return m, cmd
	case selection.Attach:
		return m.attachSelected(e)
	case selection.Scroll:
		var cmd tea.Cmd
		m.conv, cmd = m.conv.Update(msg)
		return m, cmd
	}
	return m, nil
}
