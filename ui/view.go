package ui

import (
	"fmt"
	"math"
	"muse/ui/syncrun"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"muse/api"
	"muse/session"
	"muse/ui/input"
	"muse/ui/keyline"
	"muse/ui/sanitize"
	"muse/ui/slash"
	"muse/ui/textfmt"
)

// layout sizes the children to the window.
func (m Model) layout() Model {
	if m.width <= 0 || m.height <= 0 {
		return m
	}
	m.input = m.input.SetState(m.inputState()).SetSize(m.width, m.height)
	if m.w.help.Width != m.width {
		m.w = m.w.with(func(w *widgets) { w.help.Width = m.width })
	}
	m.noticeRows = m.noticeHeight()
	convHeight := m.height - 1 /* header */ - m.edit.Height() - m.chipsHeight() - m.queueHeight() - m.input.Height() - m.noticeHeight() - 1 /* border */ - 1 /* status */ - m.helpHeight() - m.approvalHeight() - m.elicitHeight()
	m.conv = m.conv.SetSize(m.width, max(convHeight, 1))
	return m
}

// inputState is what the input shows of the rest of the screen.
func (m Model) inputState() input.State {
	return input.State{Busy: m.turn != nil, Answering: m.waitingForApproval(), Selecting: m.sel.active}
}

// waitingForApproval reports whether a tool call waits for y, n or a: the
// input then only says so.
func (m Model) waitingForApproval() bool {
	return m.turn != nil && m.turn.ask != nil && m.turn.ask.hasCommand && !m.approve.Declining()
}

// updateInput passes msg to the input, then sizes the screen to its rows.
func (m Model) updateInput(msg tea.Msg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	before := m.input.Value()
	m.input, cmd = m.input.Update(msg)
	if m.input.Value() != before {
		m.mentioned = "" // a prompt typed again attaches its mentions again
	}
	return m.layout(), cmd
}

func (m Model) helpHeight() int {
	if v := m.helpView(); v != "" {
		return lipgloss.Height(v)
	}
	return 0
}

// mouseHelp says how to select text with the mouse while muse captures it.
const mouseHelp = "mouse: the wheel scrolls; shift+drag selects text to copy while muse has the mouse (--no-mouse or mouse = false in the profile leaves the mouse to the terminal)"

// helpView is the line under the status bar: the short keymap, the hint of
// the slash command being typed, or, with ?, every key and command.
func (m Model) helpView() string {
	st := m.th.Styles
	if m.height < minQueueHeight && m.waitingForApproval() && len(m.queue) > 0 && !m.w.help.ShowAll {
		// A small screen with a tool call and a queue: the box names its
		// keys, and the key line's row keeps the frame within the screen.
		return ""
	}
	if m.w.help.ShowAll {
		lines := m.helpLines()
		room := m.helpRoom()
		if len(lines) <= room {
			return strings.Join(lines, "\n")
		}
		top := m.helpTopClamped(len(lines))
		shown := append([]string{}, lines[top:top+room-1]...)
		footer := fmt.Sprintf("↑↓ pgup/pgdn scroll · %d–%d of %d · esc closes", top+1, top+room-1, len(lines))
		if ansi.StringWidth(footer) > m.width-1 {
			footer = fmt.Sprintf("↑↓ %d–%d/%d · esc", top+1, top+room-1, len(lines))
		}
		shown = append(shown, st.Muted.Render(textfmt.TruncateWidth(footer, max(m.width-1, 1))))
		return strings.Join(shown, "\n")
	}
	if m.sel.active {
		return m.w.help.ShortHelpView(m.keys.selectHelp())
	}
	if m.waitingForApproval() {
		return m.w.help.ShortHelpView(m.approve.ShortHelp())
	}
	if hint := m.input.Hint(); len(hint) > 0 {
		return st.Accent.Render(strings.Join(m.input.Hint(), "\n"))
	}
	// Narrow, keys drop from the middle: "? help" stays.
	return m.w.help.ShortHelpView(keyline.Fit(m.w.help, m.keys.ShortHelp(), m.width))
}

// helpLines are the lines of the ? overlay: every key and every command,
// wrapped to the width, never cut.
func (m Model) helpLines() []string {
	st := m.th.Styles
	width := max(m.width-1, 10)
	var keys []string
	for _, group := range m.keys.FullHelp() {
		for _, b := range group {
			if b.Enabled() {
				keys = append(keys, fmt.Sprintf("%-18s  %s", b.Help().Key, b.Help().Desc))
			}
		}
	}
	lines := twoColumns(keys, width)
	if lines == nil { // one key a line, wrapped
		for _, l := range keys {
			if m.width < 60 {
				k, d, _ := strings.Cut(l, "  ")
				l = fmt.Sprintf("%-13s  %s", strings.TrimSpace(k), strings.TrimSpace(d))
			}
			lines = append(lines, strings.Split(textfmt.WrapHanging(l, width), "\n")...)
		}
	}
	for i, l := range lines {
		lines[i] = st.Subtle.Render(l)
	}
	if v := m.notices.SetSize(width).View(); v != "" { // first, whole: the status line cuts them
		var head []string
		for _, l := range strings.Split(v, "\n") {
			head = append(head, st.Warning.Render(l))
		}
		lines = append(append(head, ""), lines...)
	}
	lines = append(lines, "")
	for _, l := range strings.Split(textfmt.Wrap(mouseHelp, width), "\n") {
		lines = append(lines, st.Subtle.Render(l))
	}
	lines = append(lines, "")
	for _, l := range slash.HelpLines() {
		if m.width < 60 { // the usage on a line, the help under it
			usage, help, _ := strings.Cut(l, "  ")
			l = usage + "\n" + textfmt.Wrap(strings.TrimSpace(help), width-2)
			l = strings.ReplaceAll(l, "\n", "\n  ")
		}
		for _, w := range strings.Split(textfmt.WrapHanging(l, width), "\n") {
			lines = append(lines, st.Subtle.Render(w))
		}
	}
	return append(lines, st.Muted.Render("esc or ? closes this help"))
}

// twoColumns sets lines side by side, the first half on the left, when
// both fit in width; nil when they do not.
func twoColumns(lines []string, width int) []string {
	half := (len(lines) + 1) / 2
	left := 0
	for _, l := range lines[:half] {
		left = max(left, ansi.StringWidth(l))
	}
	out := make([]string, half)
	for i := range half {
		out[i] = lines[i]
		if j := half + i; j < len(lines) {
			out[i] += strings.Repeat(" ", left-ansi.StringWidth(lines[i])+3) + lines[j]
		}
		if ansi.StringWidth(out[i]) > width {
			return nil
		}
	}
	return out
}

// helpRoom is how many lines the ? overlay takes at most: it leaves two
// lines of conversation, the header, the input and the status line.
func (m Model) helpRoom() int { return max(m.height-1-1-1-1-2, 2) }

// helpTopClamped is the first line of the overlay shown, of n.
func (m Model) helpTopClamped(n int) int {
	return min(max(m.helpTop, 0), max(n-(m.helpRoom()-1), 0))
}

// scrollHelp scrolls the ? overlay by the key k; it reports whether k
// scrolls it.
func (m Model) scrollHelp(k tea.KeyMsg) (Model, bool) {
	page := max(m.helpRoom()-2, 1)
	step := 0
	switch {
	case key.Matches(k, m.keys.PageUp, m.keys.HalfUp):
		step = -page
	case key.Matches(k, m.keys.PageDown, m.keys.HalfDown):
		step = page
	case k.Type == tea.KeyUp:
		step = -1
	case k.Type == tea.KeyDown:
		step = 1
	case key.Matches(k, m.keys.Top):
		step = -len(m.helpLines())
	case key.Matches(k, m.keys.Bottom):
		step = len(m.helpLines())
	default:
		return m, false
	}
	m.helpTop = m.helpTopClamped(len(m.helpLines())) + step
	m.helpTop = m.helpTopClamped(len(m.helpLines()))
	return m, true
}

// showsNotice says the status line shows the notice: nothing more pressing
// (a tool to approve, a reply or an image job under way) holds it.
func (m Model) showsNotice() bool {
	return m.notice != "" && m.toolPrompt() == "" && m.turn == nil && m.imaging == nil
}

// noticeLines is the notice as the status line shows it: wrapped to the
// room the settings leave, on at most two lines, the second cut with "…"
// when there is more; nil when the status line does not show it. A second
// line goes on the row above the status line, never onto the key help.
func (m Model) noticeLines() []string {
	if m.notice != "" && m.toolPrompt() == "" && (m.turn != nil || m.imaging != nil) {
		// The spinner keeps the status line: the notice goes on the row
		// above it, never hidden.
		return []string{textfmt.TruncateWidth(sanitize.Line(m.notice), max(m.width-1, 10)), ""}
	}
	if !m.showsNotice() {
		return nil
	}
	width := max(m.width-1-m.settingsWidth(), 10)
	lines := strings.Split(textfmt.Wrap(sanitize.Line(m.notice), width), "\n")
	if len(lines) > 2 {
		lines = []string{lines[0], ansi.Truncate(strings.Join(lines[1:], " "), width, "…")}
	}
	return lines
}

// noticeAbove is the first line of a notice of two, on the row above the
// status line; "" for a notice of one line.
func (m Model) noticeAbove() string {
	if l := m.noticeLines(); len(l) > 1 {
		return m.th.Styles.Warning.Render(l[0])
	}
	return ""
}

// noticeHeight is how many rows the notice takes above the status line.
func (m Model) noticeHeight() int {
	if len(m.noticeLines()) > 1 {
		return 1
	}
	return 0
}

// View draws the screen. The parts around the conversation are memoized on
// what they show, so a frame during streaming costs little more than the
// conversation's visible lines.
func (m Model) View() string {
	if m.width <= 0 {
		return ""
	}
	if m.sessions.IsOpen() {
		return m.sessions.View()
	}
	c := m.memo
	conv := m.conv.View()
	if len(m.conv.Entries()) == 0 {
		conv = c.welcome.Get(textfmt.Key(m.width, m.conv.Height()), func() string { return m.welcomeView(m.width, m.conv.Height()) })
	}
	parts := []string{
		c.header.Get(textfmt.Key(m.width, m.title, m.params.Model), m.headerView),
		conv,
	}
	if box := m.approvalBox().View(); box != "" {
		parts = append(parts, box)
	}
	if form := m.elicit.View(); form != "" {
		parts = append(parts, form)
	}
	if m.edit.active() {
		parts = append(parts, c.edit.Get(textfmt.Key(m.width, m.edit.num), func() string { return m.edit.View(m.width, m.th) }))
	}
	if len(m.pending) > 0 {
		parts = append(parts, m.chipsView())
	}
	if len(m.queue) > 0 {
		parts = append(parts, m.queueView())
	}
	parts = append(parts, m.input.SetState(m.inputState()).View())
	if above := m.noticeAbove(); above != "" {
		parts = append(parts, above)
	}
	parts = append(parts, c.status.Get(m.statusKey(), m.statusView))
	if help := c.help.Get(textfmt.Key(m.width, m.height, m.w.help.ShowAll, m.helpTop, m.input.HintKey(), m.sel.active, m.waitingForApproval(), m.showsNotice(), m.notice, len(m.queue) > 0), m.helpView); help != "" {
		parts = append(parts, help)
	}
	return c.frame.join(parts)
}

// frameMemo reuses the last frame when every part is the very same string.
type frameMemo struct {
	parts []string
	frame string
}

func (f *frameMemo) join(parts []string) string {
	if len(parts) == len(f.parts) {
		same := true
		for i := range parts {
			if len(parts[i]) != len(f.parts[i]) || unsafe.StringData(parts[i]) != unsafe.StringData(f.parts[i]) {
				same = false
				break
			}
		}
		if same {
			return f.frame
		}
	}
	f.parts, f.frame = parts, strings.Join(parts, "\n")
	return f.frame
}

// viewMemo holds the last rendering of each part of the screen around the
// conversation. It is shared by copies of the model, and only View uses it.
type viewMemo struct {
	header, status, help, welcome, edit, chips textfmt.Memo
	frame                                      frameMemo
}

// statusKey is what the status bar shows, before styling. While a reply
// streams it changes with the spinner and the elapsed tenth of a second, so
// the bar is drawn at most ~10 times a second however fast tokens arrive.
func (m Model) statusKey() string {
	b := make([]byte, 0, 128)
	b = strconv.AppendInt(b, int64(m.width), 10)
	b = append(b, '|')
	b = append(b, m.notice...)
	u := m.usage
	for _, n := range []int{u.InputTokens, u.OutputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens} {
		b = append(b, '|')
		b = strconv.AppendInt(b, int64(n), 10)
	}
	b = append(b, '|')
	b = append(b, m.meter.SetModel(m.params.Model).View()...)
	if m.approve.All() {
		b = append(b, "|all"...)
	}
	b = append(b, '|')
	b = append(b, m.lastStop...)
	b = append(b, m.lastErr...)
	b = append(b, m.toolPrompt()...)
	b = append(b, m.saveErr...)
	b = append(b, syncView(m.sync)...)
	b = append(b, '|')
	b = append(b, settingsKey(m.params)...)
	b = append(b, '|')
	b = strconv.AppendInt(b, int64(m.branches.Count()), 10)
	if m.sel.active {
		b = append(b, '|')
		b = strconv.AppendInt(b, int64(m.sel.idx), 10)
		b = strconv.AppendInt(b, int64(len(m.conv.Entries())), 10)
		if e, ok := m.selectedEntry(); ok {
			b = append(b, e.ID...)
			b = append(b, m.branches.Of(e.ID)...)
		}
	}
	if j := m.imaging; j != nil {
		b = append(b, '|')
		b = append(b, m.w.spin.View()...)
		b = append(b, j.phase...)
		b = strconv.AppendInt(b, int64(m.now().Sub(j.started)/(100*time.Millisecond)), 10)
		b = strconv.AppendInt(b, j.done, 10)
		b = strconv.AppendInt(b, j.total, 10)
	}
	if t := m.turn; t != nil {
		b = append(b, '|')
		b = append(b, m.w.spin.View()...)
		b = strconv.AppendInt(b, int64(m.now().Sub(t.started)/(100*time.Millisecond)), 10)
		b = append(b, t.retry...)
		if t.retry != "" {
			b = append(b, m.retryText()...)
		}
		b = append(b, t.running...)
		b = strconv.AppendBool(b, t.reply != nil)
		b = strconv.AppendBool(b, t.cancelled)
	}
	return string(b)
}

func settingsKey(p session.Params) string {
	var b strings.Builder
	fmt.Fprint(&b, p.Model, p.MaxTokens, p.System != "", p.StopSequences, p.ThinkingBudget, p.Thinking, p.Effort, p.Image, p.ToolChoice)
	for _, f := range []*float64{p.Temperature, p.TopP} {
		if f != nil {
			fmt.Fprint(&b, *f)
		}
		b.WriteByte('|')
	}
	if p.TopK != nil {
		fmt.Fprint(&b, *p.TopK)
	}
	return b.String()
}

func (m Model) headerView() string {
	st := m.th.Styles
	title := m.title
	if title == "" {
		title = "new session"
	}
	left := st.HeaderTitle.Render("muse") + st.Muted.Render(" · ") + st.HeaderTitle.Render(sanitize.Line(title))
	right := st.HeaderModel.Render(sanitize.Line(m.params.Model))
	return fit(left, right, m.width)
}

func (m Model) statusView() string {
	st := m.th.Styles
	var left string
	keepLeft := m.toolPrompt() != "" || m.showsNotice() || m.sel.active || m.saveErr != ""
	switch {
	case m.toolPrompt() != "":
		left = st.Warning.Render(m.toolPrompt())
	case m.turn != nil && m.turn.running != "":
		left = m.w.spin.View() + " " + st.StatusValue.Render("running tool "+sanitize.Line(m.turn.running))
		if m.turn.progress != "" {
			left += st.StatusValue.Render(" · " + m.turn.progress)
		}
		left += st.Subtle.Render(" · esc cancels")
	case m.turn != nil && m.turn.retry != "" && !m.turn.cancelled:
		// Nothing streams while a retry waits: say what it waits for.
		left = m.w.spin.View() + " " + st.StatusValue.Render(m.retryText()) +
			st.Warning.Render(" · "+sanitize.Line(m.turn.retry)) + st.Subtle.Render(" · esc cancels")
	case m.turn != nil:
		t := m.turn
		elapsed := m.now().Sub(t.started)
		what := "streaming"
		switch {
		case t.cancelled:
			what = "cancelling"
		case t.reply == nil:
			what = "waiting"
		}
		left = m.w.spin.View() + " " + st.StatusValue.Render(what) + st.Muted.Render(" "+formatElapsed(elapsed))
		if rate := rateText(t.tokens, elapsed); rate != "" {
			left += st.Muted.Render(" · " + rate)
		}
		left += st.Subtle.Render(" · esc cancels")
	case m.imaging != nil:
		j := m.imaging
		left = m.w.spin.View() + " " + st.StatusValue.Render(j.phase) + st.Muted.Render(" "+formatElapsed(m.now().Sub(j.started)))
		if j.total > 0 {
			left += " " + m.w.progress.ViewAs(float64(j.done)/float64(j.total))
		} else if j.done > 0 {
			left += st.Muted.Render(fmt.Sprintf(" %d KiB", j.done>>10))
		}
		left += st.Subtle.Render(" · esc cancels")
	case m.showsNotice():
		l := m.noticeLines()
		left = st.Warning.Render(l[len(l)-1])
	case m.sel.active:
		e, _ := m.selectedEntry()
		left = st.StatusValue.Render(fmt.Sprintf("selected: %s, %d of %d", kindName(e), m.sel.idx+1, len(m.conv.Entries())))
		if of := m.branches.Of(e.ID); of != "" {
			left += st.StatusValue.Render(" · branch " + of)
		}
		switch e.Kind {
		case session.KindUser:
			left += st.Subtle.Render(" · e edits it · y copies it")
			if len(e.Attachments) > 0 {
				left += st.Subtle.Render(" · a attaches its files again")
			}
		case session.KindAssistant:
			left += st.Subtle.Render(" · r regenerates it · y copies it")
		case session.KindImage:
			left += st.Subtle.Render(" · a attaches it · r generates it again · y copies its prompt")
		default:
			left += st.Subtle.Render(" · y copies it · c its code")
		}
	case m.saveErr != "":
		left = st.ErrorText.Render("session not saved: " + sanitize.Line(m.saveErr))
	default:
		left = st.StatusValue.Render(fmt.Sprintf("in %d out %d", m.usage.InputTokens, m.usage.OutputTokens))
		if lipgloss.Width(m.statusTail())+16 < m.width-lipgloss.Width(strings.Join(m.settingsLong(), " · ")) {
			left = st.StatusKey.Render("tokens ") + left // room for the label
		}
		if mt := m.meter.SetModel(m.params.Model); mt.Warns() {
			left += st.StatusKey.Render(" · ") + st.Warning.Render(mt.View())
		} else if v := mt.View(); v != "" {
			left += st.StatusKey.Render(" · ") + st.StatusValue.Render(v)
		}
		if c := m.usage.CacheReadInputTokens + m.usage.CacheCreationInputTokens; c > 0 {
			left += st.StatusValue.Render(fmt.Sprintf(" cache %d", c))
		}
		switch {
		case m.lastErr != "":
			left += st.ErrorText.Render(" · ✗ " + sanitize.Line(m.lastErr))
		case m.lastStop != "":
			left += st.StatusKey.Render(" · stop ") + st.StatusValue.Render(sanitize.Line(m.lastStop))
		}
		if b := m.branches.View(); b != "" {
			left += st.StatusKey.Render(" · ") + st.StatusValue.Render(b)
		}
		if v := syncView(m.sync); m.sync.Err != "" {
			left += st.ErrorText.Render(v)
		} else if v != "" {
			left += st.StatusValue.Render(v)
		}
	}
	// The settings that change what is sent keep their room, in short
	// forms when narrow, and what is left of the line is cut to fit; only
	// a notice, a tool waiting for the user, a selection and an unsaved
	// session keep their whole line.
	lw := lipgloss.Width(left)
	right, all := m.settingsFit(max(m.width-lw-1, 0))
	if !all && !keepLeft {
		// As little as the short forms need, a quarter of the line at most.
		right, _ = m.settingsFit(min(m.settingsShortWidth(), max(m.width-min(lw, m.width/4)-1, 0)))
	}
	return fit(left, st.StatusKey.Render(right), m.width)
}

// setting is one setting the status bar shows, in a long and a short form.
type setting struct{ long, short string }

// settingsList is the model and the settings that are set, those that
// change what is sent first.
func (m Model) settingsList() []setting {
	p := m.params
	model := sanitize.Line(p.Model)
	list := []setting{{model, model}}
	if long, short := m.approve.Setting(); long != "" { // said all the while it is on, first
		list = []setting{{long, short}, {model, model}}
	}
	switch {
	case p.Thinking != "":
		long := strings.TrimSpace("think " + p.Thinking + " " + p.Effort)
		list = append(list, setting{long, strings.TrimSpace("θ " + p.Effort)})
	case p.ThinkingBudget > 0:
		list = append(list, setting{fmt.Sprintf("think %d", p.ThinkingBudget), "θ" + kilo(p.ThinkingBudget)})
	}
	if p.MaxTokens != 0 && p.MaxTokens != api.DefaultMaxTokens {
		list = append(list, setting{fmt.Sprintf("max %d", p.MaxTokens), "max" + kilo(p.MaxTokens)})
	}
	if p.Temperature != nil {
		list = append(list, setting{fmt.Sprintf("temp %g", *p.Temperature), fmt.Sprintf("t%g", *p.Temperature)})
	}
	if p.TopP != nil {
		list = append(list, setting{fmt.Sprintf("top-p %g", *p.TopP), fmt.Sprintf("p%g", *p.TopP)})
	}
	if p.TopK != nil {
		list = append(list, setting{fmt.Sprintf("top-k %d", *p.TopK), fmt.Sprintf("k%d", *p.TopK)})
	}
	if p.ToolChoice != "" {
		tc := sanitize.Line(p.ToolChoice)
		list = append(list, setting{"tools:" + tc, "tc:" + tc})
	}
	if n := len(p.StopSequences); n > 0 {
		list = append(list, setting{fmt.Sprintf("stop %d", n), fmt.Sprintf("stop%d", n)})
	}
	if p.System != "" {
		list = append(list, setting{"system", "sys"})
	}
	if ip := m.imageParams(); ip.Model != "" {
		img := "img " + sanitize.Line(ip.Model)
		if ip.Size != "" {
			img += " " + sanitize.Line(ip.Size)
		}
		if ip.NegativePrompt != "" {
			img += " -neg"
		}
		if ip.PromptExtend != nil {
			img += " extend:" + textfmt.OnOff(*ip.PromptExtend)
		}
		if ip.Watermark != nil {
			img += " wm:" + textfmt.OnOff(*ip.Watermark)
		}
		list = append(list, setting{img, "img:" + sanitize.Line(ip.Model)})
	}
	return list
}

// kilo writes n in thousands when it is a whole number of them (8000 is
// 8k), else as it is.
func kilo(n int) string {
	if n >= 1000 && n%1000 == 0 {
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}

// settingsFit is the model and the settings that are set, in room
// columns: in long forms if all fit, else in short ones, as many as fit,
// those that change what is sent first; all says whether every one fits.
func (m Model) settingsFit(room int) (out string, all bool) {
	list := m.settingsList()
	if out := strings.Join(m.settingsLong(), " · "); lipgloss.Width(out) <= room {
		return out, true
	}
	all = true
	for i, s := range list {
		next := s.short
		if i == 0 && lipgloss.Width(next) > room {
			next = textfmt.TruncateWidth(next, room) // the model, cut
			all = false
		}
		if out != "" {
			next = out + " " + s.short
		}
		if lipgloss.Width(next) <= room {
			out = next
		} else {
			all = false
		}
	}
	return out, all
}

// settingsShortWidth is how wide every setting is in its short form.
func (m Model) settingsShortWidth() int {
	list := m.settingsList()
	short := make([]string, len(list))
	for i, s := range list {
		short[i] = s.short
	}
	return lipgloss.Width(strings.Join(short, " "))
}

// settingsLong is the settings in their long forms.
func (m Model) settingsLong() []string {
	list := m.settingsList()
	long := make([]string, len(list))
	for i, s := range list {
		long[i] = s.long
	}
	return long
}

// statusTail is what the idle status line says after the tokens: the
// failure or the stop, and the branches, as plain text.
func (m Model) statusTail() string {
	var b strings.Builder
	if c := m.usage.CacheReadInputTokens + m.usage.CacheCreationInputTokens; c > 0 {
		fmt.Fprintf(&b, " cache %d", c)
	}
	switch {
	case m.lastErr != "":
		b.WriteString(" · ✗ " + m.lastErr)
	case m.lastStop != "":
		b.WriteString(" · stop " + m.lastStop)
	}
	if br := m.branches.View(); br != "" {
		b.WriteString(" · " + br)
	}
	if v := m.meter.SetModel(m.params.Model).View(); v != "" {
		b.WriteString(" · " + v)
	}
	b.WriteString(syncView(m.sync))
	return b.String()
}

// settingsWidth is the room the settings keep beside a notice: a third of
// the line at most.
func (m Model) settingsWidth() int {
	out, _ := m.settingsFit(m.width / 3)
	return lipgloss.Width(out)
}

// fit places left and right on one line of width, cutting left to leave
// right its room, or dropping right if even then it does not fit.
func fit(left, right string, width int) string {
	lw, rw := lipgloss.Width(left), lipgloss.Width(right)
	if lw+rw+1 > width && width-rw-1 >= 8 {
		left = ansi.Truncate(left, width-rw-1, "…")
		lw = lipgloss.Width(left)
	}
	if lw+rw+1 > width {
		return ansi.Truncate(left, width, "…")
	}
	return left + strings.Repeat(" ", width-lw-rw) + right
}

// retryText says when the request waits to be retried, in whole seconds
// counted down.
func (m Model) retryText() string {
	t := m.turn
	secs := int(math.Ceil(t.retryAt.Sub(m.now()).Seconds()))
	if secs < 1 {
		return fmt.Sprintf("retrying now (attempt %d)…", t.retryAttempt)
	}
	return fmt.Sprintf("waiting to retry in %ds (attempt %d)…", secs, t.retryAttempt)
}

// rateText is the streaming speed, once there is enough to measure.
func rateText(tokens int, elapsed time.Duration) string {
	if secs := elapsed.Seconds(); secs > 0.5 && tokens > 0 {
		return fmt.Sprintf("%.0f tok/s", float64(tokens)/secs)
	}
	return ""
}

func formatElapsed(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// toolPrompt is the status line while a tool call waits for approval or
// for a typed result.
func (m Model) toolPrompt() string {
	if m.awaitsResult() {
		// muse waits for the person, not the service: no rate, no clock.
		if m.turn.ask.hasCommand {
			return "waiting for you: type why " + sanitize.Line(m.turn.ask.call.Name) + " should not run, or esc"
		}
		return "waiting for you: type the result of " + sanitize.Line(m.turn.ask.call.Name) + " below"
	}
	if !m.waitingForApproval() {
		return ""
	}
	if m.turn.pasteRefused {
		return "an answer right behind a paste is not taken: press it again"
	}
	return "tool " + sanitize.Line(m.turn.ask.call.Name) + " waits for your answer"
}

// approvalHeight is how many lines the approval box takes.
func (m Model) approvalHeight() int {
	if v := m.approvalBox().View(); v != "" {
		return lipgloss.Height(v)
	}
	return 0
}

// syncView is the status line's part about the background sync: "" until
// the first sync starts.
func syncView(s syncrun.Status) string {
	switch {
	case s.Running:
		return " · syncing"
	case s.Err != "":
		return " · sync ✗ " + sanitize.Line(s.Err)
	case !s.Last.IsZero():
		return " · synced " + s.Last.Local().Format("15:04")
	}
	return ""
}
