// Package menu is the small menu that opens under the chat screen's input
// while a /command or an @file is typed: a list of items filtered by what
// is typed, one of them marked, that ↑ and ↓ move through. It only keeps
// and draws the list: the input decides what it holds (see ui/input's
// menu.go), and what taking an item does.
//
// Like the input, it is a child component: Update moves the mark, SetSize
// fits it, View draws it, KeyMap names its keys.
package menu

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// Item is a line of the menu.
type Item struct {
	// Label is what the menu shows, such as "/model NAME" or a file's
	// path; Detail is shown beside it, dimmer (a command's help).
	Label, Detail string
	// Value is what taking the item puts in the input.
	Value string
}

// KeyMap is the menu's keys: Up and Down move the mark, Take puts the
// marked item in the input, Close closes the menu.
type KeyMap struct {
	Up, Down, Take, Close key.Binding
}

// DefaultKeyMap is ↑ ↓ to move, tab or enter to take, esc to close.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:    key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑↓", "move")),
		Down:  key.NewBinding(key.WithKeys("down", "ctrl+n")),
		Take:  key.NewBinding(key.WithKeys("tab", "enter"), key.WithHelp("tab/enter", "take")),
		Close: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
	}
}

// Model is the menu.
type Model struct {
	keys   KeyMap
	items  []Item
	note   string // a line under the items, such as "listing files…"
	total  int    // the items that match, those listed and the rest (see Matched)
	sel    int    // the marked item
	top    int    // the first item shown
	width  int
	height int // the most items shown
}

// New returns an empty menu with keys.
func New(keys KeyMap) Model { return Model{keys: keys, width: 80, height: 6} }

// Keys is the menu's KeyMap.
func (m Model) Keys() KeyMap { return m.keys }

// SetSize fits the menu to width columns, showing at most height items.
func (m Model) SetSize(width, height int) Model {
	m.width, m.height = max(width, 1), max(height, 1)
	return m.scroll()
}

// SetItems replaces the items, and the note under them. The mark stays on
// the item of the same value, if it is still there, else goes to the first.
// The items are all that match until Matched says otherwise.
func (m Model) SetItems(items []Item, note string) Model {
	marked := ""
	if m.sel < len(m.items) {
		marked = m.items[m.sel].Value
	}
	m.items, m.note, m.sel, m.total = items, note, 0, len(items)
	for i, it := range items {
		if it.Value == marked {
			m.sel = i
			break
		}
	}
	return m.scroll()
}

// Matched says that n things match in all, of which the items listed are
// the first: when n is more than them, the line under them counts both,
// "3 of 50 shown · 312 match", and asks for more to be typed, rather than
// count the items shown as all there are. An n under the items listed
// counts nothing: the items are all there are.
func (m Model) Matched(n int) Model {
	m.total = max(n, len(m.items))
	return m
}

// Open reports whether the menu shows anything.
func (m Model) Open() bool { return len(m.items) > 0 || m.note != "" }

// Selected is the marked item; ok is false when there are none.
func (m Model) Selected() (Item, bool) {
	if m.sel >= len(m.items) {
		return Item{}, false
	}
	return m.items[m.sel], true
}

// Update moves the mark for Up and Down, round the ends.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok || len(m.items) == 0 {
		return m, nil
	}
	switch {
	case key.Matches(k, m.keys.Up):
		m.sel = (m.sel - 1 + len(m.items)) % len(m.items)
	case key.Matches(k, m.keys.Down):
		m.sel = (m.sel + 1) % len(m.items)
	}
	return m.scroll(), nil
}

// scroll keeps the marked item in view.
func (m Model) scroll() Model {
	if m.sel < m.top {
		m.top = m.sel
	}
	if m.sel >= m.top+m.height {
		m.top = m.sel - m.height + 1
	}
	m.top = max(min(m.top, len(m.items)-m.height), 0)
	return m
}

// Lines draws the menu, a line an item (the marked one with "▸"), then
// the note or, when items are out of view or more match than are listed,
// where the view is ("3 of 12", or "3 of 50 shown · 312 match, type to
// narrow" when more match than are listed); each line fits the width. Labels and details are sanitized: file names are
// untrusted text.
func (m Model) Lines() []string {
	var lines []string
	end := min(m.top+m.height, len(m.items))
	labelW := 0
	for _, it := range m.items[m.top:end] {
		labelW = max(labelW, textfmt.Width(sanitize.Line(it.Label)))
	}
	labelW = min(labelW, m.width*2/3)
	for i := m.top; i < end; i++ {
		it := m.items[i]
		mark := "  "
		if i == m.sel {
			mark = "▸ "
		}
		label := textfmt.TruncateWidth(sanitize.Line(it.Label), labelW)
		line := mark + label
		if it.Detail != "" {
			line += strings.Repeat(" ", labelW-textfmt.Width(label)) + "  " + sanitize.Line(it.Detail)
		}
		lines = append(lines, textfmt.TruncateWidth(line, m.width))
	}
	foot := m.note
	more := m.total > len(m.items)
	if len(m.items) > m.height || more {
		where := strconv.Itoa(m.sel+1) + " of " + strconv.Itoa(len(m.items))
		if more {
			where += " shown · " + strconv.Itoa(m.total) + " match, type to narrow"
		}
		if foot != "" {
			foot = where + " · " + foot
		} else {
			foot = where
		}
	}
	if foot != "" {
		keys := " · ↑↓ tab esc"
		if len(m.items) == 0 {
			keys = " · esc" // nothing to move through or take
		}
		lines = append(lines, textfmt.TruncateWidth("  "+foot+keys, m.width))
	}
	return lines
}

// View draws the menu (see Lines).
func (m Model) View() string { return strings.Join(m.Lines(), "\n") }
