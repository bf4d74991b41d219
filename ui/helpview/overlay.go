package helpview

import (
	"fmt"
	"strings"

	"muse/ui/notices"
	"muse/ui/slash"
	"muse/ui/textfmt"
)

// MouseHelp says how to select text with the mouse while muse captures
// it.
const MouseHelp = "mouse: the wheel scrolls; shift+drag selects text to copy while muse has the mouse (--no-mouse or mouse = false in the profile leaves the mouse to the terminal)"

// View is the open overlay, with the notices n first, scrolled to its
// line when it does not fit; "" when it is closed.
func (m Model) View(n notices.Model) string {
	if !m.open {
		return ""
	}
	lines := m.Lines(n)
	room := m.room()
	if len(lines) <= room {
		return strings.Join(lines, "\n")
	}
	top := m.clamp(len(lines))
	shown := append([]string{}, lines[top:top+room-1]...)
	footer := fmt.Sprintf("↑↓ pgup/pgdn scroll · %d–%d of %d · esc closes", top+1, top+room-1, len(lines))
	if textfmt.Width(footer) > m.width-1 {
		footer = fmt.Sprintf("↑↓ %d–%d/%d · esc", top+1, top+room-1, len(lines))
	}
	shown = append(shown, m.st.Muted.Render(textfmt.TruncateWidth(footer, max(m.width-1, 1))))
	return strings.Join(shown, "\n")
}

// Lines are the lines of the overlay: every key and every command,
// wrapped to the width, never cut.
func (m Model) Lines(n notices.Model) []string {
	st := m.st
	width := max(m.width-1, 10)
	var keys []string
	for _, group := range m.full {
		for _, b := range group {
			if b.Enabled() {
				keys = append(keys, fmt.Sprintf("%-18s  %s", b.Help().Key, b.Help().Desc))
			}
		}
	}
	lines := twoColumns(keys, width)
	if lines == nil { // one key a line, wrapped
		for _, l := range keys {
			if m.width < 60 {
				k, d, _ := strings.Cut(l, "  ")
				l = fmt.Sprintf("%-13s  %s", strings.TrimSpace(k), strings.TrimSpace(d))
			}
			lines = append(lines, strings.Split(textfmt.WrapHanging(l, width), "\n")...)
		}
	}
	for i, l := range lines {
		lines[i] = st.Subtle.Render(l)
	}
	if v := n.SetSize(width).View(); v != "" { // first, whole: the status line cuts them
		var head []string
		for _, l := range strings.Split(v, "\n") {
			head = append(head, st.Warning.Render(l))
		}
		lines = append(append(head, ""), lines...)
	}
	lines = append(lines, "")
	for _, l := range strings.Split(textfmt.Wrap(MouseHelp, width), "\n") {
		lines = append(lines, st.Subtle.Render(l))
	}
	lines = append(lines, "")
	for _, l := range slash.HelpLines() {
		if m.width < 60 { // the usage on a line, the help under it
			usage, help, _ := strings.Cut(l, "  ")
			l = usage + "\n" + textfmt.Wrap(strings.TrimSpace(help), width-2)
			l = strings.ReplaceAll(l, "\n", "\n  ")
		}
		for _, w := range strings.Split(textfmt.WrapHanging(l, width), "\n") {
			lines = append(lines, st.Subtle.Render(w))
		}
	}
	return append(lines, st.Muted.Render("esc or ? closes this help"))
}

// twoColumns sets lines side by side, the first half on the left, when
// both fit in width; nil when they do not.
func twoColumns(lines []string, width int) []string {
	half := (len(lines) + 1) / 2
	left := 0
	for _, l := range lines[:half] {
		left = max(left, textfmt.Width(l))
	}
	out := make([]string, half)
	for i := range half {
		out[i] = lines[i]
		if j := half + i; j < len(lines) {
			out[i] += strings.Repeat(" ", left-textfmt.Width(lines[i])+3) + lines[j]
		}
		if textfmt.Width(out[i]) > width {
			return nil
		}
	}
	return out
}
