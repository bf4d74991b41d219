// Package input is the chat screen's input: the text being typed, edited
// and drawn here, with prompt recall (↑ and ↓ through
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
//
// The text is edited by muse's own small editor (editor.go), not the
// bubbles textarea, which moves, deletes and wraps by code point and
// measures each rune on its own: its cursor stopped inside 👍🏽, 🇫🇷,
// 👨‍👩‍👧 and between a letter and its combining accent, a key typed there
// split the character (the session stored "👍#🏽"), and it wrapped rows
// where the screen, which measures clusters, did not, so the cursor was
// drawn columns away from where text went. The editor edits, selects,
// moves by word and wraps by grapheme cluster (rivo/uniseg), and measures
// with textfmt.Width, the one width the screen is drawn with. It also
// draws from its own state, so the rows drawn are the rows it moves over,
// and the view scrolls to the cursor whatever put the text there.
package input

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/rivo/uniseg"

	"muse/session/prompts"
	"muse/theme"
	"muse/ui/menu"
	"muse/ui/slash"
	"muse/ui/textfmt"
)

// The input grows with its wrapped rows, up to a third of the screen, then
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
	// Form: an MCP server's form has the keys; the input shows no cursor,
	// and, empty, says so instead of its placeholder.
	Form bool
}

// KeyMap is the keys the input handles itself: completion, prompt recall,
// and the moving and editing keys. Besides these, ← → (ctrl+b, ctrl+f)
// move by character, shift+← shift+→ select, backspace and delete delete,
// and ↑ ↓ (ctrl+p, ctrl+n) move between rows.
type KeyMap struct {
	Complete, Prev, Next                             key.Binding
	Newline, LineStart, LineEnd, WordLeft, WordRight key.Binding
	DeleteWord, DeleteToEnd, DeleteToStart           key.Binding
	// DeleteForward deletes the character under the cursor, as delete
	// does (ctrl+d, which quits on an empty input).
	DeleteForward key.Binding
	// Search starts a search of the past prompts (ctrl+r; SearchKey when
	// unbound); MenuUp and MenuDown move the menu's mark (↑ ↓ when
	// unbound).
	Search, MenuUp, MenuDown key.Binding
}

// withDefaults fills the bindings km leaves unset with the input's own.
func (km KeyMap) withDefaults() KeyMap {
	if len(km.Search.Keys()) == 0 {
		km.Search = SearchKey
	}
	menuKeys := menu.DefaultKeyMap()
	if len(km.MenuUp.Keys()) == 0 {
		km.MenuUp = menuKeys.Up
	}
	if len(km.MenuDown.Keys()) == 0 {
		km.MenuDown = menuKeys.Down
	}
	return km
}

// menuKeys is the menu's KeyMap with the input's keys to move.
func (km KeyMap) menuKeys() menu.KeyMap {
	mk := menu.DefaultKeyMap()
	mk.Up, mk.Down = km.MenuUp, km.MenuDown
	return mk
}

// Model is the input. It is a value: a copy keeps its own text, as the
// chat screen's model, which copies it on every message, relies on.
type Model struct {
	ed          editor
	placeholder string
	th          *theme.Theme
	keys        *KeyMap          // shared by the copies: never changed after New
	history     *prompts.History // nil keeps none
	state       State

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
	// pathSeq numbers the completions asked for (a path's, a server's):
	// only the last one's answer applies.
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
	// given is the text SetValue last put in (a failed prompt put back, a
	// prompt recalled), until the input is emptied: a /command typed after
	// it is a command (see CommandAfter).
	given string

	memo *textfmt.Memo

	// menu is the live menu under the input (see menu.go): target is what
	// it completes, files the walk of the working folder it lists, and
	// menuWasFiles whether it listed files after the key before.
	menu         menu.Model
	target       menuTarget
	files        *fileCache
	menuWasFiles bool
	// search is the ctrl+r search under way, nil when none (see
	// search.go); session is the session the last prompt was sent in,
	// shared by the copies.
	search  *searchState
	session *string
	// sessionPrompts are the prompts of the session the screen shows, as
	// its journal held them when it was opened (see SetSession), shared by
	// the copies.
	sessionPrompts *[]string
	// more completes what slash.Completions does not (WithCompletions);
	// ask what a server completes (WithAskedCompletions).
	more func(value string) []string
	ask  func(value string) func() ([]string, error)
	// sources are what the @ menu lists besides files (WithSources).
	sources Sources
	// models is the service's models list, which /model completes from;
	// nil until WithModels.
	models *slash.Models
}

// New returns an empty input, focused, with the styles of th; history is
// the prompt history ↑ and ↓ recall and sent prompts go to (nil keeps none).
func New(th *theme.Theme, keys KeyMap, history *prompts.History) Model {
	keys = keys.withDefaults()
	return Model{ed: newEditor(), placeholder: Placeholder, th: th, keys: &keys, history: history, maxRows: 1, memo: &textfmt.Memo{},
		menu: menu.New(keys.menuKeys()), files: &fileCache{}, session: new(string), sessionPrompts: new([]string)}
}

// SetSize fits the input to a screen width columns wide and height rows
// high: it grows with its wrapped rows up to a third of the height, and
// scrolls to its cursor.
func (m Model) SetSize(width, height int) Model {
	if width == m.width && max(height/3, 1) == m.maxRows {
		return m // fitted as the text changed
	}
	m.width, m.maxRows = width, max(height/3, 1)
	m.menu = m.menu.SetSize(width, min(menuRows, max(height/4, 1)))
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
	rows, cur := m.wrapped()
	m.rows = min(max(len(rows), 1), m.maxRows)
	m.top = scrollTo(m.top, cur, m.rows, len(rows))
	return m
}

// Height is how many rows the input takes, its border aside.
func (m Model) Height() int { return m.rows }

// Value is the text in the input.
func (m Model) Value() string { return m.ed.value() }

// SetValue puts text in the input, the cursor at its end. The text is not
// the user's typing (see Typed): it comes from the editor, the prompt
// history, a prompt being edited or put back.
func (m Model) SetValue(text string) Model {
	m = m.setText(text)
	m.foreign, m.given, m.search = text != "", text, nil
	return m.closeMenu()
}

// setText puts text in the input, the cursor at its end, as a key of the
// user's own does (Tab completion): what was typed stays typed.
func (m Model) setText(text string) Model {
	m.ed.setValue(text)
	return m.fit()
}

// Reset empties the input.
func (m Model) Reset() Model {
	m.ed.setValue("")
	m.foreign, m.given, m.search = false, "", nil
	m = m.closeMenu()
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
	m.placeholder = s
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
		if next, ok := m.menuKey(msg); ok {
			return next, nil
		}
		if key.Matches(msg, m.keys.Search) {
			return m.startSearch()
		}
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
	case askedMsg:
		return m.asked(msg)
	case filesListedMsg:
		return m.filesListed(msg)
	case searchRefreshedMsg:
		return m.searchRefreshed(msg)
	}
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	m.edit(k)
	var cmd tea.Cmd
	if k.Paste {
		m.foreign = true
		// Only a real paste may be a file dropped on the terminal: a burst
		// of keys is a sentence cut at its spaces (see Receive), whose
		// paths stay text.
		if !m.burst && len(k.Runes) <= maxDroppedPath {
			cmd = tea.Batch(cmd, pastedPath(string(k.Runes)))
		}
	}
	if m.ed.value() == "" {
		m.foreign, m.given = false, ""
	}
	if k.Paste && m.search == nil {
		m = m.closeMenu()
	} else {
		var mc tea.Cmd
		m, mc = m.syncMenu()
		cmd = tea.Batch(cmd, mc)
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
	e := &m.ed
	a, b := e.order()
	k := textfmt.Key(m.width, m.rows, m.top, m.state.Busy, m.state.Answering, m.state.Selecting, m.state.Form, m.placeholder, m.search != nil,
		e.row, e.col, e.selecting, a.row, a.col, b.row, b.col, e.value())
	return m.memo.Get(k, m.draw)
}

// textWidth is how many columns the text has, beside the prompt marker.
func (m Model) textWidth() int { return max(m.width-textfmt.Width(prompt), 1) }

func (m Model) draw() string {
	st := m.th.Styles
	border := st.InputBorder
	if !m.state.Busy {
		border = st.InputBorderFocused
	}
	marker := st.InputMarker.Render(prompt)
	textWidth := m.textWidth()
	var lines []string
	switch value := m.ed.value(); {
	case m.state.Answering:
		lines = []string{marker + st.Warning.Render(textfmt.TruncateWidth("waiting for your answer above: y/n/a", textWidth))}
	case value == "" && m.state.Form:
		lines = []string{marker + st.Subtle.Render(textfmt.TruncateWidth("the form above has the keys · ctrl+l gives them back", textWidth))}
	case value == "" && m.state.Selecting:
		lines = []string{marker + st.Subtle.Render(textfmt.TruncateWidth("selecting a message · esc goes back to the input", textWidth))}
	case value == "":
		placeholder := m.placeholder
		if m.search != nil {
			placeholder = searchPlaceholder
		}
		lines = []string{marker + cursorOn + " " + cursorOff + st.Subtle.Render(textfmt.TruncateWidth(placeholder, textWidth-1))}
	default:
		rows, cur := m.wrapped()
		h := max(m.rows, 1)
		top := scrollTo(m.top, cur, h, len(rows))
		pad := strings.Repeat(" ", textfmt.Width(prompt))
		for i := top; i < min(top+h, len(rows)); i++ {
			prefix := pad
			if i == 0 {
				prefix = marker
			}
			lines = append(lines, prefix+m.drawRow(rows[i], i == cur && !m.state.Selecting && !m.state.Form, textWidth))
		}
	}
	return border.Width(m.width).Render(strings.Join(lines, "\n"))
}

// row is a row of the input as drawn: a span of one of its lines.
type row struct {
	line int
	span
}

// wrapped returns the input's text as the rows it wraps to, and the row of
// the cursor.
func (m Model) wrapped() (rows []row, cursorRow int) {
	e := &m.ed
	for i, l := range e.lines {
		spans := wrapLine(l, m.textWidth())
		if i == e.row {
			cursorRow = len(rows) + rowOf(spans, e.col)
		}
		for _, s := range spans {
			rows = append(rows, row{i, s})
		}
	}
	return rows, cursorRow
}

// drawRow draws the row r within width columns: the selection, and the
// cursor when withCursor, in reverse video, each on whole clusters; the
// spaces at its end are left out, but for the cursor's. A cursor past a
// full row (on the spaces a row keeps past its width) shows at its end.
func (m Model) drawRow(r row, withCursor bool, width int) string {
	e := &m.ed
	line := e.lines[r.line]
	selFrom, selTo := -1, -1
	if e.selecting {
		a, b := e.order()
		if a.row <= r.line && r.line <= b.row {
			selFrom, selTo = 0, len(line)
			if a.row == r.line {
				selFrom = a.col
			}
			if b.row == r.line {
				selTo = b.col
			}
		}
	}
	end := r.end
	for end > r.start {
		p := prevCluster(line[:end], end)
		if p < r.start || !isSpace(line[p:end]) || (withCursor && e.col >= p && e.col < r.end) || (p >= selFrom && p < selTo) {
			break
		}
		end = p
	}
	cursorCol := -1
	if withCursor {
		cursorCol = e.col
		at := 1 // the cursor's cell: a space after the text, else its cluster
		if e.col < len(line) {
			at = max(textfmt.Width(line[e.col:nextCluster(line, e.col)]), 1)
		}
		if textfmt.Width(line[r.start:e.col])+at > width {
			// The cursor sits past a full row: show it on the row's end.
			return m.drawSpan(line, r.start, r.end, -1, selFrom, selTo, width-1) + cursorOn + " " + cursorOff
		}
	}
	s := m.drawSpan(line, r.start, end, cursorCol, selFrom, selTo, width)
	if cursorCol >= end {
		s += cursorOn + " " + cursorOff
	}
	return s
}

// drawSpan draws line[start:end], cut to width columns, with the cluster
// at byte cursor and those selected (from selFrom to selTo) in reverse
// video.
func (m Model) drawSpan(line string, start, end, cursor, selFrom, selTo, width int) string {
	var b strings.Builder
	w, on := 0, false
	for i := start; i < end; {
		c, _, _, _ := uniseg.FirstGraphemeClusterInString(line[i:end], -1)
		cw := textfmt.Width(c)
		if w+cw > width {
			break
		}
		if rev := i == cursor || (i >= selFrom && i < selTo); rev != on {
			on = rev
			if rev {
				b.WriteString(cursorOn)
			} else {
				b.WriteString(cursorOff)
			}
		}
		b.WriteString(c)
		w += cw
		i += len(c)
	}
	if on {
		b.WriteString(cursorOff)
	}
	return b.String()
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
