// Package composer is where the chat screen's next prompt is made: the
// input (ui/input), the files waiting above it (ui/pending), the prompts
// queued behind the turn in flight (ui/queue) and the prompt being edited
// (ui/editing). It is a child of the chat screen, with Update, View,
// SetSize and a KeyMap, and it owns how these four change together: a
// prompt sent takes the files waiting, a queued prompt brought back puts
// its files back, an edit puts the draft aside.
//
// It sends nothing itself. Its actions return what they ask of the root
// (Out): a notice for the status line, a command, and the Prompt to send,
// which the root turns into a turn, or queues while one is in flight, and
// then tells the composer how it went (Sent). Reading a file to attach is
// I/O: it runs in a command, whose AttachedMsg the root hands back to
// Attached. Update never does I/O.
package composer

import (
	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/session/prompts"
	"muse/theme"
	"muse/ui/editing"
	"muse/ui/input"
	"muse/ui/pending"
	"muse/ui/queue"
	"muse/ui/textfmt"
)

// Model is the composer. It is a value, as its four parts are: a copy is
// a copy (the memo of the edit line is derived, and shared).
type Model struct {
	input   input.Model
	pending pending.Model
	queue   queue.Model
	edit    editing.Model
	keys    *KeyMap // shared by the copies: never changed after New
	// memo is the edit line's view, width the window's.
	memo  *textfmt.Memo
	width int
}

// New returns an empty composer drawn in th, with files waiting (those of
// --attach) and history as the prompts ↑ recalls.
func New(th *theme.Theme, keys KeyMap, history *prompts.History, files []session.File) Model {
	return Model{
		input:   input.New(th, keys.KeyMap, history),
		pending: pending.New(&th.Styles, files),
		queue:   queue.New(&th.Styles),
		edit:    editing.New(&th.Styles),
		keys:    &keys,
		memo:    &textfmt.Memo{},
	}
}

// Input is the input, to read; SetInput changes it.
func (m Model) Input() input.Model { return m.input }

// SetInput puts in in place of the input: the root's own changes, as a
// tool call's placeholder or a failed prompt put back.
func (m Model) SetInput(in input.Model) Model {
	m.input = in
	return m
}

// Pending are the files waiting above the input, to read.
func (m Model) Pending() pending.Model { return m.pending }

// Queue is the prompts queued, to read.
func (m Model) Queue() queue.Model { return m.queue }

// Editing is the prompt being edited, to read.
func (m Model) Editing() editing.Model { return m.edit }

// SetStyles draws the composer in th from the next frame.
func (m Model) SetStyles(th *theme.Theme) Model {
	m.input = m.input.SetTheme(th)
	m.queue, m.pending, m.edit = m.queue.SetStyles(&th.Styles), m.pending.SetStyles(&th.Styles), m.edit.SetStyles(&th.Styles)
	m.memo = &textfmt.Memo{}
	return m
}

// SetSize fits the composer to a window width columns wide and height
// rows high, the input told what the screen is doing.
func (m Model) SetSize(width, height int, s input.State) Model {
	m.input = m.input.SetState(s).SetSize(width, height)
	m.queue = m.queue.SetSize(width, height)
	m.pending, m.edit = m.pending.SetSize(width), m.edit.SetSize(width)
	m.width = width
	return m
}

// Height is how many rows the composer takes, the input's border aside.
func (m Model) Height() int {
	return m.edit.Height() + m.pending.Height() + m.queue.Height() + m.input.Height()
}

// Update passes msg to the input: a prompt typed again attaches its
// @mentions again.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	before := m.input.Value()
	m.input, cmd = m.input.Update(msg)
	if m.input.Value() != before {
		m.pending = m.pending.Retyped()
	}
	return m, cmd
}

// View appends the composer's parts to parts, top down: the edit line,
// the files waiting, the queue and the input, which is told s; a part
// that shows nothing is left out.
func (m Model) View(parts []string, s input.State) []string {
	if m.edit.Active() {
		parts = append(parts, m.memo.Get(textfmt.Key(m.width, m.edit.Num()), m.edit.View))
	}
	for _, v := range []string{m.pending.View(), m.queue.View()} {
		if v != "" {
			parts = append(parts, v)
		}
	}
	return append(parts, m.input.SetState(s).View())
}

// SetPending puts files in place of the files waiting.
func (m Model) SetPending(files pending.Model) Model {
	m.pending = files
	return m
}

// SetQueue puts q in place of the queue.
func (m Model) SetQueue(q queue.Model) Model {
	m.queue = q
	return m
}
