package mdwrap

import "strings"

// The parse of a reply (goldmark v1.8) takes time linear in its length for
// every shape but a few, whose scans each start again for every opener of
// a paragraph: a link's destination, read to the end of its line ("[a]("
// repeated, 2.5 s for 80 KB on one line), a destination in angle
// brackets, read to the next '>' ("[a](<"), a code span's opener, which
// looks through the rest of its paragraph for a closer as long (a
// backslash and two backticks, repeated), and emphasis delimiters and brackets left open, which each closer walks
// back over ("**_* ", "[*_a"). The older goldmark (v1.7) was quadratic on
// HTML comments, CDATA, processing instructions, strikethrough and
// Linkify's e-mail scan too, which v1.8 fixed.
//
// costly counts, in one pass, the steps those scans would take, and
// reports whether they exceed workBase plus workPerByte steps a byte: an
// ordinary reply takes a few steps a byte, and the count stops at the
// limit, so the pass itself is linear.
const (
	workBase    = 1 << 20
	workPerByte = 64
)

// costly reports whether parsing src as markdown would take more than
// workBase + workPerByte×len(src) steps in the scans that can be
// quadratic (see above). It overestimates, never underestimates: it reads
// paragraphs as ending only where a paragraph must end.
func costly(src string) bool {
	return work(src, workBase+workPerByte*len(src)) > workBase+workPerByte*len(src)
}

// work counts the steps of the scans costly guards, stopping past limit.
func work(src string, limit int) int {
	steps := 0
	for para := range paragraphs(src) {
		steps += linkWork(para, limit-steps) + codeWork(para, limit-steps) + delimWork(para)
		if steps > limit {
			break
		}
	}
	return steps
}

// paragraphs yields src cut where a paragraph must end: at a blank line
// (or a quote's),
// and at a line that starts a heading, a fence, a list item with text, or
// a quote after text that was not quoted (the lines of a quote, lazy or
// not, stay together). The lines of fenced code, which goldmark does not
// parse as inline markdown, are left out, and each row of a table is a
// paragraph of its own, as goldmark parses each cell on its own.
func paragraphs(src string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		start, pos := 0, 0
		fence, fenceIndent := "", 0
		quote, table := false, false
		var header string // the chunk's first line, while it has one line
		for line := range strings.Lines(src) {
			at := pos
			pos += len(line)
			if fence != "" {
				if closesFence(line, fence, fenceIndent) {
					fence, start = "", pos
					continue
				}
				if strings.TrimSpace(line) == "" || indent(line) >= fenceIndent {
					start = pos
					continue
				}
				fence = "" // the item holding the fence has ended
			}
			f := opensFence(line)
			blank := strings.TrimSpace(line) == ""
			q := quotes(line)
			if q && strings.TrimSpace(strings.TrimLeft(line, "> \t")) == "" {
				blank = true // a quote's blank line
			}
			if f != "" || table || blank || (q && !quote) || (!q && interrupts(line)) {
				if start < at && !yield(src[start:at]) {
					return
				}
				start, header, quote = at, "", q
				if blank {
					table = false
				}
				if f != "" {
					fence, fenceIndent, start = f, indent(line), pos
					continue
				}
			}
			switch {
			case at == start:
				header = line
			case header != "" && !table && isDelimiterRow(line) && cells(header) == cells(line):
				table = true
			default:
				header = ""
			}
		}
		if start < len(src) {
			yield(src[start:])
		}
	}
}

// indent returns the columns of space line starts with.
func indent(line string) int {
	n := 0
	for _, c := range []byte(line) {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

// quotes reports whether line opens with a quote marker.
func quotes(line string) bool {
	t, ok := lead(line)
	return ok && strings.HasPrefix(t, ">")
}

// cells returns how many cells a table row holds: its unescaped pipes,
// but those at its ends, plus one.
func cells(line string) int {
	t := strings.TrimSpace(line)
	t = strings.TrimPrefix(t, "|")
	if strings.HasSuffix(t, "|") && !strings.HasSuffix(t, "\\|") {
		t = t[:len(t)-1]
	}
	n := 1
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n
}

// lead returns line without up to three spaces of indent, and false when
// it is indented more (code, or the text of an item, never a new block).
func lead(line string) (string, bool) {
	t := strings.TrimLeft(line, " ")
	return t, len(line)-len(t) <= 3
}

// interrupts reports whether line, not blank, ends the paragraph before
// it: one that opens a heading or a list item with text.
func interrupts(line string) bool {
	t, ok := lead(line)
	if !ok {
		return false
	}
	switch {
	case t[0] == '#':
		h := strings.TrimLeft(t, "#")
		return len(t)-len(h) <= 6 && (strings.TrimSpace(h) == "" || h[0] == ' ' || h[0] == '\t')
	case t[0] == '-' || t[0] == '+' || t[0] == '*':
		return len(t) > 2 && (t[1] == ' ' || t[1] == '\t') && strings.TrimSpace(t[2:]) != ""
	case strings.HasPrefix(t, "1.") || strings.HasPrefix(t, "1)"):
		return len(t) > 3 && (t[2] == ' ' || t[2] == '\t') && strings.TrimSpace(t[3:]) != ""
	}
	return false
}

// opensFence returns the fence line opens (three or more '`' or '~'), or
// "".
func opensFence(line string) string {
	t, ok := lead(line)
	if !ok || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	f := t[:len(t)-len(strings.TrimLeft(t, t[:1]))]
	if len(f) < 3 || (f[0] == '`' && strings.Contains(t[len(f):], "`")) {
		return ""
	}
	return f
}

// closesFence reports whether line closes the fence f, opened indented
// at columns: a closer may stand up to three columns past the indent of
// the fence's container (a list item's), so past three spaces of the
// line, but never past three columns beyond the fence's own. A tab counts
// one column here, so that every closer goldmark takes is taken; one
// taken that is not only makes code count as text (an overestimate).
func closesFence(line, f string, at int) bool {
	t := strings.TrimLeft(line, " \t")
	if len(line)-len(t) > at+3 {
		return false
	}
	rest := strings.TrimLeft(t, f[:1])
	return len(t)-len(rest) >= len(f) && strings.TrimSpace(rest) == ""
}

// isDelimiterRow reports whether line is a table's delimiter row, as
// goldmark takes one: indented at most three spaces, with a pipe, each
// cell dashes with a colon at either end or none (":-", "-:", not ":" or
// "- -"). A row it takes that goldmark does not would have the lines
// after it counted one by one, which goldmark reads as one paragraph.
func isDelimiterRow(line string) bool {
	t := strings.TrimSpace(line)
	if indent(line) > 3 || !strings.Contains(t, "|") {
		return false
	}
	t = strings.TrimPrefix(t, "|")
	t = strings.TrimSuffix(t, "|")
	for c := range strings.SplitSeq(t, "|") {
		c = strings.TrimSpace(c)
		c = strings.TrimSuffix(strings.TrimPrefix(c, ":"), ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return false
		}
	}
	return true
}

// linkWork counts the steps of reading the destination after each "](" of
// para, which goldmark reads to the end of the line (to a space, or to a
// '>' in angle brackets), stopping past limit.
func linkWork(para string, limit int) int {
	steps := 0
	for i := strings.Index(para, "]("); i >= 0 && steps <= limit; {
		j := i + 2
		for j < len(para) && (para[j] == ' ' || para[j] == '\t') {
			j++
		}
		stops := " \t\r\n"
		if j < len(para) && para[j] == '<' {
			stops = ">\n"
		}
		end := strings.IndexAny(para[j:], stops)
		if end < 0 {
			end = len(para) - j
		}
		steps += end + 1
		next := strings.Index(para[i+2:], "](")
		if next < 0 {
			break
		}
		i += 2 + next
	}
	return steps
}

// codeWork counts the steps of looking for the closer of each code span
// opener of para: a run of as many '`', sought to the paragraph's end.
// A span found is skipped, as goldmark skips it; stops past limit.
func codeWork(para string, limit int) int {
	steps := 0
	for i := 0; i < len(para) && steps <= limit; i++ {
		switch para[i] {
		case '\\':
			i++
		case '`':
			n := run(para, i)
			j := i + n
			for j < len(para) && (para[j] != '`' || run(para, j) != n) {
				if para[j] == '`' {
					j += run(para, j)
				} else {
					j++
				}
			}
			steps += j - i
			if j < len(para) {
				i = j + n - 1
			} else {
				i += n - 1
			}
		}
	}
	return steps
}

// run returns how many of s[i] follow one another from i.
func run(s string, i int) int {
	j := i
	for j < len(s) && s[j] == s[i] {
		j++
	}
	return j - i
}

// delimWork bounds the steps of matching the delimiters of para: each run
// of '*', '_' or '~' that may open or close emphasis, and each bracket,
// may be walked over once by every later closer, so d delimiters cost at
// most d² steps, each a sixteenth of a step of a scan (goldmark took 0.7 s
// for 40,000 delimiters, 1.6×10⁹ steps, where a destination's 10⁹ steps
// took 1 s and more): a paragraph may hold 4,000 delimiters.
func delimWork(para string) int {
	d := 0
	for i := 0; i < len(para); i++ {
		switch c := para[i]; c {
		case '\\':
			i++
		case '[', ']':
			d++
		case '*', '_', '~':
			n := run(para, i)
			before, after := byte(' '), byte(' ')
			if i > 0 {
				before = para[i-1]
			}
			if i+n < len(para) {
				after = para[i+n]
			}
			if !isSpace(rune(before)) || !isSpace(rune(after)) {
				d++
			}
			i += n - 1
		}
	}
	return d * d / 16
}
