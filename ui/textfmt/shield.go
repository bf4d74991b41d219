package textfmt

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/mattn/go-runewidth"
	"github.com/rivo/uniseg"
)

// The libraries muse draws with measure text their own ways, and neither
// need be the terminal's: glamour's wrapper (muesli/reflow) adds the width
// of each code point (👨‍👩‍👧 is 6), and lipgloss, which wraps, pads and
// draws boxes (and glamour's tables), measures grapheme clusters (2).
// Shield hides each cluster they would measure otherwise than the terminal
// draws it (Width) behind a placeholder that all of them measure alike,
// and Restore puts the clusters back in what they made of it, so that what
// they wrap, pad and align comes out at the widths the terminal draws.
//
// A placeholder is as many columns as its cluster, each a private-use code
// point of width 1 in every measure: the first, in plane 15, names the
// cluster; the rest, U+100000, only fill.
const (
	placeFirst  = 0xf0000
	placeLast   = 0xffffd
	placeFiller = 0x100000
)

// Shielded is what Shield hid: the clusters, by the number their
// placeholder names.
type Shielded struct {
	clusters []string
	widths   []int
}

// placeholdersWork reports whether the placeholders are one column in
// every measure here (go-runewidth counts private use as wide in an East
// Asian locale).
var placeholdersWork = runewidth.RuneWidth(placeFirst) == 1 && runewidth.RuneWidth(placeFiller) == 1 &&
	ansi.StringWidth(string(rune(placeFirst))+string(rune(placeFiller))) == 2

// Shield returns src with each grapheme cluster that glamour or lipgloss
// would measure otherwise than Width (in the width mode in force) replaced
// by a placeholder as wide as the terminal draws it, and what Restore
// needs to put them back. Text that is all ASCII, or holds no such
// cluster, comes back as it is.
func Shield(src string) (string, *Shielded) {
	sh := &Shielded{}
	if !placeholdersWork || isASCII(src) {
		return src, sh
	}
	mode := Mode()
	index := map[string]int{}
	var b strings.Builder
	done := 0
	state := -1
	for i := 0; i < len(src); {
		if src[i] < utf8.RuneSelf && (i+1 == len(src) || src[i+1] < utf8.RuneSelf) {
			i++ // ASCII followed by ASCII: a cluster of its own, as wide everywhere
			state = -1
			continue
		}
		c, _, _, st := uniseg.FirstGraphemeClusterInString(src[i:], state)
		state = st
		w := ClusterWidth(c, mode)
		if w > 0 && (perRune(c) != w || ansi.StringWidth(c) != w) {
			n, ok := index[c]
			if !ok && len(sh.clusters) <= placeLast-placeFirst {
				n, ok = len(sh.clusters), true
				index[c] = n
				sh.clusters = append(sh.clusters, c)
				sh.widths = append(sh.widths, w)
			}
			if ok {
				b.WriteString(src[done:i])
				b.WriteRune(rune(placeFirst + n))
				for range w - 1 {
					b.WriteRune(placeFiller)
				}
				done = i + len(c)
			}
		}
		i += len(c)
	}
	if done == 0 {
		return src, sh
	}
	b.WriteString(src[done:])
	return b.String(), sh
}

// Restore returns out, what glamour or lipgloss made of what Shield returned, with the
// clusters put back in place of their placeholders. A placeholder's
// fillers go with it; one glamour cut off its first (it never breaks a
// word of them, but a table may cut a cell) is dropped, as is its cut
// cluster, whose columns stay blank.
func (sh *Shielded) Restore(out string) string {
	if len(sh.clusters) == 0 {
		return out
	}
	var b strings.Builder
	b.Grow(len(out))
	done := 0
	for i := 0; i < len(out); {
		r, size := utf8.DecodeRuneInString(out[i:])
		switch {
		case r >= placeFirst && r <= placeLast && int(r-placeFirst) < len(sh.clusters):
			n := int(r - placeFirst)
			b.WriteString(out[done:i])
			i += size
			// Its fillers follow, maybe with styles put between them (a
			// highlighter may colour each character): those go after it.
			fill, styles, end := 0, "", i
			for j := i; fill < sh.widths[n]-1 && j < len(out); {
				if strings.HasPrefix(out[j:], filler) {
					j += len(filler)
					fill, end = fill+1, j
				} else if k := sgrLen(out[j:]); k > 0 {
					styles += out[j : j+k]
					j += k
				} else {
					break
				}
			}
			if fill == sh.widths[n]-1 {
				b.WriteString(sh.clusters[n] + styles)
				i = end
			} else {
				b.WriteString(" ") // cut: its columns stay blank, the fillers left become spaces
			}
			done = i
		case r == placeFiller:
			b.WriteString(out[done:i] + " ")
			i += size
			done = i
		default:
			i += size
		}
	}
	b.WriteString(out[done:])
	return b.String()
}

// filler is the placeholders' filler, as text.
const filler = string(rune(placeFiller))

// sgrLen is the length of the SGR sequence (ESC [ … m) s starts with, 0
// when it starts with none.
func sgrLen(s string) int {
	if !strings.HasPrefix(s, "\x1b[") {
		return 0
	}
	for j := 2; j < len(s); j++ {
		switch c := s[j]; {
		case c == 'm':
			return j + 1
		case c >= '0' && c <= '9', c == ';', c == ':':
		default:
			return 0
		}
	}
	return 0
}

// perRune is a cluster's width as glamour's wrapper measures it: the sum
// of its code points' widths.
func perRune(c string) int {
	w := 0
	for _, r := range c {
		w += runewidth.RuneWidth(r)
	}
	return w
}

// Render renders s in style, as style.Render does, but with the clusters
// lipgloss would measure otherwise than the terminal draws them shielded
// (see Shield): a box's border stays in its column with any text.
func Render(style lipgloss.Style, s string) string {
	shielded, sh := Shield(s)
	return sh.Restore(style.Render(shielded))
}

// Fit cuts each line of out that holds other than ASCII and is wider than
// width, measured as the terminal draws it (Width), between
// clusters: the one measure every line muse draws passes. A line of ASCII
// is as wide in every measure, and one glamour made wider than width on
// purpose (a long line of code) is left to the screen to cut.
func Fit(out string, width int) string {
	if isASCII(out) {
		return out
	}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if !isASCII(l) && Width(l) > width {
			lines[i] = Cut(l, width)
		}
	}
	return strings.Join(lines, "\n")
}
