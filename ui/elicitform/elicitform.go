// Package elicitform is the chat screen's form for an MCP server's request
// for input (elicitation/create): one line per field, the focused one with
// its description and choices, and the keys that answer. Enter checks the
// answer against the server's schema (mcp.Elicitation.Accept) and sends
// it, or shows what is wrong and keeps the form; esc declines. It does no
// I/O: answering only hands the result to the waiting server's goroutine.
//
// The form opens without the keys: it is drawn above the input, and takes
// the keys only when the user presses its Focus key (ctrl+l), which its
// last line names; until then every key goes to the input as before, and
// the same key gives them back to it. The server picks when its form
// appears, and a person typing does not look up at every key: a form that
// took the keys at once would get the rest of a word, and the enter meant
// for the prompt would send it (an attacker's server opened one mid-word
// and got "r2" of "hunter2"). A grace time after it appears only moves the
// race, and muse cannot know when a person saw it; one deliberate key
// cannot be typed by accident as part of a message, costs a keystroke a
// form, and leaves what was typed in the input, whole. Crush's dialogs
// take the keys as they open; the form keeps their look (a box with its
// keys on its last line), not that, since a server, not the user, picks
// the moment it opens.
package elicitform

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"muse/theme"
	"muse/ui/mcp"
	"muse/ui/textfmt"
)

// KeyMap holds the form's keys.
type KeyMap struct {
	Next, Prev, Send, Decline key.Binding
	// Focus gives the keys to the form, and back to the input: a key no
	// message holds, bound to nothing else on the chat screen.
	Focus key.Binding
}

// DefaultKeyMap returns the form's keys: ctrl+l takes the keys and gives
// them back, tab and ↓ move on, shift+tab and ↑ back, enter sends, esc
// declines.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Focus:   key.NewBinding(key.WithKeys("ctrl+l"), key.WithHelp("ctrl+l", "answer the form")),
		Next:    key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab", "next field")),
		Prev:    key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab", "previous")),
		Send:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		Decline: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "decline")),
	}
}

// Model is the form of one request; the zero Model is no form.
type Model struct {
	e      *mcp.Elicitation
	inputs []textinput.Model
	focus  int
	// focused: the form has the keys (KeyMap.Focus); it opens without.
	focused bool
	err     string
	width   int
	height  int     // rows the whole box may take; 0: as many as it needs
	keys    *KeyMap // shared by the copies: never changed after New
	th      *theme.Theme
}

// New returns the form of e, each field holding its default, without the
// keys (see the package doc).
func New(e *mcp.Elicitation, th *theme.Theme, keys KeyMap) Model {
	m := Model{e: e, keys: &keys, th: th}
	for _, f := range e.Fields {
		in := textinput.New()
		in.Prompt = ""
		in.CharLimit = 4096
		in.SetValue(f.Default)
		m.inputs = append(m.inputs, in)
	}
	return m
}

// Active reports whether the form is open.
func (m Model) Active() bool { return m.e != nil }

// Focused reports whether the form has the keys.
func (m Model) Focused() bool { return m.e != nil && m.focused }

// SetFocused gives the keys to the form (true) or back to the input.
func (m Model) SetFocused(on bool) Model {
	if m.e == nil || m.focused == on {
		return m
	}
	m.focused = on
	if len(m.inputs) > 0 {
		m.inputs = append([]textinput.Model(nil), m.inputs...) // copies share none
		if on {
			m.inputs[m.focus].Focus()
		} else {
			m.inputs[m.focus].Blur()
		}
	}
	return m
}

// Elicitation is the request the form answers.
func (m Model) Elicitation() *mcp.Elicitation { return m.e }

// KeyMap returns the form's keys, for the help line.
func (m Model) KeyMap() KeyMap {
	if m.keys == nil {
		return KeyMap{}
	}
	return *m.keys
}

// SetSize sets the width the form takes and the rows it may take at most
// (0: as many as it needs). A form taller than that shows the fields
// around the focused one, and says how many more are above and below.
func (m Model) SetSize(width, height int) Model {
	m.width, m.height = width, height
	return m
}

// ShortHelp is the key line while the form has the keys: what answers
// it, and the key that gives the keys back to the input.
func (m Model) ShortHelp() []key.Binding {
	k := m.KeyMap()
	return []key.Binding{k.Send, k.Next, k.Decline,
		key.NewBinding(key.WithKeys(k.Focus.Keys()...), key.WithHelp(k.Focus.Help().Key, "back to the input"))}
}

// Update handles a message while the form has the keys; the form closes
// (Active false) once answered, and the Focus key gives the keys back.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if !m.Focused() {
		return m, nil
	}
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		var cmd tea.Cmd
		if len(m.inputs) > 0 {
			m.inputs[m.focus], cmd = m.inputs[m.focus].Update(msg)
		}
		return m, cmd
	}
	switch {
	case key.Matches(k, m.keys.Focus):
		return m.SetFocused(false), nil
	case key.Matches(k, m.keys.Decline):
		m.e.Decline()
		return Model{}, nil
	case key.Matches(k, m.keys.Send):
		typed := map[string]string{}
		for i, f := range m.e.Fields {
			typed[f.Name] = m.inputs[i].Value()
		}
		if err := m.e.Accept(typed); err != nil {
			m.err = err.Error()
			return m, nil
		}
		return Model{}, nil
	case key.Matches(k, m.keys.Next):
		return m.move(1), nil
	case key.Matches(k, m.keys.Prev):
		return m.move(-1), nil
	}
	if len(m.inputs) == 0 {
		return m, nil
	}
	var cmd tea.Cmd
	m.inputs[m.focus], cmd = m.inputs[m.focus].Update(msg)
	m.err = ""
	return m, cmd
}

func (m Model) move(d int) Model {
	if len(m.inputs) == 0 {
		return m
	}
	m.inputs = append([]textinput.Model(nil), m.inputs...) // copies share none
	m.inputs[m.focus].Blur()
	m.focus = (m.focus + d + len(m.inputs)) % len(m.inputs)
	if m.focused {
		m.inputs[m.focus].Focus()
	}
	return m
}

func (m Model) labelWidth() int {
	w := 0
	if m.e == nil {
		return 0
	}
	for _, f := range m.e.Fields {
		w = max(w, textfmt.Width(label(f)))
	}
	return min(w, 32)
}

func label(f mcp.Field) string {
	l := f.Title
	if l == "" {
		l = f.Name
	}
	if f.Required {
		l += "*"
	}
	return l
}

// View draws the form in a box as wide as SetSize said, and no taller
// than it said: when the fields do not fit, those around the focused one,
// with "↑ N more" and "↓ N more" where others are. A value wider than its
// column wraps under the column, never to the box's edge.
func (m Model) View() string {
	if m.e == nil || m.width <= 0 {
		return ""
	}
	st := m.th.Styles
	inner := max(m.width-4, 8)
	top := []string{st.ToolTitle.Render(textfmt.TruncateWidth("MCP server "+m.e.Server+" asks: "+firstLine(m.e.Message), inner))}
	var bottom []string
	if m.err != "" {
		bottom = append(bottom, st.Warning.Render(textfmt.TruncateWidth(m.err, inner)))
	}
	bottom = append(bottom, st.Subtle.Render(textfmt.TruncateWidth(m.footer(), inner)))
	blocks := make([][]string, len(m.e.Fields))
	lw := min(m.labelWidth(), max(inner/3, 4)) // the labels' column, measured once
	for i := range m.e.Fields {
		blocks[i] = m.field(i, inner, lw)
	}
	rows := 0
	for _, b := range blocks {
		rows += len(b)
	}
	var lines []string
	if avail := m.height - 2 /* border */ - len(top) - len(bottom); m.height <= 0 || rows <= avail {
		lines = append(lines, top...)
		for _, b := range blocks {
			lines = append(lines, b...)
		}
	} else {
		lines = append(top, m.window(blocks, max(avail, 1), st.Subtle.Render)...)
	}
	lines = append(lines, bottom...)
	return textfmt.Render(st.ToolBox.Width(max(m.width-2, 12)), strings.Join(lines, "\n"))
}

// window is as many fields as fit in avail rows, the focused one among
// them (cut when it alone does not fit), with a line saying how many more
// are above and below when some are.
func (m Model) window(blocks [][]string, avail int, subtle func(...string) string) []string {
	f := m.focus
	first, last := f, f+1 // the fields shown: [first, last)
	used := len(blocks[f])
	more := func() int { // the lines "↑ N more" and "↓ N more" take
		n := 0
		if first > 0 {
			n++
		}
		if last < len(blocks) {
			n++
		}
		return n
	}
	for grew := true; grew; {
		grew = false
		if last < len(blocks) {
			l := last + 1
			n := 0
			if first > 0 {
				n++
			}
			if l < len(blocks) {
				n++
			}
			if used+len(blocks[last])+n <= avail {
				used += len(blocks[last])
				last, grew = l, true
			}
		}
		if first > 0 {
			fi := first - 1
			n := 0
			if fi > 0 {
				n++
			}
			if last < len(blocks) {
				n++
			}
			if used+len(blocks[fi])+n <= avail {
				used += len(blocks[fi])
				first, grew = fi, true
			}
		}
	}
	var out []string
	if first > 0 {
		out = append(out, subtle(fmt.Sprintf("  ↑ %d more", first)))
	}
	for _, b := range blocks[first:last] {
		if keep := avail - more(); len(b) > keep { // the focused field alone
			b = b[:max(keep, 1)]
		}
		out = append(out, b...)
	}
	if last < len(blocks) {
		out = append(out, subtle(fmt.Sprintf("  ↓ %d more", len(blocks)-last)))
	}
	return out
}

// field is the lines of field i in inner columns, its label in a column
// lw wide: its label and value, the value wrapped under its column, and,
// when focused, its help.
func (m Model) field(i, inner, lw int) []string {
	f := m.e.Fields[i]
	mark := "  "
	if i == m.focus && m.focused {
		mark = "› "
	}
	l := textfmt.TruncateWidth(label(f), lw)
	prefix := mark + l + strings.Repeat(" ", max(lw-textfmt.Width(l), 0)) + "  "
	col := max(inner-textfmt.Width(prefix), 4)
	var rows []string
	if i == m.focus && m.focused {
		in := m.inputs[i]
		in.Width = max(col-1, 1) // and a column for the cursor
		rows = []string{prefix + in.View()}
	} else {
		pad := strings.Repeat(" ", textfmt.Width(prefix))
		for j, r := range strings.Split(textfmt.Wrap(m.inputs[i].Value(), col), "\n") {
			r = textfmt.Cut(r, col)
			if j == 0 {
				rows = append(rows, prefix+r)
			} else {
				rows = append(rows, pad+r)
			}
		}
	}
	if i == m.focus {
		if about := about(f); about != "" {
			rows = append(rows, m.th.Styles.Subtle.Render(textfmt.TruncateWidth("    "+about, inner)))
		}
	}
	return rows
}

// about is the focused field's help: its description, its choices, its
// format.
func about(f mcp.Field) string {
	var parts []string
	if f.Description != "" {
		parts = append(parts, f.Description)
	}
	switch {
	case len(f.Labels) > 0 && f.Type == "array":
		parts = append(parts, "some of: "+strings.Join(f.Labels, ", "))
	case len(f.Labels) > 0:
		parts = append(parts, "one of: "+strings.Join(f.Labels, ", "))
	case f.Type == "boolean":
		parts = append(parts, "yes or no")
	case f.Format != "":
		parts = append(parts, f.Format)
	}
	return strings.Join(parts, " · ")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// footer says which keys answer: while the input has them, the one that
// gives them to the form.
func (m Model) footer() string {
	f := m.keys.Focus.Help().Key
	if !m.focused {
		return f + " answers the form · until then you type in the input"
	}
	return "enter sends · tab next field · esc declines · " + f + " back to the input"
}
