// Package textfmt holds the small text helpers the chat screen's parts
// share: counting, wrapping, shortening, and memoizing a rendered string.
// It also holds the one width measure muse draws with (Width), in the
// terminal's width mode (WidthMode), and the placeholders (Shield) that
// make glamour and lipgloss lay text out at that measure.
package textfmt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"
)

// Plural counts n things: "1 message", "2 messages", "3 matches", "0 new
// entries".
func Plural(n int, thing string) string {
	switch {
	case n == 1:
		return "1 " + thing
	case strings.HasSuffix(thing, "ch"), strings.HasSuffix(thing, "s"):
		return fmt.Sprintf("%d %ses", n, thing)
	case len(thing) > 1 && thing[len(thing)-1] == 'y' && !strings.ContainsRune("aeiou", rune(thing[len(thing)-2])):
		return fmt.Sprintf("%d %sies", n, thing[:len(thing)-1])
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// Height is how many rows the view v takes: none when it is "".
func Height(v string) int {
	if v == "" {
		return 0
	}
	return strings.Count(v, "\n") + 1
}

// Wrap soft-wraps plain text to width, keeping its own line breaks, at
// the widths the terminal draws (see Shield).
func Wrap(s string, width int) string {
	lines := strings.Split(Render(lipgloss.NewStyle().Width(width), s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// PrettyJSON indents raw JSON by two spaces; "{}" when raw is empty, and raw
// as it is when it is not JSON.
func PrettyJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "{}"
	}
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

// TruncateRunes keeps the first n runes of s, marking a cut with "…". It
// cuts between grapheme clusters, keeping fewer runes rather than part of
// one (👨‍👩‍👧 is five), and reads no further than the cut.
func TruncateRunes(s string, n int) string {
	runes, end := 0, 0
	for rest := s; rest != ""; {
		c, r, _, _ := uniseg.FirstGraphemeClusterInString(rest, -1)
		k := utf8.RuneCountInString(c)
		if runes+k > n {
			return s[:end] + "…"
		}
		runes, end, rest = runes+k, end+len(c), r
	}
	return s
}

// OnOff is "on" or "off".
func OnOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// ShortPath shows a path under the home directory as ~/….
func ShortPath(p string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "" && strings.HasPrefix(p, home+string(os.PathSeparator)) {
		return "~" + p[len(home):]
	}
	return p
}

// FitPath shows the path p in at most width columns without breaking it:
// whole when it fits, else with folders from its middle left out as "…",
// keeping its start (~ or /) and as many of its last folders as fit. The
// file's name is never cut; it alone is returned when even "…/name" does
// not fit, and the caller decides.
func FitPath(p string, width int) string {
	if Width(p) <= width {
		return p
	}
	sep := string(os.PathSeparator)
	parts := strings.Split(p, sep)
	if len(parts) < 3 {
		return p
	}
	head := parts[0] + sep // "~/", "/" (parts[0] is "") or a first folder
	tail := parts[len(parts)-1]
	if Width(head+"…"+sep+tail) > width {
		if Width("…"+sep+tail) <= width {
			return "…" + sep + tail
		}
		return tail
	}
	for i := len(parts) - 2; i > 0; i-- {
		next := parts[i] + sep + tail
		if Width(head+"…"+sep+next) > width {
			break
		}
		tail = next
	}
	return head + "…" + sep + tail
}

// Memo caches one string by the key it was made from.
type Memo struct {
	key, val string
	ok       bool
}

// Get returns the string made for key, making it with f when the key
// changed.
func (c *Memo) Get(key string, f func() string) string {
	if !c.ok || c.key != key {
		c.key, c.val, c.ok = key, f(), true
	}
	return c.val
}

// Key joins ints, bools and strings into a memo key, without fmt's cost.
func Key(parts ...any) string {
	b := make([]byte, 0, 64)
	for _, p := range parts {
		switch v := p.(type) {
		case int:
			b = strconv.AppendInt(b, int64(v), 10)
		case bool:
			b = strconv.AppendBool(b, v)
		case string:
			b = append(b, v...)
		}
		b = append(b, 0)
	}
	return string(b)
}

// WrapHanging soft-wraps text to width like Wrap, but the rows a long line
// continues on are indented to where its text starts or, in a line of two
// columns ("/copy [N]   copy the last reply"), to where its second column
// starts, when that is within the first half of the width or leaves 20
// columns (else under its indent, when that is).
func WrapHanging(s string, width int) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if Width(line) <= width {
			out = append(out, line)
			continue
		}
		plain := ansi.Strip(line)
		hang := hangColumn(plain)
		if hang > width/2 && width-hang < 20 { // then under the line's own indent
			hang = len(plain) - len(strings.TrimLeft(plain, " "))
		}
		if hang > width/2 && width-hang < 20 {
			hang = 0
		}
		rows := strings.Split(Wrap(line, width), "\n")
		out = append(out, rows[0])
		rest := strings.TrimLeft(strings.Join(rows[1:], " "), " ")
		for _, r := range strings.Split(Wrap(rest, width-hang), "\n") {
			out = append(out, strings.Repeat(" ", hang)+r)
		}
	}
	return strings.Join(out, "\n")
}

// hangColumn is the column where the continuation of a plain line starts:
// after a gap of two spaces or more that follows its first text, else
// where its text starts.
func hangColumn(line string) int {
	text := strings.TrimLeft(line, " ")
	lead := len(line) - len(text)
	gap := strings.Index(text, "  ")
	if gap < 0 {
		return lead
	}
	second := strings.TrimLeft(text[gap:], " ")
	if second == "" {
		return lead
	}
	return lead + Width(text[:len(text)-len(second)])
}

// WrapAfter soft-wraps text to width after label, with the rows it
// continues on indented to where the text starts ("revised: a red fox…"
// continues under "a"); as Wrap does when that would leave the text fewer
// than 10 columns.
func WrapAfter(label, text string, width int) string {
	col := Width(label)
	if width-col < 10 {
		return Wrap(label+text, width)
	}
	pad := strings.Repeat(" ", col)
	rows := strings.Split(Wrap(text, width-col), "\n")
	for i := range rows {
		if i == 0 {
			rows[i] = label + rows[i]
		} else if rows[i] != "" {
			rows[i] = pad + rows[i]
		}
	}
	return strings.Join(rows, "\n")
}
