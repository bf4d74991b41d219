package ui

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/ui/branches"
	"muse/ui/engine"
)

// Branches on the chat screen: where the entries shown stand in the
// session's shape is the child m.branches (ui/branches). In selection
// mode, e edits a prompt (the edited text is sent as a new branch beside
// it), r regenerates a reply as a sibling, [ and ] switch to the previous
// or next sibling, and f forks the session at the message selected. Every
// write runs in a command.

// noteWritten notes the entry e, written, in the session's shape.
func (m Model) noteWritten(e session.Entry) Model {
	m.branches = m.branches.Note(e, m.conv.Entries())
	return m
}

// refreshBranches shows where the entries shown stand in the session's
// shape; live is the reply that just started, not written yet. The entry
// of the image turn in flight, which the engine wrote before reporting it,
// is noted.
func (m Model) refreshBranches(live ...session.Entry) Model {
	if j := m.turns.Image(); j != nil && j.Entry != nil && !m.branches.Has(j.Entry.ID) {
		m = m.noteWritten(*j.Entry)
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
	case m.busy():
		return busyNotice + ": esc cancels it first"
	case m.edit.Active():
		return "a prompt is being edited: enter sends it, esc leaves it first"
	}
	return ""
}

// startEdit puts the prompt e in the input to be edited, keeping the draft
// the input held.
func (m Model) startEdit(e session.Entry) (tea.Model, tea.Cmd) {
	if e.Kind != session.KindUser {
		m.status = m.status.Note("only a prompt can be edited: e on one of yours (r regenerates a reply)")
		return m, nil
	}
	if m.busy() {
		m.status = m.status.Note(busyNotice + ": esc cancels it first")
		return m, nil
	}
	p, ok := m.branches.At(e.ID)
	if !ok {
		m.status = m.status.Note("this prompt is not saved on the branch")
		return m, nil
	}
	m = m.leaveSelection()
	// The prompt's files wait above the input as chips, by their own
	// names, to be sent with the edit or removed.
	m.edit, m.input, m.pending = m.edit.Begin(e, p.Num, m.input, m.pending)
	if len(e.Attachments) == 0 {
		return m.layout(), nil
	}
	next, cmd := m.startAttach(storedSources(m.writer, e.Attachments), "", "")
	return next, forEdit(cmd, e.ID)
}

// forEdit makes the attachedMsg of cmd belong to the edit of the prompt
// id: it is dropped if that edit has ended when it arrives.
func forEdit(cmd tea.Cmd, id string) tea.Cmd {
	return func() tea.Msg {
		msg := cmd().(attachedMsg)
		msg.edit = id
		msg.note = "the prompt's files are above the input: sent with the edit · /detach removes"
		return msg
	}
}

// sendEdit sends text in place of the prompt being edited: a new branch
// beside it. The view drops the prompt and what followed it; they stay in
// the session.
func (m Model) sendEdit(text string) (tea.Model, tea.Cmd) {
	i := m.conv.Index(m.edit.ID())
	if i < 0 {
		m.status = m.status.Note("the prompt edited is not shown any more: esc cancels")
		return m, nil
	}
	cut := m
	cut.conv = cut.conv.Truncate(i)
	next, cmd := cut.startTurn(engine.Turn{Prompt: text, Edit: m.edit.ID(), Attachments: slices.Clone(m.pending.Files()), EditAttachments: true})
	if next.turns.Turn() == nil {
		m.status = m.status.Note(next.status.Notice()) // refused: the edit stays in the input
		return m, cmd
	}
	next.edit, next.input, next.pending = next.edit.Leave(next.input, next.pending)
	next.input = next.input.EndRecall()
	return next.layout(), tea.Batch(cmd, next.input.Remember(m.sessID, text))
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
		m.status = m.status.Note(why)
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
