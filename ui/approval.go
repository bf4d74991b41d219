package ui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"muse/ui/engine"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// The box above the input while a tool call waits: what will run (the
// command line, quoted as a shell would take it, and its working folder),
// then the input the tool gets, every line of it, wrapped to the width and
// scrolled with ↑↓ or pgup/pgdn when it does not fit.

// shellQuote writes argv as a shell command line: a word of safe
// characters as it is, one without $ ` \ " or ! in double quotes, any
// other in single quotes.
func shellQuote(argv []string) string {
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

// toolCommand is the command of the tool name, nil for a tool without one.
func (m Model) toolCommand(name string) []string {
	i := slices.IndexFunc(m.opts.Tools, func(t engine.Tool) bool { return t.Def.Name == name })
	if i < 0 {
		return nil
	}
	return m.opts.Tools[i].Command
}

// approvalBody is what the box shows under its title, wrapped to width:
// the command line and its folder, for a tool with a command, then the
// input.
func (m Model) approvalBody(width int) []string {
	t := m.turn
	call := t.ask.call
	var text []string
	if argv := m.toolCommand(call.Name); t.ask.hasCommand && len(argv) > 0 {
		text = append(text, "$ "+sanitize.Line(shellQuote(argv)))
		if dir := m.opts.WorkDir; dir != "" {
			text = append(text, "in "+sanitize.Line(textfmt.ShortPath(dir)))
		}
		text = append(text, "input, on its standard input:")
	}
	text = append(text, strings.Split(sanitize.Plain(textfmt.PrettyJSON(call.Input)), "\n")...)
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

// approvalInner is the width of the box's text.
func (m Model) approvalInner() int {
	return max(m.width-m.th.Styles.ToolBox.GetHorizontalFrameSize(), 8)
}

// approvalRoom is how many lines of the body the box shows: what the
// screen leaves once a line of conversation, the input, the bars and the
// box's border, title and keys are drawn, and half the screen at most; 0
// on a screen so small that the title and the keys share a line.
func (m Model) approvalRoom() int {
	frame := m.th.Styles.ToolBox.GetVerticalFrameSize()
	room := m.height - 1 /* header */ - 1 /* conversation */ - m.input.Height() - 1 /* rule */ - 1 /* status */ - m.helpHeight() - frame - 2 -
		m.editHeight() - m.chipsHeight() - m.queueHeight() - m.noticeHeight()
	return max(min(room, max(m.height/2-frame-2, 3)), 0)
}

// approvalView is the box above the input while a tool call waits: the
// tool, what will run, its input, and the keys that answer. It is "" the
// rest of the time.
func (m Model) approvalView() string {
	t := m.turn
	if t == nil || t.ask == nil || m.width <= 0 {
		return ""
	}
	st := m.th.Styles
	box := st.ToolBox.Width(max(m.width-2, 12)) // the width inside the border
	inner := m.approvalInner()
	name := sanitize.Line(t.ask.call.Name)
	title := "run tool " + name + "?"
	if srv := m.mcpServerOf(t.ask.call.Name); srv != "" {
		title = "run tool " + name + " of MCP server " + sanitize.Line(srv) + "?"
	}
	keys, short := "y yes · n no · a always", "y/n/a"
	if !t.ask.hasCommand {
		title = "tool " + name + " needs a result"
		keys, short = "type it below · enter sends · esc declines", "type it · enter · esc"
	}
	body := m.approvalBody(inner)
	room := m.approvalRoom()
	tiny := room == 0
	if tiny {
		room = 1
	}
	top := min(max(t.askTop, 0), max(len(body)-room, 0))
	shown := body[top:min(top+room, len(body))]
	if len(body) > room {
		keys += fmt.Sprintf(" · ↑↓ %d–%d of %d", top+1, top+len(shown), len(body))
		short += fmt.Sprintf(" · ↑↓ %d/%d", top+1, len(body))
	}
	var lines []string
	if tiny { // the title and the keys share a line
		line := title + " " + keys
		if len([]rune(line)) > inner {
			line = title + " " + short
		}
		lines = append(lines, st.ToolTitle.Render(textfmt.TruncateWidth(line, inner)))
	} else {
		lines = append(lines, st.ToolTitle.Render(textfmt.TruncateWidth(title, inner)))
	}
	lines = append(lines, shown...)
	if !tiny {
		if len([]rune(keys)) > inner {
			keys = short
		}
		lines = append(lines, st.Warning.Render(textfmt.TruncateWidth(keys, inner)))
	}
	return box.Render(strings.Join(lines, "\n"))
}

// scrollApproval scrolls the box's body by the key k (↑↓ for a command's
// approval, pgup/pgdn for both kinds); it reports whether k scrolls.
func (m Model) scrollApproval(k tea.KeyMsg) (Model, bool) {
	t := m.turn
	page := max(m.approvalRoom(), 1)
	step := 0
	switch {
	case key.Matches(k, m.keys.PageUp):
		step = -page
	case key.Matches(k, m.keys.PageDown):
		step = page
	case t.ask.hasCommand && k.Type == tea.KeyUp:
		step = -1
	case t.ask.hasCommand && k.Type == tea.KeyDown:
		step = 1
	default:
		return m, false
	}
	last := max(len(m.approvalBody(m.approvalInner()))-page, 0)
	t.askTop = min(max(t.askTop+step, 0), last)
	return m.layout(), true
}
