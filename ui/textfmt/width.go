package textfmt

import (
	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"
)

// Width is how many columns s takes on the screen, escape sequences aside:
// the one measure muse draws with. It counts by grapheme cluster, as the
// terminals muse is tested in (and x/vt, the tests' emulator) draw: 👍🏽,
// 🇫🇷 and 👨‍👩‍👧 take 2 columns, a letter with its combining accent 1.
// It is lipgloss.Width's measure, so what lipgloss pads and aligns agrees.
func Width(s string) int { return ansi.StringWidth(s) }

// TruncateWidth cuts s, plain text, to width columns, ending it with "…"
// when cut. It cuts between grapheme clusters, never inside one.
func TruncateWidth(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if Width(s) <= width {
		return s
	}
	end, w := 0, 0
	for rest := s; rest != ""; {
		c, r, _, _ := uniseg.FirstGraphemeClusterInString(rest, -1)
		cw := Width(c)
		if w+cw+1 > width {
			break
		}
		end, w, rest = end+len(c), w+cw, r
	}
	return s[:end] + "…"
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
		if Width(next) <= width {
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
