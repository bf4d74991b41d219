package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/ui/branches"
	"muse/ui/engine"
	"muse/ui/status"
)

// Branches on the chat screen: where the entries shown stand in the
// session's shape is the child m.branches (ui/branches). In selection
// mode, e edits a prompt (the edited text is sent as a new branch beside
// it), r regenerates a reply as a sibling, [ and ] switch to the previous
// or next sibling, and f forks the session at the message selected. Every
// write runs in a command.

// refreshBranches shows where the entries shown stand in the session's
// shape; live is the reply that just started, not written yet. The entry
// of the image turn in flight, which the engine wrote before reporting it,
// is noted.
func (m Model) refreshBranches(live ...session.Entry) Model {
	if j := m.turns.Image(); j != nil && j.Entry != nil && !m.branches.Has(j.Entry.ID) {
		m.branches = m.branches.Note(*j.Entry, m.conv.Entries())
	}
	m.branches = m.branches.Refresh(m.conv.Entries(), live...)
	m.conv = m.conv.SetBadges(m.branches.Badges())
	return m
}

// branchRefused says why an action that changes the branch shown (r, [, ],
// f) must wait, or "" when it need not: while a reply streams, or while a
// prompt is edited, which would leave the view.
func (m Model) branchRefused() string {
	switch {
	case m.turns.Busy():
		return busyNotice + ": esc cancels it first"
	case m.comp.Editing().Active():
		return "a prompt is being edited: enter sends it, esc leaves it first"
	}
	return ""
}

// refused notes why an action was refused: a refusal while a turn is in
// flight (busy) is taken away when the turn ends, as the action can go on.
func refused(s status.Model, why string, busy bool) status.Model {
	if busy {
		return s.Busy(why)
	}
	return s.Note(why)
}

// regenerate writes the reply e again, as a sibling: the view drops it and
// what followed, and streams the new reply. An image turn is drawn again,
// with its own prompt and settings.
func (m Model) regenerate(e session.Entry) (tea.Model, tea.Cmd) {
	if e.Kind != session.KindAssistant && e.Kind != session.KindImage {
		m.status = m.status.Note("only a reply or an image can be regenerated (e edits a prompt)")
		return m, nil
	}
	if why := m.branchRefused(); why != "" {
		m.status = refused(m.status, why, m.turns.Busy())
		return m, nil
	}
	i := m.conv.Index(e.ID)
	if i < 0 {
		return m, nil
	}
	if e.Kind == session.KindImage {
		ip := imageParams(m.params.Image, m.opts.ImageModel)
		if e.ImageParams != nil && e.ImageParams.Model != "" {
			ip = *e.ImageParams
		}
		next, cmd := m.leaveSelection().startImage(e.ImagePrompt, ip, &e)
		if n := next.(Model); n.turns.Image() == nil {
			m.status = m.status.Note(n.status.Notice()) // refused: the view stays as it was
			return m, cmd
		}
		return next, cmd
	}
	cut := m.leaveSelection()
	cut.conv = cut.conv.Truncate(i)
	next, cmd := cut.startTurn(engine.Turn{Regenerate: e.ID})
	if next.turns.Turn() == nil {
		m.status = m.status.Note(next.status.Notice())
		return m, cmd
	}
	return next, cmd
}

// switched shows the new active branch, the switched message selected.
func (m Model) switched(msg branches.SwitchedMsg) (Model, tea.Cmd) {
	if msg.W != m.writer {
		return m, nil
	}
	if msg.Err != nil {
		m.status = m.status.Unsaved(msg.Err.Error())
	}
	s := msg.S
	m.conv = m.conv.SetEntries(s.Entries)
	m.branches = branches.New(s)
	m = m.refreshBranches()
	_, m.lastStop = session.Branch(s.Entries).Usage() // the tokens spent stay as they are
	m.meter = m.meter.Measure(s.Entries, m.usage)
	i := m.conv.Index(msg.Sel)
	if i < 0 || !m.sel.Active() {
		m.sel = m.sel.Leave()
		if i >= 0 { // a search's hit, opened on its branch
			m.conv = m.conv.RevealID(msg.Sel)
			m.status = m.status.Note("switched to the branch of the hit")
		}
		return m.layout(), loadPreviews(m.conv.Entries(), m.previewer())
	}
	m = m.selectAt(i)
	m.status = m.status.Note("switched to branch " + m.branches.Of(msg.Sel))
	return m, loadPreviews(m.conv.Entries(), m.previewer())
}
