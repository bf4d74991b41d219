// Package notices keeps the last notices of the chat screen's status
// line, for reading whole: the status line cuts a long one with "…" to
// its room, and ? and /info show these in full. It is a child of the
// chat screen: it takes the notices as they change and draws them
// wrapped to its width, and does no I/O.
package notices

import (
	"strings"

	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// Keep is how many notices are kept, the newest last.
const Keep = 8

// Model is the notices kept.
type Model struct {
	list  []string
	width int
}

// New returns an empty list.
func New() Model { return Model{} }

// SetSize gives the width the notices are wrapped to.
func (m Model) SetSize(width int) Model {
	m.width = width
	return m
}

// Update takes the status line's notice as it is now: a new one, not
// the one kept last, is kept; "" keeps nothing.
func (m Model) Update(notice string) Model {
	if m.Holds(notice) {
		return m
	}
	list := append(append(make([]string, 0, Keep), m.list[max(len(m.list)-Keep+1, 0):]...), notice)
	m.list = list
	return m
}

// Holds reports whether Update(notice) would keep nothing new: notice is
// "" or the one kept last.
func (m Model) Holds(notice string) bool {
	return notice == "" || len(m.list) > 0 && m.list[len(m.list)-1] == notice
}

// Len is how many notices are kept.
func (m Model) Len() int { return len(m.list) }

// Lines are the notices, newest first, each whole, sanitized and wrapped
// to the width (indented under a "· "); nil when there are none.
func (m Model) Lines() []string {
	var out []string
	width := max(m.width-2, 10)
	for i := len(m.list) - 1; i >= 0; i-- {
		for j, l := range strings.Split(textfmt.Wrap(sanitize.Line(m.list[i]), width), "\n") {
			if j == 0 {
				out = append(out, "· "+l)
			} else {
				out = append(out, "  "+l)
			}
		}
	}
	return out
}

// View is the notices under a heading, for /info; "" when there are none.
func (m Model) View() string {
	if len(m.list) == 0 {
		return ""
	}
	return "last notices, newest first:\n" + strings.Join(m.Lines(), "\n")
}

// Msg is a notice sent by a command for the status line, such as why the
// prompt history could not be written or which session a fork made: the
// one message of a notice, whichever component sends it.
type Msg struct{ Text string }
