package composer

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"muse/ui/input"
	"muse/ui/queue"
)

// KeyMap is the composer's keys: those the input handles itself, and the
// composer's own.
type KeyMap struct {
	input.KeyMap
	// PasteImage attaches the image on the system clipboard (ctrl+v).
	PasteImage key.Binding
	// Unqueue, on an empty input, brings the last queued prompt back (↑).
	Unqueue key.Binding
}

// ownKey is one of the composer's own keys.
type ownKey int

const (
	notOwn     ownKey = iota
	pasteImage        // attach the clipboard's image
	detachLast        // backspace on an empty input: the last file waiting goes
	unqueue           // ↑ on an empty input: the last queued prompt comes back
	inputKey          // Tab completion, ↑ and ↓ through the prompts
)

// own says which of the composer's own keys k is, as the composer stands.
func (m Model) own(k tea.KeyMsg) ownKey {
	empty := m.input.Value() == ""
	switch {
	case key.Matches(k, m.keys.PasteImage):
		return pasteImage
	case k.Type == tea.KeyBackspace && empty && m.pending.Len() > 0:
		return detachLast
	case empty && m.queue.Len() > 0 && key.Matches(k, m.keys.Unqueue):
		return unqueue
	case m.input.Owns(k):
		return inputKey
	}
	return notOwn
}

// Owns reports whether k is one of the composer's own keys as it stands:
// the clipboard's image; backspace on an empty input with files waiting;
// ↑ on an empty input with prompts queued; the input's completion and
// prompt recall. Other keys type in the input (see Update) once the
// screen's own keys had their turn.
func (m Model) Owns(k tea.KeyMsg) bool { return m.own(k) != notOwn }

// Key carries out k, one of the composer's own keys (see Owns); busy says
// a turn is in flight, and w keeps the queue.
func (m Model) Key(k tea.KeyMsg, busy bool, w queue.Saver) (Model, Out) {
	switch m.own(k) {
	case pasteImage:
		return m.Attach(Clipboard, "")
	case detachLast:
		return m.Detach(m.pending.Len())
	case unqueue:
		return m.Unqueue(busy, w)
	}
	var out Out
	m, out.Cmd = m.Update(k)
	return m, out
}
