package input

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Keys the editor takes besides those of the KeyMap, which the chat screen
// leaves to it.
var (
	keyLeft      = key.NewBinding(key.WithKeys("left", "ctrl+b"))
	keyRight     = key.NewBinding(key.WithKeys("right", "ctrl+f"))
	keyUp        = key.NewBinding(key.WithKeys("up", "ctrl+p"))
	keyDown      = key.NewBinding(key.WithKeys("down", "ctrl+n"))
	keySelLeft   = key.NewBinding(key.WithKeys("shift+left"))
	keySelRight  = key.NewBinding(key.WithKeys("shift+right"))
	keySelStart  = key.NewBinding(key.WithKeys("shift+home"))
	keySelEnd    = key.NewBinding(key.WithKeys("shift+end"))
	keyBackspace = key.NewBinding(key.WithKeys("backspace", "ctrl+h"))
	keyDelete    = key.NewBinding(key.WithKeys("delete"))
	keyInputTop  = key.NewBinding(key.WithKeys("ctrl+home", "alt+<"))
	keyInputEnd  = key.NewBinding(key.WithKeys("ctrl+end", "alt+>"))
)

// edit applies the key k to the text: it types, moves, selects or
// deletes.
func (m *Model) edit(k tea.KeyMsg) {
	e, km := &m.ed, m.keys
	if k.Type == tea.KeyRunes && (k.Paste || !k.Alt) || k.Type == tea.KeySpace {
		e.insert(clean(string(k.Runes)))
		return
	}
	// A move with shift extends the selection; any other ends it.
	sel := key.Matches(k, keySelLeft, keySelRight, keySelStart, keySelEnd)
	moving := key.Matches(k, keyLeft, keyRight, keyUp, keyDown, km.LineStart, km.LineEnd, km.WordLeft, km.WordRight, keyInputTop, keyInputEnd)
	if sel || moving {
		e.mark(sel)
	}
	switch {
	case key.Matches(k, km.Newline):
		e.insert("\n")
	case key.Matches(k, keyLeft, keySelLeft):
		e.left()
	case key.Matches(k, keyRight, keySelRight):
		e.right()
	case key.Matches(k, keyUp):
		e.vertical(-1, m.textWidth())
	case key.Matches(k, keyDown):
		e.vertical(1, m.textWidth())
	case key.Matches(k, km.LineStart, keySelStart):
		e.col, e.goal = 0, -1
	case key.Matches(k, km.LineEnd, keySelEnd):
		e.col, e.goal = len(e.lines[e.row]), -1
	case key.Matches(k, km.WordLeft):
		e.wordLeft()
	case key.Matches(k, km.WordRight):
		e.wordRight()
	case key.Matches(k, keyInputTop):
		e.setCursor(pos{})
	case key.Matches(k, keyInputEnd):
		e.setCursor(pos{len(e.lines) - 1, len(e.lines[len(e.lines)-1])})
	case key.Matches(k, keyBackspace):
		e.backspace()
	case key.Matches(k, keyDelete, km.DeleteForward):
		e.deleteForward()
	case key.Matches(k, km.DeleteWord):
		e.deleteWord()
	case key.Matches(k, km.DeleteToEnd):
		e.deleteToEnd()
	case key.Matches(k, km.DeleteToStart):
		e.deleteToStart()
	}
}

// clean makes typed or pasted text fit to edit: CRLF and CR line ends
// become line breaks, a tab four spaces, and other control characters are
// dropped (they would move the terminal's cursor when drawn).
func clean(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return r < 0x20 && r != '\n' || r == 0x7f }) < 0 {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.ReplaceAll(s, "\t", "    ")
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' || r == 0x7f {
			return -1
		}
		return r
	}, s)
}
