package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"muse/api"
	"muse/session"
	"muse/ui/approval"
	"muse/ui/conversation"
	"muse/ui/engine"
	"muse/ui/input"
	"muse/ui/sanitize"
)

// FrameRate is how many frames a second the screen draws at most: a
// streaming reply is rendered at this rate, and so are frames written to the
// terminal (ui/screen, which holds no timer while nothing changes).
const FrameRate = 30

// frameInterval bounds screen updates while a reply streams.
const frameInterval = time.Second / FrameRate

// turnRun is the turn in flight: the engine runs it in the background and
// reports through ch; the model only mirrors what it reports.
type turnRun struct {
	id      int
	cancel  context.CancelFunc
	started time.Time
	prompt  string // the prompt sent, put back into the input if the turn fails
	compact bool   // the turn is a /compact
	// attachments are the prompt's, put back above the input if the turn
	// is refused before it starts.
	attachments []session.File

	// reply is the reply streaming, if any.
	reply *reply
	// ask is the tool call waiting for an answer, if any, which the
	// approval box (Model.approve) shows.
	ask *askMsg
	// pasteRefused says an answer to ask came with other text and was not
	// taken.
	pasteRefused bool
	// pending is a yes to ask that waits answerSettle for keys behind it:
	// pendingSeq numbers it, for its answerDueMsg.
	pending    *engine.Approval
	pendingSeq int
	// running names the tool whose command runs, and progress is how far
	// it is, as its MCP server last said (sanitized).
	running, progress string
	// retry is why the request is retried, while it waits to be: at
	// retryAt, as attempt retryAttempt.
	retry        string
	retryAt      time.Time
	retryAttempt int
	tokens       int
	cancelled    bool
	// flushing is set while a flushLiveMsg is on its way; stale while
	// events arrived that the screen does not show yet.
	flushing, stale bool
}

// clone returns a copy of t to change, or nil for nil: the model is a
// value (see Model), and a copy of it keeps the turn as it was. The reply
// streaming is shared: its accumulator only grows as the engine reports.
func (t *turnRun) clone() *turnRun {
	if t == nil {
		return nil
	}
	c := *t
	return &c
}

// reply is the reply being streamed, as the screen shows it.
type reply struct {
	acc  api.Accumulator
	live session.Entry
	base *session.Entry // the reply /continue extends
}

// turnItem is one report of the engine, of a message turn or of an image
// turn: an event, a question, or the end. An entry written comes with the
// id of the session, which writing it may have created: the screen never
// asks the writer. An image saved comes with its preview, built there.
type turnItem struct {
	event   *engine.Event
	image   *engine.ImageEvent
	preview string
	sessID  string
	ask     *askMsg
	done    *turnDone
}

// turnDone is how the engine ended the turn (res is a message turn's),
// and the id of the session, which the turn's first entry may have
// created.
type turnDone struct {
	res    engine.Result
	err    error
	sessID string
}

// askMsg is a tool call waiting for the user's answer.
type askMsg struct {
	call       api.ContentBlock
	hasCommand bool
	answer     chan<- engine.Approval
}

// turnStartedMsg says the engine runs a turn, a message turn or an image
// turn, and where it reports.
type turnStartedMsg struct {
	id int
	ch <-chan turnItem
}

// turnBatchMsg carries the reports that arrived during one frame.
type turnBatchMsg struct {
	id    int
	items []turnItem
	ch    <-chan turnItem
}

// flushLiveMsg asks for the render a throttled frame skipped.
type flushLiveMsg struct{ id int }

// startTurn runs a turn: a new prompt, a retry or a continue.
func (m Model) startTurn(t engine.Turn) (Model, tea.Cmd) {
	if m.busy() {
		m.status = m.status.Note(busyNotice + ": esc cancels it")
		return m, nil
	}
	// The engine builds and checks the request: one it refuses ends the
	// turn with ErrNotStarted, and endTurn puts the prompt back.
	t.Params = m.params
	ctx, cancel := context.WithCancel(context.Background())
	m.turnSeq++
	m.turn = &turnRun{id: m.turnSeq, cancel: cancel, started: m.now(), prompt: t.Prompt, attachments: t.Attachments, compact: t.Compact}
	if t.Compact { // failed, it is the command that comes back
		m.turn.prompt = strings.TrimSpace("/compact " + t.Prompt)
	}
	// What the status bar said of the last turn is old news now.
	m.status, m.lastStop = m.status.Note("").Failed(""), ""
	m.conv = m.conv.CaughtUp()
	return m.layout(), tea.Batch(runTurn(ctx, m.opts.Config, m.writer, t, m.turnSeq), m.w.spin.Tick)
}

// runTurn starts the engine's message turn in the background.
func runTurn(ctx context.Context, cfg engine.Config, w *session.Writer, t engine.Turn, id int) tea.Cmd {
	return runEngine(ctx, w, id, func(r reporter) (engine.Result, error) {
		emit := func(ev engine.Event) {
			if ev.Kind == engine.StreamEvent {
				r.progress(turnItem{event: &ev}) // a cancelled turn's stream is not worth waiting for
				return
			}
			it := turnItem{event: &ev}
			if ev.Kind == engine.EntryAdded {
				it.sessID = w.ID()
			}
			r.send(it)
		}
		approve := func(ctx context.Context, call api.ContentBlock, hasCommand bool) engine.Approval {
			answer := make(chan engine.Approval, 1)
			r.send(turnItem{ask: &askMsg{call: call, hasCommand: hasCommand, answer: answer}})
			select {
			case a := <-answer:
				return a
			case <-ctx.Done():
				return engine.Approval{Stop: true}
			}
		}
		return engine.Run(ctx, cfg, w, t, emit, approve)
	})
}

// reporter is how a turn running in the background reports to the screen.
type reporter struct {
	ctx context.Context
	ch  chan<- turnItem
}

// send reports it; the screen reads until the turn is done.
func (r reporter) send(it turnItem) { r.ch <- it }

// progress reports it unless the turn is cancelled: progress of a
// cancelled turn is not worth waiting for.
func (r reporter) progress(it turnItem) {
	select {
	case r.ch <- it:
	case <-r.ctx.Done():
	}
}

// runEngine starts a turn of the engine in the background, a message turn
// or an image turn: run runs it, reporting through a channel, whose last
// report is the end. It never touches the model; the model keeps ctx's
// cancel. Both kinds of turns come back through this one loop (turnStartedMsg,
// waitTurn, applyTurn).
func runEngine(ctx context.Context, w *session.Writer, id int, run func(reporter) (engine.Result, error)) tea.Cmd {
	return func() tea.Msg {
		ch := make(chan turnItem, 256)
		go func() {
			defer close(ch)
			res, err := run(reporter{ctx: ctx, ch: ch})
			ch <- turnItem{done: &turnDone{res: res, err: err, sessID: w.ID()}}
		}()
		return turnStartedMsg{id: id, ch: ch}
	}
}

// inFlight says whether id is the turn in flight, a message turn or an
// image turn.
func (m Model) inFlight(id int) bool {
	return m.turn != nil && m.turn.id == id || m.imaging != nil && m.imaging.id == id
}

// waitTurn collects the reports of one frame: it blocks for the first, then
// gathers what else arrives before the frame ends, so a fast stream causes
// at most ~30 screen updates a second.
func waitTurn(id int, ch <-chan turnItem) tea.Cmd {
	return func() tea.Msg {
		first, ok := <-ch
		if !ok {
			return turnBatchMsg{id: id}
		}
		items := []turnItem{first}
		if first.done != nil || first.ask != nil {
			return turnBatchMsg{id: id, items: items, ch: ch}
		}
		deadline := time.NewTimer(frameInterval)
		defer deadline.Stop()
		for {
			select {
			case it, ok := <-ch:
				if !ok {
					return turnBatchMsg{id: id, items: items}
				}
				items = append(items, it)
				if it.done != nil || it.ask != nil {
					return turnBatchMsg{id: id, items: items, ch: ch}
				}
			case <-deadline.C:
				return turnBatchMsg{id: id, items: items, ch: ch}
			}
		}
	}
}

// applyTurn mirrors the engine's reports: of the image turn, or of the
// message turn.
func (m Model) applyTurn(msg turnBatchMsg) (tea.Model, tea.Cmd) {
	if j := m.imaging; j != nil && msg.id == j.id {
		return m.applyImage(msg)
	}
	m.turn = m.turn.clone() // changed below: a copy of the model keeps its own
	t := m.turn
	if t == nil || msg.id != t.id {
		return m, nil
	}
	changed := false
	var cmds []tea.Cmd
	for _, it := range msg.items {
		switch {
		case it.done != nil:
			next, cmd := m.endTurn(*it.done)
			return next, tea.Batch(append(cmds, cmd)...)
		case it.ask != nil:
			next, cmd := m.askCall(it.ask, msg.ch)
			return next, tea.Batch(append(cmds, cmd)...)
		case it.event != nil:
			if it.sessID != "" {
				m.sessID = it.sessID
			}
			var c bool
			m, c = m.applyEvent(*it.event)
			changed = changed || c
			if e := it.event.Entry; it.event.Kind == engine.EntryAdded && len(e.Files()) > 0 {
				// The prompt's attachments, or a tool's images, are stored now: preview them.
				cmds = append(cmds, loadPreviews([]session.Entry{e}, m.previewer()))
			}
		}
	}
	if msg.ch == nil { // the engine stopped without saying how
		next, cmd := m.endTurn(turnDone{err: api.ErrStreamCut})
		return next, tea.Batch(append(cmds, cmd)...)
	}
	cmds = append(cmds, waitTurn(msg.id, msg.ch))
	if !changed || t.reply == nil {
		return m.layout(), tea.Batch(cmds...)
	}
	// Render at most once a frame; a skipped frame is owed and flushed later.
	if now := m.now(); m.conv.LiveDue(now, frameInterval) {
		m.conv = m.showLive(now)
	} else {
		t.stale = true
		if !t.flushing {
			t.flushing = true
			cmds = append(cmds, tea.Tick(frameInterval, func(time.Time) tea.Msg { return flushLiveMsg{t.id} }))
		}
	}
	return m, tea.Batch(cmds...)
}

// applyEvent applies one report; changed tells whether the streaming reply
// shows something new.
// The caller has cloned m.turn.
func (m Model) applyEvent(ev engine.Event) (Model, bool) {
	t := m.turn
	switch ev.Kind {
	case engine.EntryAdded:
		if e := ev.Entry; m.title == "" && e.Kind == session.KindUser && !t.compact { // as the engine titles the session
			m.title = session.TitleFrom(engine.TitleOf(e.Text, e.Attachments))
		}
		m.conv = m.conv.CaughtUp().Add(ev.Entry)
		m = m.noteWritten(ev.Entry).refreshBranches() // an edited prompt has siblings
		if ev.Entry.Kind == session.KindError && ev.Entry.Error != nil {
			m.status = m.status.Failed(failedName(ev.Entry.Error))
		}
	case engine.ReplyStarted:
		r := &reply{live: ev.Entry}
		if m.conv.Has(ev.Entry.ID) {
			base := ev.Entry
			r.base = &base
			m.conv = m.conv.Restart(ev.Entry)
		} else {
			m.conv = m.conv.Add(ev.Entry)
			m = m.refreshBranches(ev.Entry) // a regenerated reply has siblings
		}
		t.reply, t.running, t.retry = r, "", ""
	case engine.StreamEvent:
		if t.reply == nil || t.cancelled {
			return m, false
		}
		_ = t.reply.acc.Add(ev.Stream)
		switch ev.Stream.Type {
		case api.EventPing, "":
			return m, false // nothing on screen changes
		case api.EventContentBlockDelta:
			t.tokens++
		}
		t.retry = ""
		return m, true
	case engine.Retrying:
		t.retry = errorLine(ev.Retry.Err)
		t.retryAt, t.retryAttempt = m.now().Add(ev.Retry.Wait), ev.Retry.Attempt+1 // the request's second attempt is the first retry
	case engine.ReplyEnded:
		r := t.reply
		t.reply = nil
		if r == nil {
			break
		}
		e := ev.Entry
		if e.Message == nil || !engineSaved(e, ev.Err, r.base != nil) {
			m.conv = m.conv.Remove(r.live.ID)
			m = m.refreshBranches()
			break
		}
		if r.base == nil || e.Message != r.base.Message {
			m.usage.Add(r.acc.Message().Usage)
		}
		m.lastStop = e.Message.StopReason
		if e.Status != session.StatusComplete {
			m.lastStop = ""
		}
		m.conv = m.conv.Finish(e)
		m.meter = m.meter.Measure(m.conv.Entries(), m.usage)
		m = m.noteWritten(e).refreshBranches()
	case engine.ToolRunning:
		t.running, t.progress = ev.Call.Name, ""
	case engine.ToolProgress:
		if t.running == ev.Call.Name {
			t.progress = ev.Text
		}
	case engine.Notice:
		m.status = m.status.Note(ev.Text)
	case engine.SaveFailed:
		m.status = m.status.Unsaved(ev.Err.Error())
	}
	return m, false
}

// engineSaved tells whether the engine kept a reply that ended with err:
// a complete one, one with text, or a continued one.
func engineSaved(e session.Entry, err error, continued bool) bool {
	if err == nil || continued {
		return true
	}
	for _, b := range e.Message.Content {
		if b.Type != api.BlockText || strings.TrimSpace(b.Text) != "" {
			return true
		}
	}
	return false
}

// showLive renders the reply in flight as it stands.
func (m Model) showLive(now time.Time) conversation.Model {
	t := m.turn
	r := t.reply
	var base *session.Entry
	if r.base != nil {
		base = r.base
	}
	msg := engine.Join(base, r.acc.Message(), m.params.Model)
	r.live.Message = &msg
	t.stale = false
	return m.conv.UpdateLive(r.live, now)
}

// askCall shows a tool call that waits for an answer: y, n or a for a
// command; a typed result for a tool without one.
func (m Model) askCall(a *askMsg, ch <-chan turnItem) (tea.Model, tea.Cmd) {
	m.turn = m.turn.clone() // changed below: a copy of the model keeps its own
	t := m.turn
	if t.cancelled {
		a.answer <- engine.Approval{Stop: true} // buffered: never blocks
		return m, waitTurn(t.id, ch)
	}
	if a.hasCommand && m.approve.Always(a.call.Name) {
		a.answer <- engine.Approval{Run: true, Always: true}
		return m, waitTurn(t.id, ch)
	}
	if a.hasCommand && m.approve.All() { // the session's approve all
		t.running = a.call.Name
		a.answer <- engine.Approval{Run: true}
		return m, tea.Batch(waitTurn(t.id, ch), m.w.spin.Tick)
	}
	t.ask = a
	t.running = ""
	c := approval.Call{Name: a.call.Name, Server: m.mcpServerOf(a.call.Name), Input: a.call.Input, HasCommand: a.hasCommand}
	if a.hasCommand {
		c.Command, c.Dir = toolCommand(m.opts.Tools, a.call.Name), m.opts.WorkDir
	}
	m.approve = m.approve.Open(c)
	if !a.hasCommand {
		m.draft = m.input.Value()
		m.input = m.input.Reset().SetPlaceholder(fmt.Sprintf("type the result of %s, enter sends · esc declines", sanitize.Line(a.call.Name)))
	}
	m.waitCh = ch
	return m.layout(), nil
}

// answerCall answers the tool call that waits and goes on with the turn.
func (m Model) answerCall(ap engine.Approval) (tea.Model, tea.Cmd) {
	m.turn = m.turn.clone() // changed below: a copy of the model keeps its own
	t := m.turn
	a := t.ask
	t.ask, t.pasteRefused, t.pending = nil, false, nil
	typing := !a.hasCommand || m.approve.Declining()
	m.approve = m.approve.Close()
	if typing {
		m.input = m.input.Reset().SetValue(m.draft).SetPlaceholder(input.Placeholder)
		m.draft = ""
	}
	if ap.Always {
		m.approve = m.approve.Allow(a.call.Name)
	}
	if ap.Run {
		t.running = a.call.Name
	}
	a.answer <- ap // buffered: never blocks
	ch := m.waitCh
	m.waitCh = nil
	return m.layout(), tea.Batch(waitTurn(t.id, ch), m.w.spin.Tick)
}

// answerSettle is how long a yes to a tool call waits for keys behind it:
// far more than a terminal takes to deliver the rest of one paste, far less
// than a person notices.
const answerSettle = 40 * time.Millisecond

// answerDueMsg says the yes numbered seq of turn id has settled.
type answerDueMsg struct{ turn, seq int }

// answerDue gives the settled yes to the engine, if it still stands.
func (m Model) answerDue(msg answerDueMsg) (tea.Model, tea.Cmd) {
	m.turn = m.turn.clone() // changed below: a copy of the model keeps its own
	t := m.turn
	if t == nil || t.id != msg.turn || t.pending == nil || t.pendingSeq != msg.seq || t.ask == nil {
		return m, nil
	}
	return m.answerCall(*t.pending)
}

// decideCall handles y, n and a while a call waits for approval, and enter
// or esc while it waits for a typed result.
func (m Model) decideCall(k tea.KeyMsg) (tea.Model, tea.Cmd, bool) {
	m.turn = m.turn.clone() // changed below: a copy of the model keeps its own
	t := m.turn
	if t == nil || t.ask == nil {
		return m, nil, false
	}
	typing := m.awaitsResult() // a result, or the reason of a no
	answers := k.String() == "y" || k.String() == "a"
	if typing {
		answers = key.Matches(k, m.keys.Send)
	}
	if box, ok := m.approvalBox().Update(k); ok && t.pending == nil {
		m.approve = box
		return m.layout(), nil, true
	}
	if t.pending != nil {
		// Keys right behind a yes: it came with other text, as a paste
		// without bracketed paste comes ("a b" is "a", " ", "b").
		t.pending, t.pasteRefused = nil, true
		return m, nil, true
	}
	if answers && typing && m.input.AfterPaste() {
		// A typed result's enter right behind text that came in one read
		// ("forty two" and enter, typed fast) is handled as a prompt's:
		// it sends once no key follows it (see sendDueMsg).
		return m, nil, false
	}
	if answers && (m.input.AfterPaste() || m.input.AfterSpace() && !typing) {
		// A paste can hold a false end of paste (ESC [201~) and then "y",
		// and Bubble Tea splits a paste without bracketed paste at spaces
		// ("take a look" is "take", " ", "a", …): a key right behind a
		// paste or a space is never an answer.
		t.pasteRefused = true
		return m, nil, true
	}
	if typing {
		switch {
		case key.Matches(k, m.keys.Send):
			next, cmd := m.sendResult()
			return next, cmd, true
		case key.Matches(k, m.keys.Cancel):
			next, cmd := m.answerCall(engine.Approval{})
			return next, cmd, true
		}
		next, cmd := m.updateInput(k)
		return next, cmd, true
	}
	switch {
	case k.String() == "y" || k.String() == "a":
		// A yes waits answerSettle: a key behind it in that time means it
		// came with other text, and it is not taken.
		t.pending = &engine.Approval{Run: true, Always: k.String() == "a"}
		t.pendingSeq++
		id, seq := t.id, t.pendingSeq
		return m, tea.Tick(answerSettle, func(time.Time) tea.Msg { return answerDueMsg{turn: id, seq: seq} }), true
	case k.String() == "n":
		// The reason is typed in the input, the draft put aside meanwhile.
		m.approve = m.approve.Decline()
		m.draft = m.input.Value()
		m.input = m.input.Reset().SetPlaceholder("why not? it goes to the model as the tool's result · enter sends · esc declines without one")
		return m.layout(), nil, true
	case key.Matches(k, m.keys.Cancel):
		next, cmd := m.answerCall(engine.Approval{})
		return next, cmd, true
	case key.Matches(k, m.keys.ApproveMode): // approve all, this call first
		next, cmd := m.setApproveAll(true).answerCall(engine.Approval{Run: true})
		return next, cmd, true
	}
	return m, nil, true // other keys wait for an answer
}

// awaitsResult says whether a tool call waits for typed text: its
// result, or the reason it is declined.
func (m Model) awaitsResult() bool {
	return m.turn != nil && m.turn.ask != nil && (!m.turn.ask.hasCommand || m.approve.Declining())
}

// sendResult answers the tool call that waits for typed text with the
// input's: its result, or the reason of a no.
func (m Model) sendResult() (tea.Model, tea.Cmd) {
	text := m.input.Value()
	if m.turn.ask.hasCommand {
		return m.answerCall(engine.Approval{Reason: strings.TrimSpace(text)})
	}
	return m.answerCall(engine.Approval{Result: &text})
}

// cancelTurn stops the turn in flight: the reply keeps what arrived, marked
// cancelled, and the engine saves it; the turn ends when the engine says so.
func (m Model) cancelTurn() (tea.Model, tea.Cmd) {
	m.turn = m.turn.clone() // changed below: a copy of the model keeps its own
	t := m.turn
	if t.cancelled {
		return m, nil
	}
	t.cancelled = true
	t.cancel()
	var cmd tea.Cmd
	if t.ask != nil {
		next, c := m.answerCall(engine.Approval{Stop: true})
		m, cmd = next.(Model), c
	}
	if r := t.reply; r != nil {
		m.conv = m.showLive(m.now())
		live := r.live
		live.Status = session.StatusCancelled
		m.conv = m.conv.Finish(live)
	}
	m.status = m.status.Note("cancelled")
	return m.layout(), cmd
}

// endTurn ends the turn: on an error the prompt goes back into the input.
func (m Model) endTurn(d turnDone) (tea.Model, tea.Cmd) {
	t := m.turn
	m.turn = nil
	t.cancel()
	if r := t.reply; r != nil { // the engine stopped mid-reply without saying so
		m.conv = m.conv.Remove(r.live.ID)
	}
	if d.sessID != "" {
		m.sessID = d.sessID
	}
	if d.err != nil && !t.cancelled && t.prompt != "" {
		// After any failure, a first one or a retry's, the failed prompt
		// is one key away.
		if v := strings.TrimSpace(m.input.Value()); v == "" || v == t.prompt {
			m.input = m.input.SetValue(t.prompt)
			m.status = m.status.Note("the prompt is back in the input: enter sends it again")
		} else {
			m.status = m.status.Note("the prompt failed · the input keeps your draft: /retry sends the failed prompt again")
		}
	}
	if errors.Is(d.err, engine.ErrNotStarted) {
		m.status = m.status.Note(d.err.Error()) // refused before it started, as /continue with nothing to continue
		if m.pending.Len() == 0 {
			m.pending = m.pending.Set(t.attachments) // nothing was saved: they wait again
		}
	}
	if d.res.Unanswered && m.status.Notice() == "" && !t.cancelled {
		m.status = m.status.Note("tool calls left unanswered")
	}
	m.conv = m.conv.CaughtUp()
	if m.opts.Sync != nil && d.sessID != "" {
		m.opts.Sync.Kick() // never waits: the sync runs in the background
	}
	if m.quitting.Active() {
		return m.quit()
	}
	if t.compact && d.err == nil && !t.cancelled {
		m.meter = m.meter.Compacted()
	}
	if d.err == nil && !t.cancelled && !t.compact && !d.res.Unanswered && m.meter.SetModel(m.params.Model).AutoCompact() {
		// auto_compact: past its mark the conversation goes on from a
		// summary, before the queue's next prompt.
		pct, _ := m.meter.SetModel(m.params.Model).Percent()
		cut := m
		cut.conv = cut.conv.Truncate(0)
		next, cmd := cut.startTurn(engine.Turn{Compact: true})
		next.status = next.status.Note(fmt.Sprintf("context %d%% full: compacting (auto_compact) · the full history stays on its branch", pct))
		return next, cmd
	}
	next, cmd := m.layout().queueAfterTurn(d.err == nil && !t.cancelled && !d.res.Unanswered)
	if t.cancelled {
		return next, cmd
	}
	return next, tea.Batch(cmd, m.notifyEnd(t.started, "reply"))
}
