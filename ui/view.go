package ui

import (
	"strings"
	"unsafe"

	"muse/ui/input"
	"muse/ui/queue"
	"muse/ui/status"
	"muse/ui/textfmt"
	"muse/ui/welcome"
)

// layout sizes the children to the window.
func (m Model) layout() Model {
	if m.size.Width <= 0 || m.size.Height <= 0 {
		return m
	}
	m.comp = m.comp.SetSize(m.size.Width, m.size.Height, m.inputState())
	m.status = m.status.SetRows(m.statusState())
	rest := m.size.Height - 1 /* header */ - m.comp.Height() - m.status.Rows() - 1 /* border */ - 1 /* status */ - textfmt.Height(m.helpView()) - textfmt.Height(m.approvalBox().View())
	m.elicit = m.elicit.SetSize(m.size.Width, max(rest-1 /* a row of the conversation */, 5))
	convHeight := rest - textfmt.Height(m.elicit.View())
	m.conv = m.conv.SetSize(m.size.Width, max(convHeight, 1))
	return m
}

// inputState is what the input shows of the rest of the screen.
func (m Model) inputState() input.State {
	return input.State{Busy: m.turns.Turn() != nil, Answering: m.waitingForApproval(), Selecting: m.sel.Active(), Form: m.elicit.Focused()}
}

// waitingForApproval reports whether a tool call waits for y, n or a: the
// input then only says so.
func (m Model) waitingForApproval() bool {
	a := m.turns.Ask()
	return a != nil && a.HasCommand && !m.approve.Declining()
}

// helpView is the line under the status bar: the short keymap, the hint of
// the slash command being typed, or, with ?, every key and command.
func (m Model) helpView() string {
	h := m.w.help
	switch {
	case h.Open():
		return h.View(m.status.Notices())
	case m.size.Height < queue.MinHeight && m.waitingForApproval() && m.comp.Queue().Len() > 0:
		// A small screen with a tool call and a queue: the box names its
		// keys, and the key line's row keeps the frame within the screen.
		return ""
	case m.elicit.Focused():
		return h.Short(m.elicit.ShortHelp())
	case m.sel.Active():
		return h.Short(m.sel.ShortHelp())
	case m.waitingForApproval():
		return h.Short(m.approve.ShortHelp())
	case len(m.comp.Input().Hint()) > 0:
		return m.th.Styles.Accent.Render(strings.Join(m.comp.Input().Hint(), "\n"))
	}
	return h.Fit(m.keys.ShortHelp())
}

// statusState is what the header and the status line show (ui/status).
func (m Model) statusState() status.State {
	s := status.State{
		Width: m.size.Width, LastStop: m.lastStop,
		Usage: m.usage, Meter: m.meter.SetModel(m.params.Model), Branches: m.branches.View(),
		Params: m.params, ImageParams: imageParams(m.params.Image, m.opts.ImageModel),
	}
	s = m.status.Fill(s)
	s.FormKeys = m.elicit.Focused()
	s.Approve.Long, s.Approve.Short = m.approve.Setting()
	if e, ok := m.sel.Entry(m.conv.Entries()); m.sel.Active() {
		s.Selected = &status.Selected{Entry: e, Name: kindName(e), Index: m.sel.Index(), Count: len(m.conv.Entries())}
		if ok {
			s.Selected.Of = m.branches.Of(e.ID)
		}
	}
	if t := m.turns.Turn(); t != nil {
		s.Now, s.Spinner = m.now(), m.w.spin.View()
		s.Turn = &status.Turn{Started: t.Started, Running: t.Running, Progress: t.Progress, Retry: t.Retry, RetryAt: t.RetryAt,
			RetryAttempt: t.RetryAttempt, Tokens: t.Tokens, Streaming: t.Streaming(), Cancelled: t.Cancelled}
		if a := t.Ask; a != nil {
			s.Ask = status.Ask{Name: a.Call.Name, Result: m.turns.AwaitsResult(m.approve.Declining()), HasCommand: a.HasCommand,
				Approval: m.waitingForApproval(), PasteRefused: t.PasteRefused}
		}
	}
	if j := m.turns.Image(); j != nil {
		s.Now, s.Spinner, s.Progress = m.now(), m.w.spin.View(), m.w.progress.ViewAs
		s.Image = &status.Image{Phase: j.Phase, Started: j.Started, Done: j.Done, Total: j.Total}
	}
	return s
}

// View draws the screen. The parts around the conversation are memoized on
// what they show, so a frame during streaming costs little more than the
// conversation's visible lines.
func (m Model) View() string {
	if m.size.Width <= 0 {
		return ""
	}
	if m.sessions.IsOpen() {
		return m.sessions.View()
	}
	c, st, s := m.memo, &m.th.Styles, m.statusState()
	conv := m.conv.View()
	if len(m.conv.Entries()) == 0 {
		conv = c.welcome.Get(textfmt.Key(m.size.Width, m.conv.Height()), func() string {
			return welcome.View(st, m.keys.welcomeKeys(), (*welcome.Words)(m.opts.DemoWords), m.size.Width, m.conv.Height())
		})
	}
	parts := []string{
		c.header.Get(textfmt.Key(m.size.Width, m.title, m.params.Model), func() string { return status.Header(st, m.size.Width, m.title, m.params.Model) }),
		conv,
	}
	for _, v := range []string{m.approvalBox().View(), m.elicit.View()} {
		if v != "" {
			parts = append(parts, v)
		}
	}
	parts = m.comp.View(parts, m.inputState())
	if above := m.status.NoticeAbove(st, s); above != "" {
		parts = append(parts, above)
	}
	parts = append(parts, c.status.Get(status.Key(s), func() string { return m.status.View(st, s) }))
	if help := c.help.Get(textfmt.Key(m.size.Width, m.size.Height, m.w.help.Open(), m.w.help.Top(), m.comp.Input().HintKey(), m.sel.Active(), m.waitingForApproval(), status.ShowsNotice(s), m.status.Notice(), m.comp.Queue().Len() > 0), m.helpView); help != "" {
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
	header, status, help, welcome textfmt.Memo
	frame                         frameMemo
}
