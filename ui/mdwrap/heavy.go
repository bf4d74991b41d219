package mdwrap

import (
	"strings"

	xansi "github.com/charmbracelet/x/ansi"

	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// Glamour's work grows with what it writes, not with what it reads: it
// pads every line it writes to the full width with styled spaces, once
// for each block around the line that has a margin (the document, each
// list, quote and definition list), and copies the buffer of each block
// into the one around it. A list item of two bytes ("- a") is a line of
// width columns, a few hundred bytes of escapes and spaces, and glamour
// allocated ~8 KB per byte of such a list: 640 KB of "- a\n  - b\n" ran it
// out of memory. Nothing in the parse is superlinear there (see costly):
// the cost is the number of lines written, times the width, times the
// blocks around them.
//
// A Meter estimates that work from the source a line at a time: each line
// writes at least one line of the width (one more for each width of text
// it holds), padded once for the document and its block and once for each
// list, quote or definition marker and each two columns of indent it
// opens with, and as many times again as it opens blocks (list markers,
// quote markers more than the line before had): glamour writes lines of
// each block it opens, padded in every block around it, so a line that
// opens d blocks costs it d² lines of the width (twenty list markers on
// each line of 6.5 KB: 936 MB). Text whose estimate passes cellBase +
// cellsPerByte cells a byte, at the end of any of its lines, is heavy: it
// is shown as plain text (see Plain), never given to glamour. An ordinary reply costs a
// few cells a byte (prose 2 to 6, a list of file names 12 at 80 columns
// and 25 at 200, and cellBase covers a list of a thousand short items); a
// list of one-letter items costs 60 at 80 columns, and each level of
// nesting adds a share. Glamour allocated 50 (prose) to 220 (a list four
// deep) bytes a cell, 120 for most lists. Past cellMax cells a text is
// heavy whatever its length, so that no render, of the longest reply
// too, allocates more than about 250 MB (a second or two): that is
// 350 KB of prose in paragraphs of a line, 800 KB in long ones. The
// longest light text of each shape allocated 10 to 150 MB
// (TestLightTextIsCheap).
const (
	cellBase     = 1 << 18
	cellsPerByte = 24
	cellMax      = 1 << 21
)

// Meter counts the cells glamour would pad and write to render a text
// wrapped at a width, as the text grows by whole lines, and remembers
// whether the count ever passed its budget.
type Meter struct {
	width        int
	cells, bytes int
	heavy, dense bool
	quotes       int // the quote markers of the last line, 0 after a blank one
}

// NewMeter returns a Meter for text rendered at width.
func NewMeter(width int) *Meter {
	return &Meter{width: max(width, 1)}
}

// Add counts lines, whole lines of the text (a last line without its
// newline counts as a whole one). It reads each byte once.
func (m *Meter) Add(lines string) {
	for line := range strings.Lines(lines) {
		m.bytes += len(line)
		quotes, lists, indent := markers(line)
		// Each block the line opens writes lines of its own (a list its
		// item's line, a quote its blank one), each padded in every block
		// around it: a line of twenty list markers cost glamour 6 MB.
		opens := lists + max(quotes-m.quotes, 0)
		if strings.TrimSpace(line) == "" {
			m.quotes = 0
		} else {
			m.quotes = quotes
		}
		m.cells += (m.width + len(line)) * (2 + quotes + lists + indent/2) * max(opens, 1)
		// A table row of more columns than the width can never fit, and
		// shrinking it to the width costs lipgloss the columns times the
		// overflow, row by row: 100,000 columns of 800 KB took 33.6 s.
		if strings.Count(line, "|") > m.width {
			m.dense = true
		}
		if m.cells > cellBase+cellsPerByte*m.bytes {
			m.dense = true
		}
		if m.dense || m.cells > cellMax {
			m.heavy = true
		}
	}
}

// Heavy reports whether the text counted so far was, at the end of any of
// its lines, more work for glamour than its budget.
func (m *Meter) Heavy() bool { return m.heavy }

// Heavy reports whether src, rendered by glamour wrapped at width, would
// be more work than its budget (see Meter): it is to be shown plain.
func Heavy(src string, width int) bool {
	m := NewMeter(width)
	m.Add(src)
	return m.Heavy()
}

// Dense reports whether src passes the budget of its length (not the cap
// of cellMax) at the end of any of its lines: whether it writes many lines
// for its bytes. Goldmark's HTML costs a few nodes of its tree a line, so
// the page writes dense text plain, and long prose as markdown.
func Dense(src string, width int) bool {
	m := NewMeter(width)
	m.Add(src)
	return m.dense
}

// markers counts the quote markers and the list and definition markers
// (followed by a space) a line opens with, and its columns of indent
// among them, each count at most MaxNest+2 (deeper text is flattened, see
// TooDeep).
func markers(line string) (quotes, lists, indent int) {
	for i := 0; i < len(line) && quotes+lists <= MaxNest; {
		switch c := line[i]; {
		case c == ' ':
			indent++
			i++
		case c == '\t':
			indent += 4
			i++
		case c == '>':
			quotes++
			i++
		case c == '-' || c == '+' || c == '*' || c == ':':
			if i+1 < len(line) && (line[i+1] == ' ' || line[i+1] == '\t') {
				lists++
				i += 2
				continue
			}
			return quotes, lists, min(indent, 2*MaxNest)
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && j-i < 10 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j+1 < len(line) && (line[j] == '.' || line[j] == ')') && (line[j+1] == ' ' || line[j+1] == '\t') {
				lists++
				i = j + 2
				continue
			}
			return quotes, lists, min(indent, 2*MaxNest)
		default:
			return quotes, lists, min(indent, 2*MaxNest)
		}
	}
	return quotes, lists, min(indent, 2*MaxNest)
}

// Plain returns src, text found heavy, as the lines it is shown in
// instead of rendered: sanitized (sanitize.Plain), tabs as four spaces,
// each of its lines wrapped at width, at spaces, a word wider than the
// width cut at it, and each cut again to the columns the terminal draws
// (textfmt.Fit). The lines hold no styles.
func Plain(src string, width int) []string {
	width = max(width, 1)
	src = strings.ReplaceAll(sanitize.Plain(src), "\t", "    ")
	out := make([]string, 0, strings.Count(src, "\n")+1)
	for line := range strings.Lines(src) {
		line = strings.TrimRight(line, "\n")
		if xansi.StringWidth(line) <= width {
			out = append(out, textfmt.Fit(strings.TrimRight(line, " "), width))
			continue
		}
		for l := range strings.SplitSeq(xansi.Wrap(line, width, ""), "\n") {
			out = append(out, textfmt.Fit(strings.TrimRight(l, " "), width))
		}
	}
	return out
}
