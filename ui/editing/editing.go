// Package editing is the chat screen's edit of a prompt already sent: the
// prompt's id and its number on the branch, the draft (and its
// attachments) the input held before, put aside until the edit is sent or
// left, and the line above the input that says a prompt is being edited.
// It is a child of the chat screen; it does no I/O.
package editing

import (
	"fmt"

	"muse/session"
	"muse/theme"
	"muse/ui/input"
	"muse/ui/pending"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// Model is the prompt being edited, while one is.
type Model struct {
	id    string
	num   int
	draft string
	// pending are the draft's attachments, put aside while the edited
	// prompt's own wait above the input.
	pending []session.File
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

// Placeholder is what the input says while an edited prompt is empty.
const Placeholder = "the new text of the prompt · enter sends it as a new branch · esc cancels"

// Begin edits the prompt e, number num on the branch: the draft in the
// input and the files waiting above it are put aside (an edit under way
// keeps the draft it put aside already), the input takes the prompt's
// text, and no file waits.
func (m Model) Begin(e session.Entry, num int, in input.Model, files pending.Model) (Model, input.Model, pending.Model) {
	draft, kept := in.Value(), files.Files()
	if m.Active() {
		draft, kept = m.draft, m.pending
	}
	m.id, m.num, m.draft, m.pending = e.ID, num, draft, kept
	// The session's text, which the input draws raw.
	in = in.Reset().SetValue(sanitize.Plain(e.Text)).SetPlaceholder(Placeholder).EndRecall()
	return m, in, files.Set(nil)
}

// Leave ends the edit, if one is under way: the draft and its files come
// back into the input and above it.
func (m Model) Leave(in input.Model, files pending.Model) (Model, input.Model, pending.Model) {
	if !m.Active() {
		return m, in, files
	}
	in = in.Reset().SetValue(m.draft).SetPlaceholder(input.Placeholder)
	return Model{st: m.st, width: m.width}, in, files.Set(m.pending)
}

// Active reports whether a prompt is being edited.
func (m Model) Active() bool { return m.id != "" }

// ID is the id of the prompt edited.
func (m Model) ID() string { return m.id }

// Num is the prompt's number on the branch.
func (m Model) Num() int { return m.num }

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
