package input

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"

	"muse/ui/textfmt"
)

// editor is the text being typed and its cursor, edited by grapheme
// cluster: the cursor only ever sits between two clusters, so 👍🏽, 🇫🇷,
// 👨‍👩‍👧 or a letter and its combining accent move, wrap and are deleted
// whole, and a character typed never lands inside one. Its rows are
// measured with textfmt.Width, the width the screen is drawn with, so the
// rows it moves over are the rows drawn.
//
// The selection runs from anchor to the cursor while selecting is set;
// typing replaces it and a deleting key deletes it.
type editor struct {
	lines []string // never empty
	row   int      // the cursor's line
	col   int      // the cursor's byte in lines[row], on a cluster boundary
	// goal is the column ↑ and ↓ aim for, kept while they are pressed in
	// turn; -1 when the next one starts from the cursor's.
	goal int
	// anchor is where the selection started (the other end is the
	// cursor), when selecting.
	anchor    pos
	selecting bool
}

// pos is a place in the text: a line, and a byte of it.
type pos struct{ row, col int }

func newEditor() editor { return editor{lines: []string{""}, goal: -1} }

// value is the text.
func (e *editor) value() string { return strings.Join(e.lines, "\n") }

// setValue replaces the text, the cursor at its end.
func (e *editor) setValue(s string) {
	e.lines = strings.Split(s, "\n")
	e.row = len(e.lines) - 1
	e.col = len(e.lines[e.row])
	e.goal, e.selecting = -1, false
}

// cursor is where the cursor is.
func (e *editor) cursor() pos { return pos{e.row, e.col} }

// setCursor puts the cursor at p, moved back to the cluster it falls in.
func (e *editor) setCursor(p pos) {
	e.row = min(max(p.row, 0), len(e.lines)-1)
	e.col = clusterStart(e.lines[e.row], min(max(p.col, 0), len(e.lines[e.row])))
	e.goal = -1
}

// clusterStart is the start of the grapheme cluster of s that byte i is in.
func clusterStart(s string, i int) int {
	start := 0
	for rest := s; start < i && rest != ""; {
		c, r, _, _ := uniseg.FirstGraphemeClusterInString(rest, -1)
		if start+len(c) > i {
			break
		}
		start += len(c)
		rest = r
	}
	return start
}

// nextCluster is the byte after the cluster that starts at i in s.
func nextCluster(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	c, _, _, _ := uniseg.FirstGraphemeClusterInString(s[i:], -1)
	return i + len(c)
}

// prevCluster is the start of the cluster that ends at i in s.
func prevCluster(s string, i int) int {
	if i <= 0 {
		return 0
	}
	// A cluster is short: segmenting from a little before i is enough,
	// unless the line is one long cluster (a run of combining marks).
	from := 0
	if i > 64 {
		from = i - 64
		for from > 0 && !utf8.RuneStart(s[from]) {
			from--
		}
	}
	prev := from
	for j := from; j < i; {
		prev = j
		j = nextCluster(s[:i], j)
	}
	return prev
}

// insert puts s at the cursor, in place of the selection, and moves the
// cursor after it. Whatever clusters s forms with the text around it, the
// cursor ends on a cluster boundary.
func (e *editor) insert(s string) {
	e.deleteSelection()
	e.lines = slices.Clone(e.lines) // a copy of the input keeps its own
	line := e.lines[e.row]
	before, after := line[:e.col], line[e.col:]
	parts := strings.Split(s, "\n")
	if len(parts) == 1 {
		e.lines[e.row] = before + s + after
		e.col = clusterStart(e.lines[e.row], len(before)+len(s))
		if e.col < len(before)+len(s) {
			// s joined the cluster after it (a combining mark typed before
			// one): the cursor goes after that cluster.
			e.col = nextCluster(e.lines[e.row], e.col)
		}
		e.goal = -1
		return
	}
	parts[0] = before + parts[0]
	last := len(parts) - 1
	col := len(parts[last])
	parts[last] += after
	e.lines = append(e.lines[:e.row], append(parts, e.lines[e.row+1:]...)...)
	e.row += last
	e.col = clusterStart(e.lines[e.row], col)
	if e.col < col {
		e.col = nextCluster(e.lines[e.row], e.col)
	}
	e.goal = -1
}

// order returns the selection's ends, first the earlier.
func (e *editor) order() (pos, pos) { return ordered(e.anchor, e.cursor()) }

// ordered returns a and b, the earlier first.
func ordered(a, b pos) (pos, pos) {
	if b.row < a.row || (b.row == a.row && b.col < a.col) {
		a, b = b, a
	}
	return a, b
}

// selected is the text selected, "" when nothing is.
func (e *editor) selected() string {
	if !e.selecting {
		return ""
	}
	a, b := e.order()
	if a.row == b.row {
		return e.lines[a.row][a.col:b.col]
	}
	parts := []string{e.lines[a.row][a.col:]}
	parts = append(parts, e.lines[a.row+1:b.row]...)
	return strings.Join(append(parts, e.lines[b.row][:b.col]), "\n")
}

// deleteRange deletes the text from a to b (a before b), the cursor at a.
func (e *editor) deleteRange(a, b pos) {
	e.lines = slices.Clone(e.lines) // a copy of the input keeps its own
	merged := e.lines[a.row][:a.col] + e.lines[b.row][b.col:]
	e.lines = append(e.lines[:a.row+1], e.lines[b.row+1:]...)
	e.lines[a.row] = merged
	e.row, e.col = a.row, clusterStart(merged, a.col)
	e.goal, e.selecting = -1, false
}

// deleteSelection deletes the selection, reporting whether there was one.
func (e *editor) deleteSelection() bool {
	if !e.selecting {
		return false
	}
	a, b := e.order()
	e.selecting = false
	if a == b {
		return false
	}
	e.deleteRange(a, b)
	return true
}

// mark starts a selection at the cursor (extend) or ends it; moves call
// it first.
func (e *editor) mark(extend bool) {
	if extend && !e.selecting {
		e.anchor, e.selecting = e.cursor(), true
	} else if !extend {
		e.selecting = false
	}
}

// left moves the cursor one cluster back, to the end of the line before
// at the start of a line.
func (e *editor) left() {
	switch {
	case e.col > 0:
		e.col = prevCluster(e.lines[e.row], e.col)
	case e.row > 0:
		e.row--
		e.col = len(e.lines[e.row])
	}
	e.goal = -1
}

// right moves the cursor one cluster on.
func (e *editor) right() {
	switch {
	case e.col < len(e.lines[e.row]):
		e.col = nextCluster(e.lines[e.row], e.col)
	case e.row < len(e.lines)-1:
		e.row++
		e.col = 0
	}
	e.goal = -1
}

// isSpace reports whether the cluster c is white space.
func isSpace(c string) bool {
	r, _ := utf8.DecodeRuneInString(c)
	return unicode.IsSpace(r)
}

// wordLeft moves the cursor to the start of the word before it.
func (e *editor) wordLeft() {
	if e.col == 0 {
		e.left()
		return
	}
	line := e.lines[e.row]
	for e.col > 0 {
		p := prevCluster(line, e.col)
		if !isSpace(line[p:e.col]) {
			break
		}
		e.col = p
	}
	for e.col > 0 {
		p := prevCluster(line, e.col)
		if isSpace(line[p:e.col]) {
			break
		}
		e.col = p
	}
	e.goal = -1
}

// wordRight moves the cursor to the end of the word after it.
func (e *editor) wordRight() {
	line := e.lines[e.row]
	if e.col == len(line) {
		e.right()
		return
	}
	for e.col < len(line) {
		n := nextCluster(line, e.col)
		if !isSpace(line[e.col:n]) {
			break
		}
		e.col = n
	}
	for e.col < len(line) {
		n := nextCluster(line, e.col)
		if isSpace(line[e.col:n]) {
			break
		}
		e.col = n
	}
	e.goal = -1
}

// backspace deletes the selection, or the cluster before the cursor (the
// line break, at a line's start).
func (e *editor) backspace() { e.deleteOver(e.left) }

// deleteForward deletes the selection, or the cluster under the cursor.
func (e *editor) deleteForward() { e.deleteOver(e.right) }

// deleteWord deletes the selection, or back to the start of the word
// before the cursor.
func (e *editor) deleteWord() { e.deleteOver(e.wordLeft) }

// deleteToEnd deletes to the end of the line, or the line break there.
func (e *editor) deleteToEnd() {
	e.deleteOver(func() {
		if e.col == len(e.lines[e.row]) {
			e.right()
		} else {
			e.col = len(e.lines[e.row])
		}
	})
}

// deleteToStart deletes to the start of the line.
func (e *editor) deleteToStart() { e.deleteOver(func() { e.col = 0 }) }

// deleteOver deletes the selection, or else the text the cursor passes
// over as move moves it, back or on.
func (e *editor) deleteOver(move func()) {
	if e.deleteSelection() {
		return
	}
	from := e.cursor()
	move()
	e.deleteRange(ordered(from, e.cursor()))
}

// span is a row a line wraps to: its bytes from start to end.
type span struct{ start, end int }

// wrapLine breaks line into rows of at most width columns, measured by
// cluster: words move whole to the next row, a word wider than a row is
// cut between clusters, and the spaces after a word stay on its row (they
// may run past the width; they are not drawn). A line whose last row is
// full gets an empty row after it, where the cursor at its end shows.
func wrapLine(line string, width int) []span {
	width = max(width, 1)
	var rows []span
	start, rowW := 0, 0 // the row being built
	for i := 0; i < len(line); {
		// The next word, or run of spaces.
		j, w := i, 0
		space := false
		for k := i; k < len(line); {
			c, _, _, _ := uniseg.FirstGraphemeClusterInString(line[k:], -1)
			sp := isSpace(c)
			if k == i {
				space = sp
			} else if sp != space {
				break
			}
			k += len(c)
			j, w = k, w+textfmt.Width(c)
		}
		switch {
		case space || rowW+w <= width:
			rowW += w
		case w <= width:
			rows = append(rows, span{start, i})
			start, rowW = i, w
		default: // a word wider than a row: cut it
			if rowW > 0 {
				rows = append(rows, span{start, i})
				start, rowW = i, 0
			}
			for k := i; k < j; {
				c, _, _, _ := uniseg.FirstGraphemeClusterInString(line[k:j], -1)
				cw := textfmt.Width(c)
				if rowW+cw > width && rowW > 0 {
					rows = append(rows, span{start, k})
					start, rowW = k, 0
				}
				rowW += cw
				k += len(c)
			}
		}
		i = j
	}
	rows = append(rows, span{start, len(line)})
	if rowW >= width {
		rows = append(rows, span{len(line), len(line)})
	}
	return rows
}

// rowOf is the row of rows the byte col is on: the last row for the
// line's end.
func rowOf(rows []span, col int) int {
	for i, r := range rows {
		if col < r.end || i == len(rows)-1 {
			return i
		}
	}
	return len(rows) - 1
}

// colAt is the byte of the row r of line whose column is the last not
// past x; on any row but a line's last, not the row's end, which is the
// next row's start.
func colAt(line string, r span, x int, last bool) int {
	col, w := r.start, 0
	for col < r.end {
		n := nextCluster(line, col)
		cw := textfmt.Width(line[col:n])
		if w+cw > x || (!last && n == r.end) {
			break
		}
		col, w = n, w+cw
	}
	return col
}

// vertical moves the cursor one row up (dy -1) or down over the rows the
// text wraps to at width, keeping to the column it started from, and
// reports whether there was a row to move to.
func (e *editor) vertical(dy, width int) bool {
	rows := wrapLine(e.lines[e.row], width)
	r := rowOf(rows, e.col)
	if e.goal < 0 {
		e.goal = textfmt.Width(e.lines[e.row][rows[r].start:e.col])
	}
	goal := e.goal
	line, target := e.row, r+dy
	switch {
	case target < 0:
		if line == 0 {
			return false
		}
		line--
		rows = wrapLine(e.lines[line], width)
		target = len(rows) - 1
	case target >= len(rows):
		if line == len(e.lines)-1 {
			return false
		}
		line++
		rows = wrapLine(e.lines[line], width)
		target = 0
	}
	e.row = line
	e.col = colAt(e.lines[line], rows[target], goal, target == len(rows)-1)
	e.goal = goal
	return true
}
