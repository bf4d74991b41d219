package textfmt

import "github.com/charmbracelet/lipgloss"

// TruncateWidth cuts s, plain text, to width columns, ending it with "…"
// when cut.
func TruncateWidth(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if lipgloss.Width(s) <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && lipgloss.Width(string(r))+1 > width {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

// WrapWords joins words two spaces apart on lines of width, at most
// maxLines of them; when words are left over, the last line ends in "…".
func WrapWords(words []string, width, maxLines int) []string {
	var lines []string
	cur := ""
	for _, w := range words {
		next := w
		if cur != "" {
			next = cur + "  " + w
		}
		if lipgloss.Width(next) <= width {
			cur = next
			continue
		}
		if cur != "" {
			lines = append(lines, cur)
		}
		if len(lines) == maxLines {
			lines[maxLines-1] = TruncateWidth(lines[maxLines-1]+" …", width)
			return lines
		}
		cur = TruncateWidth(w, width)
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
