// Package editing is the chat screen's edit of a prompt already sent: the
// prompt's id and its number on the branch, the draft (and its
// attachments) the input held before, put aside until the edit is sent or
// left, and the line above the input that says a prompt is being edited.
// It is a child of the chat screen; it does no I/O.
package editing

import (
	"fmt"

	"muse/theme"
	"muse/ui/attach"
	"muse/ui/textfmt"
)

// Model is the prompt being edited, while one is.
type Model struct {
	id    string
	num   int
	draft string
	// pending are the draft's attachments, put aside while the edited
	// prompt's own wait above the input.
	pending []attach.File
	st      *theme.Styles
	width   int
}

// New returns no edit, drawn in st.
func New(st *theme.Styles) Model { return Model{st: st} }

// SetStyles draws the line in st from the next frame.
func (m Model) SetStyles(st *theme.Styles) Model {
	m.st = st
	return m
}

// SetSize gives the width of the line.
func (m Model) SetSize(width int) Model {
	m.width = width
	return m
}

// Start edits the prompt id, number num on the branch, putting aside the
// draft the input held and its attachments.
func (m Model) Start(id string, num int, draft string, pending []attach.File) Model {
	m.id, m.num, m.draft, m.pending = id, num, draft, pending
	return m
}

// Stop ends the edit.
func (m Model) Stop() Model { return Model{st: m.st, width: m.width} }

// Active reports whether a prompt is being edited.
func (m Model) Active() bool { return m.id != "" }

// ID is the id of the prompt edited.
func (m Model) ID() string { return m.id }

// Num is the prompt's number on the branch.
func (m Model) Num() int { return m.num }

// Draft is what the input held before the edit, and its attachments.
func (m Model) Draft() (string, []attach.File) { return m.draft, m.pending }

// View is the line above the input while a prompt is edited; "" when none
// is.
func (m Model) View() string {
	if !m.Active() || m.width <= 0 {
		return ""
	}
	text := fmt.Sprintf("editing message %d · enter sends it as a new branch · esc cancels", m.num)
	return m.st.Accent.Render(textfmt.TruncateWidth(text, m.width))
}

// Height is how many rows the line takes.
func (m Model) Height() int {
	if m.Active() {
		return 1
	}
	return 0
}
