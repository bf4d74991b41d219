// Package approval is the box above the chat screen's input while a tool
// call waits for the user, and the session's approval mode.
//
// The box shows what will run (the command line, quoted as a shell would
// take it, and its working folder), then the input the tool gets, every
// line of it, wrapped to the width and scrolled with ↑↓ or pgup/pgdn when
// it does not fit, and the keys that answer. After n the box asks why:
// the reason is typed in the chat's input and goes to the model as the
// tool's result. The mode is ask (each call is put to the user) or all
// (every call of a tool with a command runs unasked, for the rest of the
// session), switched by shift+tab or /approve; it is said on the status
// line all the while it is all.
//
// Like crush's permission dialog, it is a component of its own: the root
// model routes the keys to it and composes its view. It does no I/O; the
// answer itself goes to the engine through the root.
package approval

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"muse/theme"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// KeyMap holds the box's keys: those that scroll its body, the one that
// switches the session's mode, and those that send or decline a typed
// result (see Key).
type KeyMap struct {
	PageUp, PageDown key.Binding
	// Mode switches between ask and all (shift+tab).
	Mode         key.Binding
	Send, Cancel key.Binding
}

// Call is the tool call the box shows.
type Call struct {
	// Name is the tool's name; Server the MCP server that offers it, ""
	// for muse's own tools.
	Name, Server string
	// Command is what muse runs for it, nil for an MCP tool or a tool
	// without one; Dir is the folder it runs in.
	Command []string
	Dir     string
	// Input is the call's input, as the model wrote it.
	Input json.RawMessage
	// HasCommand is false for a tool whose result the user types.
	HasCommand bool
}

// Model is the box and the session's approval mode.
type Model struct {
	th    *theme.Theme
	keys  *KeyMap // shared by the copies: never changed after New
	width int
	room  int // lines of the body shown; 0: the title and the keys share a line
	call  *Call
	top   int
	// declining is set once n was pressed: the input takes the reason.
	declining bool
	all       bool
	// always are the tools allowed with "a" for the session; a copy
	// made anew at each change, as the model is copied by value.
	always map[string]bool
}

// New returns the box, closed, in the ask mode.
func New(th *theme.Theme, keys KeyMap) Model { return Model{th: th, keys: &keys} }

// SetTheme draws the box in th.
func (m Model) SetTheme(th *theme.Theme) Model {
	m.th = th
	return m
}

// SetSize gives the box the screen's width and room lines for its body.
func (m Model) SetSize(width, room int) Model {
	m.width, m.room = width, room
	return m
}

// Open shows the call c, scrolled to its top.
func (m Model) Open(c Call) Model {
	m.call, m.top, m.declining = &c, 0, false
	return m
}

// Close hides the box.
func (m Model) Close() Model {
	m.call, m.declining = nil, false
	return m
}

// Open reports whether a call is shown.
func (m Model) IsOpen() bool { return m.call != nil }

// Decline asks for the reason of a no: the input takes it.
func (m Model) Decline() Model {
	m.declining = m.call != nil
	return m
}

// Declining says whether the reason of a no is being typed.
func (m Model) Declining() bool { return m.call != nil && m.declining }

// Always says whether the tool name was allowed with "a" this session.
func (m Model) Always(name string) bool { return m.always[name] }

// Allow allows the tool name for the rest of the session ("a always").
func (m Model) Allow(name string) Model {
	always := make(map[string]bool, len(m.always)+1)
	for k, v := range m.always {
		always[k] = v
	}
	always[name] = true
	m.always = always
	return m
}

// Forget forgets the tools allowed: another session asks again.
func (m Model) Forget() Model {
	m.always = nil
	return m
}

// All says whether every call of a tool with a command runs unasked.
func (m Model) All() bool { return m.all }

// SetAll sets the mode: all, or ask.
func (m Model) SetAll(all bool) Model {
	m.all = all
	return m
}

// ModeNotice says what the mode now is, for the status line.
func (m Model) ModeNotice() string {
	first, _, _ := strings.Cut(m.keys.Mode.Help().Key, "/")
	if m.all {
		return "approve all: every tool call runs unasked for the rest of the session · " + first + " or /approve ask asks again"
	}
	return "approve ask: each tool call waits for your answer · " + first + " or /approve all runs them unasked"
}

// Setting is how the status line names the mode while it is all, in a
// long and a short form; "" in the ask mode.
func (m Model) Setting() (long, short string) {
	if !m.all {
		return "", ""
	}
	return "approve all", "all!"
}

// Update scrolls the box's body by the key k (↑↓ for a command's
// approval, pgup/pgdn for both kinds); it reports whether k scrolls.
func (m Model) Update(k tea.KeyMsg) (Model, bool) {
	if m.call == nil {
		return m, false
	}
	page := max(m.room, 1)
	step := 0
	switch {
	case key.Matches(k, m.keys.PageUp):
		step = -page
	case key.Matches(k, m.keys.PageDown):
		step = page
	case m.call.HasCommand && k.Type == tea.KeyUp:
		step = -1
	case m.call.HasCommand && k.Type == tea.KeyDown:
		step = 1
	default:
		return m, false
	}
	last := max(len(m.Body())-page, 0)
	m.top = min(max(m.top+step, 0), last)
	return m, true
}

// inner is the width of the box's text.
func (m Model) inner() int {
	return max(m.width-m.th.Styles.ToolBox.GetHorizontalFrameSize(), 8)
}

// Frame is how many lines the box takes beside its body: its border, its
// title and its keys.
func (m Model) Frame() int { return m.th.Styles.ToolBox.GetVerticalFrameSize() + 2 }

// Body is what the box shows under its title, wrapped to its width: the
// command line and its folder, for a tool with a command, then the input.
func (m Model) Body() []string {
	c := m.call
	if c == nil {
		return nil
	}
	width := m.inner()
	var text []string
	if c.HasCommand && len(c.Command) > 0 {
		text = append(text, "$ "+sanitize.Line(ShellQuote(c.Command)))
		if c.Dir != "" {
			text = append(text, "in "+sanitize.Line(textfmt.ShortPath(c.Dir)))
		}
		text = append(text, "input, on its standard input:")
	}
	text = append(text, strings.Split(sanitize.Plain(textfmt.PrettyJSON(c.Input)), "\n")...)
	var lines []string
	for _, l := range text {
		l = strings.TrimRight(l, " ")
		if l == "" {
			lines = append(lines, "")
			continue
		}
		lines = append(lines, strings.Split(ansi.Wrap(l, width, " ,"), "\n")...)
	}
	return lines
}

// View is the box: the tool, what will run, its input, and the keys that
// answer; "" while no call waits.
func (m Model) View() string {
	c := m.call
	if c == nil || m.width <= 0 {
		return ""
	}
	st := m.th.Styles
	box := st.ToolBox.Width(max(m.width-2, 12)) // the width inside the border
	inner := m.inner()
	name := sanitize.Line(c.Name)
	title := "run tool " + name + "?"
	if c.Server != "" {
		title = "run tool " + name + " of MCP server " + sanitize.Line(c.Server) + "?"
	}
	keys, short := "y yes · n no, say why · a always", "y/n/a"
	switch {
	case !c.HasCommand:
		title = "tool " + name + " needs a result"
		keys, short = "type it below · enter sends · esc declines", "type it · enter · esc"
	case m.declining:
		title = "not running " + name + ": why not?"
		keys, short = "type the reason below · enter sends it · esc declines without one", "reason · enter · esc"
	}
	body := m.Body()
	room := m.room
	tiny := room == 0
	if tiny {
		room = 1
	}
	top := min(max(m.top, 0), max(len(body)-room, 0))
	shown := body[top:min(top+room, len(body))]
	if len(body) > room {
		keys += fmt.Sprintf(" · ↑↓ %d–%d of %d", top+1, top+len(shown), len(body))
		short += fmt.Sprintf(" · ↑↓ %d/%d", top+1, len(body))
	}
	var lines []string
	if tiny { // the title and the keys share a line
		line := title + " " + keys
		if textfmt.Width(line) > inner {
			line = title + " " + short
		}
		lines = append(lines, st.ToolTitle.Render(textfmt.TruncateWidth(line, inner)))
	} else {
		lines = append(lines, st.ToolTitle.Render(textfmt.TruncateWidth(title, inner)))
	}
	lines = append(lines, shown...)
	if !tiny {
		if textfmt.Width(keys) > inner {
			keys = short
		}
		lines = append(lines, st.Warning.Render(textfmt.TruncateWidth(keys, inner)))
	}
	return textfmt.Render(box, strings.Join(lines, "\n"))
}

// ShortHelp is the key line while the box waits for y, n or a: short
// enough for 40 columns (the box itself says that n asks why, and ? lists
// the mode's key).
func (m Model) ShortHelp() []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes")),
		key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "no")),
		key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "always")),
		key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "no")),
	}
}

// ShellQuote writes argv as a shell command line: a word of safe
// characters as it is, one without $ ` \ " or ! in double quotes, any
// other in single quotes.
func ShellQuote(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		switch {
		case a != "" && strings.IndexFunc(a, func(r rune) bool { return !shellSafe(r) }) < 0:
			words[i] = a
		case !strings.ContainsAny(a, "$`\\\"!"):
			words[i] = `"` + a + `"`
		default:
			words[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(words, " ")
}

// shellSafe says whether r needs no quoting in a shell word.
func shellSafe(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_@%+=:,./-", r)
}
