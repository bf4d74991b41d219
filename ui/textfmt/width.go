package textfmt

import (
	"strings"
	"sync/atomic"
	"unicode"

	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"
)

// WidthMode is how the terminal draws a grapheme cluster of more than one
// code point, which terminals disagree on: kitty, WezTerm, ghostty and
// x/vt (the tests' emulator) draw 👍🏽 and 👨‍👩‍👧 in 2 columns, xterm and
// alacritty draw each code point of them in its own cells (4 and 6). muse
// asks the terminal at start (see preview.DetectScreen) and measures as it
// draws.
type WidthMode int32

const (
	// Clusters measures a grapheme cluster as one character: 👍🏽, 🇫🇷 and
	// 👨‍👩‍👧 take 2 columns, a letter with its combining accent 1.
	Clusters WidthMode = iota
	// CodePoints measures each code point of a cluster on its own, as
	// wcwidth does, joiners, selectors and combining marks taking none: 👍🏽
	// takes 4 columns, 👨‍👩‍👧 6, a flag (two regional indicators) 2. It is
	// the safe measure where the terminal does not say: a terminal that
	// draws clusters narrower leaves a row short, never over its edge.
	CodePoints
)

var widthMode atomic.Int32

// SetWidthMode makes every measure of this package follow m, from now on.
// Set it once at start, before anything is drawn.
func SetWidthMode(m WidthMode) { widthMode.Store(int32(m)) }

// Mode is the width mode in force.
func Mode() WidthMode { return WidthMode(widthMode.Load()) }

// Width is how many columns s takes on the screen, escape sequences aside:
// the one measure muse draws with. It counts by grapheme cluster, in the
// terminal's width mode (see WidthMode). In the Clusters mode it is
// lipgloss.Width's measure, so what lipgloss pads and aligns agrees.
func Width(s string) int {
	if Mode() == Clusters || isASCII(s) {
		return ansi.StringWidth(s)
	}
	w := 0
	for _, c := range clusters(s) {
		w += c.width
	}
	return w
}

// ClusterWidth is the width of the one grapheme cluster c in mode m.
func ClusterWidth(c string, m WidthMode) int {
	if m == Clusters || len(c) == 1 {
		return ansi.StringWidth(c)
	}
	w, ri := 0, 0
	for _, r := range c {
		switch {
		case r >= 0x1f1e6 && r <= 0x1f1ff: // a regional indicator: 1, a flag 2
			ri++
			w++
		case r == '\u200d', unicode.Is(unicode.Mn, r), unicode.Is(unicode.Me, r),
			unicode.Is(unicode.Cf, r), r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef:
		default:
			w += ansi.StringWidth(string(r))
		}
	}
	if ri == 1 && w == 1 && len(c) <= 4 { // a lone regional indicator is drawn wide
		w = ansi.StringWidth(c)
	}
	return w
}

// piece is a grapheme cluster of text, or an escape sequence (width 0).
type piece struct {
	text  string
	width int
	esc   bool
}

// clusters splits s into its escape sequences and grapheme clusters, each
// with its width in the mode in force.
func clusters(s string) []piece {
	m := Mode()
	var out []piece
	var state byte
	p := ansi.NewParser()
	for s != "" {
		seq, w, n, st := ansi.DecodeSequence(s, state, p)
		state = st
		if n <= 0 {
			break
		}
		if w > 0 || (len(seq) > 0 && seq[0] >= 0x20 && seq[0] != 0x7f && seq[0] != 0x1b && !(seq[0] >= 0x80 && seq[0] < 0xa0)) {
			out = append(out, piece{text: seq, width: ClusterWidth(seq, m)})
		} else {
			out = append(out, piece{text: seq, esc: true})
		}
		s = s[n:]
	}
	return out
}

// Cut cuts the styled line s to width columns in the mode in force, between
// grapheme clusters, keeping every escape sequence (a style opened stays
// closed where the line closes it). A cluster that would cross the width
// goes, with all after it.
func Cut(s string, width int) string {
	if Mode() == Clusters || isASCII(s) {
		return ansi.Truncate(s, width, "")
	}
	if Width(s) <= width {
		return s
	}
	var b strings.Builder
	w, full := 0, false
	for _, c := range clusters(s) {
		if c.esc {
			b.WriteString(c.text)
			continue
		}
		if full || w+c.width > width {
			full = true
			continue
		}
		w += c.width
		b.WriteString(c.text)
	}
	return b.String()
}

// Truncate is ansi.Truncate in the width mode in force: the styled line
// s, cut with tail at its end to width columns when wider.
func Truncate(s string, width int, tail string) string {
	if Width(s) <= width {
		return s
	}
	return Cut(s, max(width-Width(tail), 0)) + tail
}

// isASCII reports whether s is all ASCII, whose width no mode changes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// TruncateWidth cuts s, plain text, to width columns, ending it with "…"
// when cut. It cuts between grapheme clusters, never inside one.
func TruncateWidth(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if Width(s) <= width {
		return s
	}
	m := Mode()
	end, w := 0, 0
	for rest := s; rest != ""; {
		c, r, _, _ := uniseg.FirstGraphemeClusterInString(rest, -1)
		cw := ClusterWidth(c, m)
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
