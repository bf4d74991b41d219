package approval

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Answer is what a key asks while a tool call waits, which the root
// carries out on the turn and the input.
type Answer int

// The answers of Key.
const (
	// Waits: the key is taken, and nothing is done: the call waits.
	Waits Answer = iota
	// Scrolled: the box's body scrolled.
	Scrolled
	// Refused: the key came with other text (a paste, keys right behind
	// a yes, a word after a space), and is no answer.
	Refused
	// Typed: the key types the result, or the reason of a no, in the
	// input.
	Typed
	// NotMine: an enter right behind pasted text, while a result is
	// typed: it is handled as a prompt's, and sends once no key follows.
	NotMine
	// Yes runs the call once the yes has settled; Always runs it and the
	// tool's later calls this session.
	Yes
	Always
	// No asks for the reason of a no, typed in the input.
	No
	// Result sends the text typed as the result (or as the reason of a
	// no).
	Result
	// Cancel declines without a reason.
	Cancel
	// All switches the session to approve all, this call first.
	All
)

// Context is what the root knows of the turn and the input when a key
// comes.
type Context struct {
	// Typing: the input takes a result, or the reason of a no.
	Typing bool
	// Settling: a yes waits, and a key behind it means it came with other
	// text.
	Settling bool
	// AfterPaste and AfterSpace: the key came in one read with pasted
	// text, or right behind a space.
	AfterPaste, AfterSpace bool
}

// Key says what k asks while the call the box shows waits, given c:
// y, n or a for a command's approval; enter or esc for a typed result.
// A key right behind a paste or a space is never an answer: a paste can
// hold a false end of paste (ESC [201~) and then "y", and Bubble Tea
// splits a paste without bracketed paste at spaces ("take a look" is
// "take", " ", "a", …). A key that scrolls the body scrolls it, in the
// box returned.
func (m Model) Key(k tea.KeyMsg, c Context) (Model, Answer) {
	answers := k.String() == "y" || k.String() == "a"
	if c.Typing {
		answers = key.Matches(k, m.keys.Send)
	}
	if box, ok := m.Update(k); ok && !c.Settling {
		return box, Scrolled
	}
	switch {
	case c.Settling:
		return m, Refused
	case answers && c.Typing && c.AfterPaste:
		// "forty two" and enter, typed fast, come in one read.
		return m, NotMine
	case answers && (c.AfterPaste || c.AfterSpace && !c.Typing):
		return m, Refused
	case c.Typing && key.Matches(k, m.keys.Send):
		return m, Result
	case c.Typing && key.Matches(k, m.keys.Cancel):
		return m, Cancel
	case c.Typing:
		return m, Typed
	case k.String() == "y":
		return m, Yes
	case k.String() == "a":
		return m, Always
	case k.String() == "n":
		return m, No
	case key.Matches(k, m.keys.Cancel):
		return m, Cancel
	case key.Matches(k, m.keys.Mode):
		return m, All
	}
	return m, Waits
}
