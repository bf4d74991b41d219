package ui

import (
	"errors"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"muse/api"
	"muse/session"
	"muse/ui/approval"
	"muse/ui/branches"
	"muse/ui/engine"
	"muse/ui/input"
	"muse/ui/sanitize"
	"muse/ui/turns"
)

// FrameRate is how many frames a second the screen draws at most (see
// turns.FrameRate).
const FrameRate = turns.FrameRate

// busyNotice is what the status line says of an action that needs the turn
// in flight to end first; the end of the turn takes it away.
const busyNotice = "a reply or image is still on its way"

// The turn in flight is a child (ui/turns): it runs in the engine, and the
// root routes its reports (applyTurn) and shows what they ask (show).

// startTurn runs a turn: a new prompt, a retry or a continue.
func (m Model) startTurn(t engine.Turn) (Model, tea.Cmd) {
	if m.turns.Busy() {
		m.status = m.status.Busy(busyNotice + ": esc cancels it")
		return m, nil
	}
	// The engine builds and checks the request: one it refuses ends the
	// turn with ErrNotStarted, and endTurn puts the prompt back.
	t.Params = m.params
	var run tea.Cmd
	m.turns, run = m.turns.StartTurn(m.now(), m.opts.Config, m.writer, t)
	// What the status bar said of the last turn is old news now.
	m.status, m.lastStop = m.status.Note("").Failed(""), ""
	m.conv = m.conv.CaughtUp()
	return m.layout(), tea.Batch(run, m.w.spin.Tick)
}

// applyTurn routes the engine's reports of the turn in flight, a message
// turn or an image turn, to the turn, and shows what they ask.
func (m Model) applyTurn(msg turns.BatchMsg) (tea.Model, tea.Cmd) {
	if !m.turns.InFlight(msg.ID) {
		return m, nil
	}
	changed := false
	var cmds []tea.Cmd
	for _, it := range msg.Items {
		switch {
		case it.Done != nil:
			next, cmd := m.endTurn(*it.Done)
			return next, tea.Batch(append(cmds, cmd)...)
		case it.Ask != nil:
			next, cmd := m.askCall(it.Ask, msg.Ch)
			return next, tea.Batch(append(cmds, cmd)...)
		}
		if it.SessID != "" {
			m.sessID = it.SessID
		}
		var s turns.Shown
		m.turns, s = m.turns.Apply(it, m.now())
		m = m.show(s)
		changed = changed || s.Kind == turns.Streamed
		if e := s.Entry; s.Kind == turns.Added && len(e.Files()) > 0 {
			// The prompt's attachments, or a tool's images, are stored now: preview them.
			cmds = append(cmds, loadPreviews([]session.Entry{e}, m.previewer()))
		}
	}
	if msg.Ch == nil { // the engine stopped without saying how
		next, cmd := m.endTurn(turns.Done{Err: api.ErrStreamCut})
		return next, tea.Batch(append(cmds, cmd)...)
	}
	cmds = append(cmds, m.turns.Wait(msg.ID, msg.Ch))
	if m.turns.Image() != nil {
		return m, tea.Batch(cmds...)
	}
	if !changed || !m.turns.Streaming() {
		return m.layout(), tea.Batch(cmds...)
	}
	// Render at most once a frame; a skipped frame is owed and flushed later.
	if now := m.now(); m.conv.LiveDue(now, turns.FrameInterval) {
		var live session.Entry
		m.turns, live = m.turns.Live(m.params.Model)
		m.conv = m.conv.UpdateLive(live, now)
	} else {
		var flush tea.Cmd
		if m.turns, flush = m.turns.Owe(); flush != nil {
			cmds = append(cmds, flush)
		}
	}
	return m, tea.Batch(cmds...)
}

// show shows what one report of the turn in flight asks.
func (m Model) show(s turns.Shown) Model {
	if s.Title != "" && m.title == "" {
		m.title = s.Title
	}
	if s.Preview != "" {
		m.conv = m.conv.SetPreview(s.Path, s.Preview)
	}
	e := s.Entry
	switch s.Kind {
	case turns.Added:
		m.conv = m.conv.CaughtUp().Add(e)
		m.branches = m.branches.Note(e, m.conv.Entries()) // written: an edited prompt has siblings
		m = m.refreshBranches()
		if e.Kind == session.KindError && e.Error != nil {
			m.status = m.status.Failed(failedName(e.Error))
		}
	case turns.ReplyStarted:
		if m.conv.Has(e.ID) {
			m.turns = m.turns.Continues(e)
			m.conv = m.conv.Restart(e)
		} else {
			m.conv = m.conv.Add(e)
			m = m.refreshBranches(e) // a regenerated reply has siblings
		}
	case turns.ReplyEnded:
		if !s.Saved {
			m.conv = m.conv.Remove(s.Live)
			return m.refreshBranches()
		}
		if s.Count {
			m.usage.Add(s.Usage)
		}
		m.lastStop = e.Message.StopReason
		if e.Status != session.StatusComplete {
			m.lastStop = ""
		}
		m.conv = m.conv.Finish(e)
		m.meter = m.meter.Measure(m.conv.Entries(), m.usage)
		m.branches = m.branches.Note(e, m.conv.Entries())
		m = m.refreshBranches()
	case turns.ImageStarted:
		m.conv = m.conv.Add(e)
		m = m.refreshBranches()
	case turns.ImageShown, turns.ImageEnded:
		m.conv = m.conv.Replace(e)
		if s.Kind == turns.ImageEnded && e.Error != nil {
			m.status = m.status.Failed(failedName(e.Error))
		}
	case turns.Notice:
		m.status = m.status.Note(s.Notice)
	case turns.SaveFailed:
		m.status = m.status.Unsaved(s.SaveErr)
	}
	return m
}

// askCall shows a tool call that waits for an answer: y, n or a for a
// command; a typed result for a tool without one.
func (m Model) askCall(a *turns.Ask, ch <-chan turns.Item) (tea.Model, tea.Cmd) {
	wait, run := tea.Cmd(nil), false
	m.turns, wait, run = m.turns.Asked(a, ch, a.HasCommand && m.approve.Always(a.Call.Name), a.HasCommand && m.approve.All())
	if run {
		return m, tea.Batch(wait, m.w.spin.Tick)
	}
	if wait != nil {
		return m, wait
	}
	c := approval.Call{Name: a.Call.Name, Server: m.opts.mcpServerOf(a.Call.Name), Input: a.Call.Input, HasCommand: a.HasCommand}
	if a.HasCommand {
		c.Command, c.Dir = toolCommand(m.opts.Tools, a.Call.Name), m.opts.WorkDir
	}
	m.approve = m.approve.Open(c)
	if !a.HasCommand {
		m.turns = m.turns.PutAside(m.comp.Input().Value())
		m.comp = m.comp.SetInput(m.comp.Input().Reset().SetPlaceholder(fmt.Sprintf("type the result of %s, enter sends · esc declines", sanitize.Line(a.Call.Name))))
	}
	return m.layout(), nil
}

// answerCall answers the tool call that waits and goes on with the turn.
func (m Model) answerCall(ap engine.Approval) (tea.Model, tea.Cmd) {
	a := m.turns.Ask()
	typing := !a.HasCommand || m.approve.Declining()
	m.approve = m.approve.Close()
	var draft string
	var wait tea.Cmd
	m.turns, draft, wait = m.turns.Answer(ap)
	if typing {
		m.comp = m.comp.SetInput(m.comp.Input().Reset().SetValue(draft).SetPlaceholder(input.Placeholder))
	}
	if ap.Always {
		m.approve = m.approve.Allow(a.Call.Name)
	}
	return m.layout(), tea.Batch(wait, m.w.spin.Tick)
}

// decideCall carries out what a key asks while a tool call waits (see
// approval.Key): y, n and a for an approval, enter or esc for a typed
// result; handled is false for a key the input handles as a prompt's.
func (m Model) decideCall(k tea.KeyMsg) (_ tea.Model, _ tea.Cmd, handled bool) {
	if m.turns.Ask() == nil {
		return m, nil, false
	}
	in := m.comp.Input()
	box, answer := m.approvalBox().Key(k, approval.Context{Typing: m.turns.AwaitsResult(m.approve.Declining()),
		Settling: m.turns.Settling(), AfterPaste: in.AfterPaste(), AfterSpace: in.AfterSpace()})
	var cmd tea.Cmd
	switch answer {
	case approval.Scrolled:
		m.approve = box
		return m.layout(), nil, true
	case approval.Refused:
		m.turns = m.turns.RefusePaste()
	case approval.NotMine:
		return m, nil, false // it sends once no key follows it (see input.SendDueMsg)
	case approval.Typed:
		m.comp, cmd = m.comp.Update(k)
		return m.layout(), cmd, true
	case approval.Yes, approval.Always:
		// A yes waits turns.AnswerSettle: a key behind it in that time
		// means it came with other text, and it is not taken.
		m.turns, cmd = m.turns.Settle(engine.Approval{Run: true, Always: answer == approval.Always})
	case approval.No:
		// The reason is typed in the input, the draft put aside meanwhile.
		m.approve = m.approve.Decline()
		m.turns = m.turns.PutAside(in.Value())
		m.comp = m.comp.SetInput(in.Reset().SetPlaceholder("why not? it goes to the model as the tool's result · enter sends · esc declines without one"))
		return m.layout(), nil, true
	case approval.Result:
		next, cmd := m.answerCall(m.turns.ResultOf(in.Value()))
		return next, cmd, true
	case approval.Cancel:
		next, cmd := m.answerCall(engine.Approval{})
		return next, cmd, true
	case approval.All: // approve all, this call first
		next, cmd := m.setApproveAll(true).answerCall(engine.Approval{Run: true})
		return next, cmd, true
	}
	return m, cmd, true // other keys wait for an answer
}

// cancel stops the turn in flight, a message turn or an image turn: a
// reply keeps what arrived, marked cancelled, and the engine saves it; the
// turn ends when the engine says so.
func (m Model) cancel() (tea.Model, tea.Cmd) {
	var ok bool
	if m.turns, ok = m.turns.Cancel(); !ok {
		return m, nil
	}
	var cmd tea.Cmd
	if m.turns.Ask() != nil {
		next, c := m.answerCall(engine.Approval{Stop: true})
		m, cmd = next.(Model), c
	}
	if m.turns.Streaming() {
		var live session.Entry
		m.turns, live = m.turns.Live(m.params.Model)
		m.conv = m.conv.UpdateLive(live, m.now())
		live.Status = session.StatusCancelled
		m.conv = m.conv.Finish(live)
	}
	m.status = m.status.Note("cancelled")
	return m.layout(), cmd
}

// endTurn ends the turn in flight once the engine has saved it: on an
// error a message turn's prompt goes back into the input.
func (m Model) endTurn(d turns.Done) (tea.Model, tea.Cmd) {
	var t turns.Ended
	m.turns, t = m.turns.End()
	if t.Live != "" { // the engine stopped mid-reply without saying so
		m.conv = m.conv.Remove(t.Live)
	}
	if d.SessID != "" {
		m.sessID = d.SessID
	}
	var shown tea.Cmd
	undone := t.Compact && d.Res.Undone != nil
	if undone {
		// The compaction wrote nothing: the branch compacted shows again,
		// and is what the next prompt sends.
		m, shown = m.switched(branches.SwitchedMsg{W: m.writer, S: *d.Res.Undone})
		m.status = m.status.Note(d.Err.Error())
		if v := strings.TrimSpace(m.comp.Input().Value()); !t.Cancelled && v == "" {
			m.comp = m.comp.SetInput(m.comp.Input().SetValue(t.Prompt))
			m.status = m.status.Note(d.Err.Error() + " · enter runs " + t.Prompt + " again")
		}
	}
	if d.Err != nil && !t.Cancelled && t.Prompt != "" && !undone {
		// After any failure, a first one or a retry's, the failed prompt
		// is one key away.
		// One hint, that works typed or pasted, with the error's own
		// "/retry": a /retry typed after the text in the input is a
		// command (see runCommandAfter), and keeps a draft.
		if v := strings.TrimSpace(m.comp.Input().Value()); v == "" || v == t.Prompt {
			m.comp = m.comp.SetInput(m.comp.Input().SetValue(t.Prompt))
			m.status = m.status.Note("the prompt is back in the input: enter or /retry resends it")
		} else {
			m.comp = m.comp.SetInput(m.comp.Input().KeepDraft())
			m.status = m.status.Note("your draft is kept: /retry sends the failed prompt again")
		}
	}
	if errors.Is(d.Err, engine.ErrNotStarted) {
		m.status = m.status.Note(d.Err.Error()) // refused before it started, as /continue with nothing to continue
		if !t.Image {
			m.comp = m.comp.PutBack(t.Attachments) // nothing was saved: they wait again
		}
	}
	if d.Res.Unanswered && m.status.Notice() == "" && !t.Cancelled {
		m.status = m.status.Note("tool calls left unanswered")
	}
	m.conv = m.conv.CaughtUp()
	if m.opts.Sync != nil && d.SessID != "" && !t.Image {
		m.opts.Sync.Kick() // never waits: the sync runs in the background
	}
	if m.quitting.Active() {
		return m.quit()
	}
	if t.Compact && d.Err == nil && !t.Cancelled {
		m.meter = m.meter.Compacted()
	}
	ok := d.Err == nil && !t.Cancelled && !d.Res.Unanswered
	if ok && !t.Image && !t.Compact && m.meter.SetModel(m.params.Model).AutoCompact() {
		// auto_compact: past its mark the conversation goes on from a
		// summary, before the queue's next prompt.
		pct, _ := m.meter.SetModel(m.params.Model).Percent()
		cut := m
		cut.conv = cut.conv.Truncate(0)
		next, cmd := cut.startTurn(engine.Turn{Compact: true})
		next.status = next.status.Note(fmt.Sprintf("context %d%% full: compacting (auto_compact) · the full history stays on its branch", pct))
		return next, cmd
	}
	// The queue goes on: its next prompt is sent if the turn ended well.
	m.status = m.status.TurnEnded() // a refusal for the turn in flight is old news
	next, cmd := m.compose(m.comp.AfterTurn(ok, m.status.Notice(), m.status.LastErr()))
	cmd = tea.Batch(cmd, shown)
	if t.Cancelled {
		return next, cmd
	}
	what := "reply"
	if t.Image {
		what = "image"
	}
	return next, tea.Batch(cmd, m.opts.notifyEnd(m.blurred, m.now().Sub(t.Started), what))
}
