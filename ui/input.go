package ui

import (
	"slices"
	"strings"
	"unicode"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"muse/ui/textfmt"
)

// The input is edited by a bubbles textarea, but drawn here: the textarea
// scrolls its own view only on keys, from what it drew last, so a long
// paste or a prompt put back into it left the cursor out of sight. Here the
// input grows with its wrapped rows, up to a third of the screen, then
// scrolls so the cursor row is always shown.

// cursorOn and cursorOff draw the cursor in reverse video, which is not a
// colour: it shows with NO_COLOR too, where lipgloss drops every style.
const (
	cursorOn  = "\x1b[7m"
	cursorOff = "\x1b[27m"
)

// inputPrompt marks the first row of the input; later rows are indented
// as wide.
const inputPrompt = "› "

// maxInputLines is the tallest the input grows: a third of the screen.
func (m Model) maxInputLines() int { return max(m.height/3, 1) }

// inputRows returns the input's text as the rows it wraps to, and the row
// and column (in runes) of the cursor.
func (m Model) inputRows() (rows [][]rune, cursorRow, cursorCol int) {
	width := max(m.w.input.Width(), 1)
	line, info := m.w.input.Line(), m.w.input.LineInfo()
	for i, l := range strings.Split(m.w.input.Value(), "\n") {
		grid := wrapInput([]rune(l), width)
		if i == line {
			cursorRow, cursorCol = len(rows)+info.RowOffset, info.ColumnOffset
		}
		rows = append(rows, grid...)
	}
	return rows, cursorRow, cursorCol
}

// waitingForApproval reports whether a tool call waits for y, n or a: the
// input then only says so.
func (m Model) waitingForApproval() bool {
	return m.turn != nil && m.turn.ask != nil && m.turn.ask.hasCommand
}

// sizeInput fits the input to its rows and scrolls it to its cursor; it
// returns the model with the input's height and first shown row set.
func (m Model) sizeInput() Model {
	if m.waitingForApproval() {
		m.inputHeight = 1
		return m
	}
	rows, cur, _ := m.inputRows()
	h := min(max(len(rows), 1), m.maxInputLines())
	m.inputTop = scrollTo(m.inputTop, cur, h, len(rows))
	m.inputHeight = h
	return m
}

// scrollTo returns the first row to show of n rows, h at a time, so that
// row cur shows, moving from top as little as it can.
func scrollTo(top, cur, h, n int) int {
	top = min(top, max(n-h, 0))
	if cur < top {
		top = cur
	}
	if cur >= top+h {
		top = cur - h + 1
	}
	return max(top, 0)
}

// inputKey is what the input's drawing depends on.
func (m Model) inputKey() string {
	li := m.w.input.LineInfo()
	return textfmt.Key(m.width, m.inputHeight, m.inputTop, m.turn == nil, m.waitingForApproval(), m.sel.active, m.w.input.Placeholder,
		m.w.input.Line(), li.RowOffset, li.ColumnOffset, m.w.input.Width(), m.w.input.Value())
}

// inputView draws the input: the prompt marker, the rows in view and the
// cursor; the placeholder when it is empty; while a tool call waits for an
// answer, a line that says so.
func (m Model) inputView() string {
	st := m.th.Styles
	border := st.InputBorder
	if m.turn == nil {
		border = st.InputBorderFocused
	}
	marker := st.InputMarker.Render(inputPrompt)
	textWidth := max(m.width-lipgloss.Width(inputPrompt), 1)
	var lines []string
	switch {
	case m.waitingForApproval():
		lines = []string{marker + st.Warning.Render(truncateWidth("waiting for your answer above: y/n/a", textWidth))}
	case m.w.input.Value() == "" && m.sel.active:
		lines = []string{marker + st.Subtle.Render(truncateWidth("selecting a message · esc goes back to the input", textWidth))}
	case m.w.input.Value() == "":
		lines = []string{marker + cursorOn + " " + cursorOff + st.Subtle.Render(truncateWidth(m.w.input.Placeholder, textWidth-1))}
	default:
		rows, cur, col := m.inputRows()
		h := max(m.inputHeight, 1)
		top := scrollTo(m.inputTop, cur, h, len(rows))
		pad := strings.Repeat(" ", lipgloss.Width(inputPrompt))
		for i := top; i < min(top+h, len(rows)); i++ {
			prefix := pad
			if i == 0 {
				prefix = marker
			}
			row := rows[i]
			var text string
			if i == cur && !m.sel.active {
				text = withCursor(row, col, textWidth)
			} else {
				text = strings.TrimRightFunc(string(row), unicode.IsSpace)
			}
			lines = append(lines, prefix+text)
		}
	}
	return border.Width(m.width).Render(strings.Join(lines, "\n"))
}

// withCursor draws row with the cursor on rune col, within width columns.
func withCursor(row []rune, col, width int) string {
	col = min(max(col, 0), len(row))
	at := " "
	after := ""
	if col < len(row) {
		at = string(row[col])
		after = strings.TrimRightFunc(string(row[col+1:]), unicode.IsSpace)
	}
	before := string(row[:col])
	if w := strWidth(before) + strWidth(at); w > width {
		// The cursor sits past a full row: show the row's end.
		before = string(row[max(col-1, 0):col])
		after = ""
	}
	return before + cursorOn + at + cursorOff + after
}

// truncateWidth cuts s to width columns, ending it with "…" when cut.
func truncateWidth(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if strWidth(s) <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && strWidth(string(r))+1 > width {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

// strWidth is how many columns plain text s takes.
func strWidth(s string) int { return lipgloss.Width(s) }

// wrapInput wraps one line of the input as the bubbles textarea does (its
// wrap function, with the widths kept as it goes instead of measured again
// for every rune), so the rows drawn here are the rows its cursor moves
// over: words move whole to the next row, a word longer than a row is cut,
// and each row keeps the spaces after its words.
func wrapInput(runes []rune, width int) [][]rune {
	var (
		lines        = [][]rune{{}}
		word         []rune
		row, spaces  int
		rowW, wordW  int // the widths of lines[row] and of word
		lastCharLen  int
		appendSpaces = func(n int) {
			for range n {
				lines[row] = append(lines[row], ' ')
			}
		}
	)
	for _, r := range runes {
		if unicode.IsSpace(r) {
			spaces++
		} else {
			word = append(word, r)
			lastCharLen = runeWidth(r)
			wordW += lastCharLen
		}
		if spaces > 0 {
			if rowW+wordW+spaces > width {
				row++
				lines = append(lines, []rune{})
				rowW = 0
			}
			lines[row] = append(lines[row], word...)
			appendSpaces(spaces)
			rowW += wordW + spaces
			spaces, word, wordW = 0, nil, 0
		} else if wordW+lastCharLen > width {
			if len(lines[row]) > 0 {
				row++
				lines = append(lines, []rune{})
				rowW = 0
			}
			lines[row] = append(lines[row], word...)
			rowW += wordW
			word, wordW = nil, 0
		}
	}
	if rowW+wordW+spaces >= width {
		lines = append(lines, []rune{})
		row++
	}
	lines[row] = append(lines[row], word...)
	appendSpaces(spaces + 1)
	return lines
}

// runeWidth is how many columns r takes.
func runeWidth(r rune) int {
	if r < 0x300 && r >= 0x20 && r != 0x7f {
		return 1 // Latin text, the common case, without measuring
	}
	return strWidth(string(r))
}

// asText makes a key message of several runes plain text, to be typed and
// never taken for a key. Bubble Tea v1 splits input that arrives in one read
// without bracketed paste (a paste in a terminal without it, fast typing
// over a slow link) at spaces, so the letters "enter" or "ctrl+c" come as
// one message whose String() is that key's name, and would press it. As a
// paste, it matches no binding and is inserted. A CRLF line end in a paste
// becomes one line break, not two.
func asText(k tea.KeyMsg) tea.KeyMsg {
	if k.Type != tea.KeyRunes || k.Alt || (len(k.Runes) < 2 && !k.Paste) {
		return k
	}
	k.Paste = true
	if slices.Contains(k.Runes, '\r') {
		k.Runes = []rune(strings.ReplaceAll(string(k.Runes), "\r\n", "\n"))
	}
	return k
}

// keyKind is what a key message was, as far as telling typing from a paste
// goes.
type keyKind uint8

const (
	keyOther keyKind = iota
	keySpace         // a space: Bubble Tea splits a paste without bracketed paste there
	keyPaste         // a paste, or several runes at once (see asText)
)

// kindOf is the kind of k, once asText has made it text or not.
func kindOf(k tea.KeyMsg) keyKind {
	switch {
	case k.Paste:
		return keyPaste
	case k.Type == tea.KeySpace:
		return keySpace
	}
	return keyOther
}
