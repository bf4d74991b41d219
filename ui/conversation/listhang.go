package conversation

import (
	"muse/ui/mdwrap"
	"strings"

	"github.com/charmbracelet/glamour/ansi"
	xansi "github.com/charmbracelet/x/ansi"
)

// wrapBreaks are the characters glamour's list wrapper may end a row after,
// as at a space.
const wrapBreaks = " ,.;-+|"

// hangItems gives the list items in out, glamour's render of src wrapped at
// width, a hanging indent: glamour wraps a list item's rows under its
// bullet, and hangItems wraps the rows after an item's first again, under
// the text after its bullet or number. An item starts at a row that begins
// with a bullet, a number or a task box at the start of the render, after a
// blank row, or in a list; the rows after it at its indent that start no
// item continue it. It reads each row once, and does work only for items
// that wrap.
func hangItems(out, src string, st ansi.StyleConfig, width int) string {
	if !strings.Contains(out, "\n") {
		return out
	}
	rows := strings.Split(out, "\n")
	res := make([]string, 0, len(rows))
	inList := false
	for i := 0; i < len(rows); {
		plain := xansi.Strip(rows[i])
		text := strings.TrimLeft(plain, " ")
		if text == "" {
			res = append(res, rows[i])
			inList = false
			i++
			continue
		}
		lead := len(plain) - len(text)
		prefix := itemPrefixWidth(text, st)
		if prefix == 0 || !(inList || len(res) == 0 || strings.TrimSpace(xansi.Strip(res[len(res)-1])) == "") {
			res = append(res, rows[i])
			i++
			continue
		}
		inList = true
		res = append(res, rows[i])
		j := i + 1
		for j < len(rows) {
			p := xansi.Strip(rows[j])
			t := strings.TrimLeft(p, " ")
			if t == "" || len(p)-len(t) != lead || itemPrefixWidth(t, st) > 0 {
				break
			}
			j++
		}
		if j > i+1 {
			res = append(res, hang(rows[i+1:j], src, lead, lead+prefix, width)...)
		}
		i = j
	}
	return strings.Join(res, "\n")
}

// hang joins the continuation rows of an item, each indented by lead, and
// wraps them again at width, indented by col.
func hang(rows []string, src string, lead, col, width int) []string {
	var b strings.Builder
	prev := ""
	for k, r := range rows {
		r = mdwrap.TrimPadding(xansi.TruncateLeft(r, lead, ""))
		p := xansi.Strip(r)
		if k > 0 && !joinsWithout(prev, p, src) {
			b.WriteByte(' ')
		}
		b.WriteString(r)
		prev = p
	}
	pad := strings.Repeat(" ", col)
	out := strings.Split(xansi.Wordwrap(b.String(), max(width-col, 10), wrapBreaks), "\n")
	for k, r := range out {
		out[k] = pad + r
	}
	return out
}

// joinsWithout reports whether the row before, ending at a break character
// other than a space, was cut from next inside a word of src ("well-" and
// "known" from "well-known"), so they join again without a space.
func joinsWithout(before, next, src string) bool {
	if before == "" || !strings.ContainsRune(wrapBreaks[1:], rune(before[len(before)-1])) {
		return false
	}
	last := before[strings.LastIndexByte(before, ' ')+1:]
	first, _, _ := strings.Cut(next, " ")
	return strings.Contains(src, last+first)
}

// itemPrefixWidth returns the width of the bullet, number or task box that
// starts text as glamour writes a list item in st, or 0 if none does.
func itemPrefixWidth(text string, st ansi.StyleConfig) int {
	for _, p := range []string{st.Task.Ticked, st.Task.Unticked, prefixOf(st.Item)} {
		if p != "" && strings.HasPrefix(text, p) {
			return xansi.StringWidth(p)
		}
	}
	digits := 0
	for digits < len(text) && digits < 10 && text[digits] >= '0' && text[digits] <= '9' {
		digits++
	}
	if p := prefixOf(st.Enumeration); digits > 0 && p != "" && strings.HasPrefix(text[digits:], p) {
		return digits + xansi.StringWidth(p)
	}
	return 0
}

// prefixOf returns what style p writes before a piece of text.
func prefixOf(p ansi.StylePrimitive) string {
	f, _, _ := strings.Cut(p.Format, "{{.text}}")
	return p.BlockPrefix + p.Prefix + f
}
