// Package helpview draws the chat screen's key help: the short line of
// keys under the status line, and the ? overlay, which lists every key
// and command, the last notices whole, and scrolls when it does not fit.
// It is a child of the chat screen: it takes its scroll keys and the
// window's size, and does no I/O.
package helpview

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"muse/theme"
	"muse/ui/keyline"
	"muse/ui/notices"
)

// KeyMap are the keys that scroll the overlay, besides ↑ and ↓.
type KeyMap struct {
	PageUp, PageDown, HalfUp, HalfDown, Top, Bottom key.Binding
}

// Model is the key help: closed, or the overlay scrolled to a line.
type Model struct {
	help          help.Model
	st            *theme.Styles
	keys          KeyMap
	full          [][]key.Binding
	open          bool
	top           int // the first line of the overlay shown
	width, height int
}

// New returns the help, closed, styled by st; full are the groups of keys
// the overlay lists.
func New(st *theme.Styles, keys KeyMap, full [][]key.Binding) Model {
	return Model{help: help.New(), keys: keys, full: full}.SetStyles(st)
}

// SetStyles draws the help in st from the next frame.
func (m Model) SetStyles(st *theme.Styles) Model {
	m.st = st
	m.help.Styles.ShortKey, m.help.Styles.FullKey = st.Muted, st.Muted
	m.help.Styles.ShortDesc, m.help.Styles.FullDesc = st.Subtle, st.Subtle
	m.help.Styles.ShortSeparator, m.help.Styles.FullSeparator = st.Subtle, st.Subtle
	return m
}

// SetSize gives the window's size: the overlay leaves two lines of
// conversation, the header, the input and the status line.
func (m Model) SetSize(width, height int) Model {
	m.width, m.height = width, height
	m.help.Width = width
	return m
}

// Open reports whether the overlay is open.
func (m Model) Open() bool { return m.open }

// Toggle opens the overlay at its top, or closes it.
func (m Model) Toggle() Model {
	m.open, m.top = !m.open, 0
	return m
}

// Close closes the overlay.
func (m Model) Close() Model {
	m.open = false
	return m
}

// Top is the first line of the overlay shown, for memoizing its view.
func (m Model) Top() int { return m.top }

// Update scrolls the open overlay by the key k; it reports whether k
// scrolls it. n are the notices it lists.
func (m Model) Update(k tea.KeyMsg, n notices.Model) (Model, bool) {
	if !m.open {
		return m, false
	}
	page := max(m.room()-2, 1)
	step := 0
	switch {
	case key.Matches(k, m.keys.PageUp, m.keys.HalfUp):
		step = -page
	case key.Matches(k, m.keys.PageDown, m.keys.HalfDown):
		step = page
	case k.Type == tea.KeyUp:
		step = -1
	case k.Type == tea.KeyDown:
		step = 1
	case key.Matches(k, m.keys.Top):
		step = -len(m.Lines(n))
	case key.Matches(k, m.keys.Bottom):
		step = len(m.Lines(n))
	default:
		return m, false
	}
	m.top = m.clamp(len(m.Lines(n))) + step
	m.top = m.clamp(len(m.Lines(n)))
	return m, true
}

// Short is the one line of help of keys.
func (m Model) Short(keys []key.Binding) string { return m.help.ShortHelpView(keys) }

// Fit is the line of keys in the width: narrow, keys drop from the
// middle, and the last ("? help") stays.
func (m Model) Fit(keys []key.Binding) string {
	return m.help.ShortHelpView(keyline.Fit(m.help, keys, m.width))
}

// room is how many lines the overlay takes at most.
func (m Model) room() int { return max(m.height-1-1-1-1-2, 2) }

// clamp is the first line of the overlay shown, of n.
func (m Model) clamp(n int) int {
	return min(max(m.top, 0), max(n-(m.room()-1), 0))
}
