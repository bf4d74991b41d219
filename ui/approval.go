package ui

import (
	"slices"

	"muse/ui/approval"
	"muse/ui/engine"
	"muse/ui/textfmt"
)

// The approval box is a child (ui/approval); the root opens it on a tool
// call that waits, gives it the room the screen leaves, and routes its
// keys (see decideCall); the tool call it shows is the turn's (ui/turns).

// toolCommand is the command of the tool name among tools, nil for a tool
// without one.
func toolCommand(tools []engine.Tool, name string) []string {
	i := slices.IndexFunc(tools, func(t engine.Tool) bool { return t.Def.Name == name })
	if i < 0 {
		return nil
	}
	return tools[i].Command
}

// approvalBox is the box as the screen now sizes it; closed unless a tool
// call waits. Its body shows what the screen leaves once a line of
// conversation, the input, the bars and the box's border, title and keys
// are drawn, and half the screen at most; none on a screen so small that
// the title and the keys share a line.
func (m Model) approvalBox() approval.Model {
	if m.turns.Ask() == nil {
		return m.approve.Close()
	}
	frame := m.approve.Frame()
	room := m.size.Height - 1 /* header */ - 1 /* conversation */ - m.comp.Height() - 1 /* rule */ - 1 /* status */ - textfmt.Height(m.helpView()) - frame -
		m.status.NoticeHeight(m.statusState())
	return m.approve.SetSize(m.size.Width, max(min(room, max(m.size.Height/2-frame, 3)), 0))
}

// setApproveAll sets the session's approval mode and says so.
func (m Model) setApproveAll(all bool) Model {
	m.approve = m.approve.SetAll(all)
	m.status = m.status.Note(m.approve.ModeNotice())
	return m.layout()
}
