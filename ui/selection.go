package ui

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
)

// selection is selection mode: a message of the conversation is chosen
// with the keys of SelectKeys, and actions work on it (m.selectedEntry()):
// copy it (y) or its code blocks (c), edit a prompt (e), regenerate a reply
// (r), switch to its previous or next sibling ([ and ]), fork the session
// at it (f). An action is one binding in SelectKeys and one case in
// selectKey.
type selection struct {
	active bool
	idx    int // the entry selected
	code   int // the code block c copies next
}

// startSelection enters selection mode on the last message.
func (m Model) startSelection() (tea.Model, tea.Cmd) {
	n := len(m.conv.Entries())
	if n == 0 {
		m.notice = "nothing to select yet"
		return m, nil
	}
	m.w = m.w.with(func(w *widgets) { w.help.ShowAll = false })
	m.sel = selection{active: true}
	return m.selectAt(n - 1), nil
}

// selectAt selects entry i and scrolls it into view.
func (m Model) selectAt(i int) Model {
	es := m.conv.Entries()
	i = min(max(i, 0), len(es)-1)
	m.sel.idx, m.sel.code = i, 0
	m.conv = m.conv.Select(es[i].ID).Reveal(i)
	m.notice = ""
	return m.layout()
}

// leaveSelection goes back to the input.
func (m Model) leaveSelection() Model {
	m.sel = selection{}
	m.conv = m.conv.Select("")
	m.notice = ""
	return m.layout()
}

// selectedEntry is the entry selected, if any.
func (m Model) selectedEntry() (session.Entry, bool) {
	es := m.conv.Entries()
	if !m.sel.active || m.sel.idx >= len(es) {
		return session.Entry{}, false
	}
	return es[m.sel.idx], true
}

// selectKey handles a key in selection mode. Keys it does not know do
// nothing: typing does not reach the input.
func (m Model) selectKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := m.keys.SelectKeys
	e, ok := m.selectedEntry()
	if !ok {
		return m.leaveSelection(), nil
	}
	switch {
	case key.Matches(msg, k.SelLeave, m.keys.Quit):
		return m.leaveSelection(), nil
	case key.Matches(msg, k.SelUp):
		return m.selectAt(m.sel.idx - 1), nil
	case key.Matches(msg, k.SelDown):
		return m.selectAt(m.sel.idx + 1), nil
	case key.Matches(msg, k.SelTop):
		return m.selectAt(0), nil
	case key.Matches(msg, k.SelBottom):
		return m.selectAt(len(m.conv.Entries()) - 1), nil
	case key.Matches(msg, k.SelCopy):
		text := entrySource(e)
		if text == "" {
			m.notice = "this message has no text to copy"
			return m, nil
		}
		return m, m.copyText(text, describe(e)+" as markdown")
	case key.Matches(msg, k.SelCode):
		blocks := codeBlocks(entrySource(e))
		if len(blocks) == 0 {
			m.notice = "this message has no code block"
			return m, nil
		}
		i := m.sel.code % len(blocks)
		m.sel.code = i + 1
		what := fmt.Sprintf("code block %d of %d", i+1, len(blocks))
		if len(blocks) > 1 {
			what += " · c copies the next"
		}
		return m, m.copyText(blocks[i].text, what)
	case key.Matches(msg, k.SelEdit):
		return m.startEdit(e)
	case key.Matches(msg, k.SelRegenerate):
		return m.regenerate(e)
	case key.Matches(msg, k.SelPrevSibling):
		return m.switchSibling(e, -1)
	case key.Matches(msg, k.SelNextSibling):
		return m.switchSibling(e, 1)
	case key.Matches(msg, k.SelFork):
		return m.fork(e)
	case key.Matches(msg, k.SelAttach):
		return m.attachSelected(e)
	case key.Matches(msg, m.keys.PageUp, m.keys.PageDown, m.keys.HalfUp, m.keys.HalfDown):
		var cmd tea.Cmd
		m.conv, cmd = m.conv.Update(msg)
		return m, cmd
	}
	return m, nil
}
