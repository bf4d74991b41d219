package queue

import (
	"fmt"
	"strings"

	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// MinHeight is the least screen height the queue shows on several lines
// at.
const MinHeight = 16

// maxShown is how many queued prompts the lines above the input show.
const maxShown = 3

// Height is how many rows the queue takes.
func (m Model) Height() int { return textfmt.Height(m.View()) }

// View shows the queued prompts, one a row, and the keys that act on
// them; "" when none waits.
func (m Model) View() string {
	if len(m.list) == 0 {
		return ""
	}
	st := m.st
	width := max(m.width-1, 10)
	if m.height < MinHeight { // a small screen: one line
		line, style := "queued › ", st.Accent
		if m.stopped {
			line, style = "queue stopped › ", st.Warning
		}
		line += strings.Join(strings.Fields(sanitize.Line(m.list[0].Text)), " ")
		if n := len(m.list); n > 1 {
			line = fmt.Sprintf("%s (+%d)", textfmt.TruncateWidth(line, width-5), n-1)
		}
		return style.Render(textfmt.TruncateWidth(line, width))
	}
	var lines []string
	for i, q := range m.list {
		if i == maxShown {
			lines = append(lines, st.Subtle.Render(textfmt.TruncateWidth(fmt.Sprintf("  … and %d more", len(m.list)-i), width)))
			break
		}
		text := "queued › " + strings.Join(strings.Fields(sanitize.Line(q.Text)), " ")
		if len(q.Files) > 0 {
			text += " + " + textfmt.Plural(len(q.Files), "file")
		}
		lines = append(lines, st.Accent.Render(textfmt.TruncateWidth(text, width)))
	}
	help, short, style := "sent when the reply ends · ↑ edits the last · esc cancels the reply and stops the queue",
		"sent after the reply · ↑ edits", st.Subtle
	if m.stopped {
		help, short, style = "queue stopped · enter on an empty input sends the next · ↑ edits the last",
			"stopped · enter sends next · ↑ edits", st.Warning
	}
	if textfmt.Width(help) > width {
		help = short
	}
	lines = append(lines, style.Render(textfmt.TruncateWidth(help, width)))
	return strings.Join(lines, "\n")
}
