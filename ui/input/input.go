// Package input is the chat screen's input: the text being typed, edited
// by a bubbles textarea and drawn here, with prompt recall (↑ and ↓ through
// the prompt history), Tab completion of /commands and of paths (after
// /attach and in @ mentions, see Mentions) and the hint under the input,
// the handling of pastes that come without bracketed paste, the report of
// a pasted path (a file dropped on the terminal, only from a bracketed
// paste), and whether the text was typed by the user (Typed), which
// decides whether its @mentions may be sent unseen.
//
// Like the conversation and the picker, it is a child component: the chat
// screen passes it messages with Update, sizes it with SetSize and draws it
// with View. The screen decides what a key means first (enter sends, esc
// cancels); what it does not take goes to the input.
package input

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"muse/session/prompts"
	"muse/theme"
	"muse/ui/textfmt"
)

// The input is edited by a bubbles textarea, but drawn here: the textarea
// scrolls its own view only on keys, from what it drew last, so a long
// paste or a prompt put back into it left the cursor out of sight. Here the
// input grows with its wrapped rows, up to a third of the screen, then
// scrolls so the cursor row is always shown.

// Placeholder is what the empty input says, unless the screen sets another.
const Placeholder = "Ask anything · enter sends · alt+enter adds a line"

// cursorOn and cursorOff draw the cursor in reverse video, which is not a
// colour: it shows with NO_COLOR too, where lipgloss drops every style.
const (
	cursorOn  = "\x1b[7m"
	cursorOff = "\x1b[27m"
)

// prompt marks the first row of the input; later rows are indented as wide.
const prompt = "› "

// State is what the rest of the screen is doing, as far as the input shows
// it.
type State struct {
	// Busy: a reply is on its way; the border is not the focused one.
	Busy bool
	// Answering: a tool call waits for y, n or a; the input only says so.
	Answering bool
	// Selecting: a message is selected; the input shows no cursor.
	Selecting bool
}

// KeyMap is the keys the input handles itself: completion, prompt recall,
// and the textarea's moving and editing keys.
type KeyMap struct {
	Complete, Prev, Next                             key.Binding
	Newline, LineStart, LineEnd, WordLeft, WordRight key.Binding
	DeleteWord, DeleteToEnd, DeleteToStart           key.Binding
	// DeleteForward deletes the character under the cursor, as delete
	// does (ctrl+d, which quits on an empty input).
	DeleteForward key.Binding
}

// Model is the input. Copies share the textarea, which is large to copy.
type Model struct {
	ta      *textarea.Model
	th      *theme.Theme
	keys    KeyMap
	history *prompts.History // nil keeps none
	state   State

	// width is the screen's, maxRows the most rows shown; top is the first
	// row shown and rows how many show (see SetSize).
	width, maxRows, top, rows int

	// recall walks the prompt history; recalled is the prompt it put in.
	recall   *prompts.Recall
	recalled string
	// comp is the Tab completion being cycled; hintHidden is the value the
	// hint was closed on with esc (it shows again once the value changes).
	comp       completion
	hintHidden string
	// pathSeq numbers the path completions asked for: only the last one's
	// listing applies.
	pathSeq int
	// lastKey is the kind of the last key, and keyBefore that of the one
	// before the key being handled (see AfterPaste); sendPending is an
	// enter held by HoldSend, numbered sendSeq.
	lastKey, keyBefore keyKind
	sendPending        bool
	sendSeq            int
	// foreign is set once text the user did not type came into the input
	// (see Typed), until it is emptied; burst marks the key being handled
	// as several runes of one read that came without bracketed paste (see
	// Receive).
	foreign, burst bool

	memo *textfmt.Memo
	// more completes what slash.Completions does not (WithCompletions).
	more func(value string) []string
}

// New returns an empty input, focused, with the styles of th; history is
// the prompt history ↑ and ↓ recall and sent prompts go to (nil keeps none).
func New(th *theme.Theme, keys KeyMap, history *prompts.History) Model {
	ta := textarea.New()
	ta.KeyMap = textareaKeys(keys)
	ta.ShowLineNumbers = false
	ta.Prompt = prompt // drawn by View; set for the textarea's width
	ta.Placeholder = Placeholder
	ta.CharLimit = 0
	ta.MaxHeight = 0
	ta.SetHeight(1)                        // its own view is never drawn: see View
	ta.Cursor.SetMode(cursor.CursorStatic) // nothing ticks while nothing animates
	ta.Focus()
	return Model{ta: &ta, th: th, keys: keys, history: history, maxRows: 1, memo: &textfmt.Memo{}}
}

// textareaKeys gives the textarea the input's moving and editing keys and
// frees the ones the chat screen uses for itself: enter sends, home and
// end scroll, ctrl+t shows thinking.
func textareaKeys(k KeyMap) textarea.KeyMap {
	km := textarea.DefaultKeyMap
	km.InsertNewline = key.NewBinding(key.WithKeys(k.Newline.Keys()...))
	km.DeleteBeforeCursor = key.NewBinding(key.WithKeys(k.DeleteToStart.Keys()...))
	km.DeleteCharacterForward = key.NewBinding(key.WithKeys(append([]string{"delete"}, k.DeleteForward.Keys()...)...))
	km.LineStart = key.NewBinding(key.WithKeys(k.LineStart.Keys()...))
	km.LineEnd = key.NewBinding(key.WithKeys(k.LineEnd.Keys()...))
	km.WordBackward = key.NewBinding(key.WithKeys(k.WordLeft.Keys()...))
	km.WordForward = key.NewBinding(key.WithKeys(k.WordRight.Keys()...))
	km.DeleteWordBackward = key.NewBinding(key.WithKeys(k.DeleteWord.Keys()...))
	km.DeleteAfterCursor = key.NewBinding(key.WithKeys(k.DeleteToEnd.Keys()...))
	km.TransposeCharacterBackward = key.NewBinding(key.WithDisabled())
	return km
}

// SetSize fits the input to a screen width columns wide and height rows
// high: it grows with its wrapped rows up to a third of the height, and
// scrolls to its cursor.
func (m Model) SetSize(width, height int) Model {
	if width == m.width && max(height/3, 1) == m.maxRows {
		return m // fitted as the text changed
	}
	m.width, m.maxRows = width, max(height/3, 1)
	m.ta.SetWidth(width)
	return m.fit()
}

// SetState tells the input what the screen is doing.
func (m Model) SetState(s State) Model {
	answering := s.Answering != m.state.Answering
	m.state = s
	if answering {
		return m.fit() // one row, or the rows of the text
	}
	return m
}

// fit sets the rows shown and the first of them, for the text as it is.
func (m Model) fit() Model {
	if m.state.Answering {
		m.rows = 1
		return m
	}
	rows, cur, _ := m.wrapped()
	m.rows = min(max(len(rows), 1), m.maxRows)
	m.top = scrollTo(m.top, cur, m.rows, len(rows))
	return m
}

// Height is how many rows the input takes, its border aside.
func (m Model) Height() int { return m.rows }

// Value is the text in the input.
func (m Model) Value() string { return m.ta.Value() }

// SetValue puts text in the input, the cursor at its end. The text is not
// the user's typing (see Typed): it comes from the editor, the prompt
// history, a prompt being edited or put back.
func (m Model) SetValue(text string) Model {
	m = m.setText(text)
	m.foreign = text != ""
	return m
}

// setText puts text in the input, the cursor at its end, as a key of the
// user's own does (Tab completion): what was typed stays typed.
func (m Model) setText(text string) Model {
	m.ta.SetValue(text)
	return m.fit()
}

// Reset empties the input.
func (m Model) Reset() Model {
	m.ta.Reset()
	m.foreign = false
	return m.fit()
}

// Typed reports whether all the input's text was typed by the user, key
// by key or with Tab completion, since it was last empty. Text that came
// any other way may name files the user never chose: a paste (an email, a
// web page, a file dropped on the terminal), a burst of keys in one read
// (tmux send-keys, dictation), the text back from $EDITOR, a prompt
// recalled or edited. The files its @mentions name are attached only as
// chips, seen, before another enter sends them.
func (m Model) Typed() bool { return !m.foreign }

// SetPlaceholder sets what the input says while it is empty.
func (m Model) SetPlaceholder(s string) Model {
	m.ta.Placeholder = s
	return m
}

// Update handles a message: Tab and shift+tab complete a /command or a
// path (see paths.go), ↑ and ↓ walk the prompt history while the input is
// empty or shows a recalled prompt (see Owns), and the textarea takes the
// rest. A paste that is the path of a file is also reported, by the
// command returned, as PathPastedMsg.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, m.keys.Complete):
			return m.tab(1)
		case msg.Type == tea.KeyShiftTab:
			return m.tab(-1)
		case m.recalling(msg):
			return m.recallKey(key.Matches(msg, m.keys.Prev))
		}
		m.recall = nil
	case historyRefreshedMsg:
		return m.historyRefreshed(msg)
	case DraftKeptMsg:
		m.recall = nil // the next ↑ starts from the draft
		return m, nil
	case pathsListedMsg:
		return m.pathsListed(msg)
	}
	next, cmd := m.ta.Update(msg)
	*m.ta = next
	if k, ok := msg.(tea.KeyMsg); ok && k.Paste {
		m.foreign = true
		// Only a real paste may be a file dropped on the terminal: a burst
		// of keys is a sentence cut at its spaces (see Receive), whose
		// paths stay text.
		if !m.burst && len(k.Runes) <= maxDroppedPath {
			cmd = tea.Batch(cmd, pastedPath(string(k.Runes)))
		}
	}
	if m.ta.Value() == "" {
		m.foreign = false
	}
	return m.fit(), cmd
}

// Owns reports whether the key k completes a /command or walks the prompt
// history: keys that leave the rest of the screen as it is.
func (m Model) Owns(k tea.KeyMsg) bool {
	return key.Matches(k, m.keys.Complete) || k.Type == tea.KeyShiftTab || m.recalling(k)
}

// View draws the input: its border, the prompt marker, the rows in view and
// the cursor; the placeholder when it is empty; while a tool call waits for
// an answer, a line that says so.
func (m Model) View() string {
	li := m.ta.LineInfo()
	k := textfmt.Key(m.width, m.rows, m.top, m.state.Busy, m.state.Answering, m.state.Selecting, m.ta.Placeholder,
		m.ta.Line(), li.RowOffset, li.ColumnOffset, m.ta.Width(), m.ta.Value())
	return m.memo.Get(k, m.draw)
}

func (m Model) draw() string {
	st := m.th.Styles
	border := st.InputBorder
	if !m.state.Busy {
		border = st.InputBorderFocused
	}
	marker := st.InputMarker.Render(prompt)
	textWidth := max(m.width-lipgloss.Width(prompt), 1)
	var lines []string
	switch value := m.ta.Value(); {
	case m.state.Answering:
		lines = []string{marker + st.Warning.Render(textfmt.TruncateWidth("waiting for your answer above: y/n/a", textWidth))}
	case value == "" && m.state.Selecting:
		lines = []string{marker + st.Subtle.Render(textfmt.TruncateWidth("selecting a message · esc goes back to the input", textWidth))}
	case value == "":
		lines = []string{marker + cursorOn + " " + cursorOff + st.Subtle.Render(textfmt.TruncateWidth(m.ta.Placeholder, textWidth-1))}
	default:
		rows, cur, col := m.wrapped()
		h := max(m.rows, 1)
		top := scrollTo(m.top, cur, h, len(rows))
		pad := strings.Repeat(" ", lipgloss.Width(prompt))
		for i := top; i < min(top+h, len(rows)); i++ {
			prefix := pad
			if i == 0 {
				prefix = marker
			}
			row := rows[i]
			var text string
			if i == cur && !m.state.Selecting {
				text = withCursor(row, col, textWidth)
			} else {
				text = strings.TrimRightFunc(string(row), unicode.IsSpace)
			}
			lines = append(lines, prefix+text)
		}
	}
	return border.Width(m.width).Render(strings.Join(lines, "\n"))
}

// wrapped returns the input's text as the rows it wraps to, and the row
// and column (in runes) of the cursor.
func (m Model) wrapped() (rows [][]rune, cursorRow, cursorCol int) {
	width := max(m.ta.Width(), 1)
	line, info := m.ta.Line(), m.ta.LineInfo()
	for i, l := range strings.Split(m.ta.Value(), "\n") {
		grid := wrap([]rune(l), width)
		if i == line {
			cursorRow, cursorCol = len(rows)+info.RowOffset, info.ColumnOffset
		}
		rows = append(rows, grid...)
	}
	return rows, cursorRow, cursorCol
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
	if w := lipgloss.Width(before) + lipgloss.Width(at); w > width {
		// The cursor sits past a full row: show the row's end.
		before = string(row[max(col-1, 0):col])
		after = ""
	}
	return before + cursorOn + at + cursorOff + after
}

// wrap wraps one line of the input as the bubbles textarea does (its wrap
// function, with the widths kept as it goes instead of measured again for
// every rune), so the rows drawn here are the rows its cursor moves over:
// words move whole to the next row, a word longer than a row is cut, and
// each row keeps the spaces after its words.
func wrap(runes []rune, width int) [][]rune {
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
	return lipgloss.Width(string(r))
}
