// Package engine runs a turn of a conversation: it sends the request,
// streams and checkpoints the reply, runs the tools the reply calls (after
// asking), continues for up to the round limit, and saves every record
// through the session's writer. The chat screen and the one-shot command
// line both run their turns here, and differ only in how they show the
// events and answer the questions.
//
// The engine draws nothing and prints nothing: it reports events to a
// callback. Text in the events is as the server sent it; the front ends
// sanitize it before it reaches a terminal.
//
// It is the one request path. A front end hands it a Turn (the prompt, its
// files as session.File values, the settings) and checks nothing itself.
// The engine alone turns the journal into messages (history.go), builds
// each request and checks it (request.go):
//
//   - A turn that writes a prompt builds its first request before the
//     prompt is written (runner.prepare): the branch's history, read back
//     from the session, then the prompt and its files from memory. check
//     validates it once; a refusal returns ErrNotStarted and writes
//     nothing, so the front end puts the prompt and its files back. The
//     request is then sent as it was checked, and the client does not
//     check it again (api.Checked).
//   - Each later request of the turn (a tool round, a retry, a continue)
//     is built from the branch and checked once the same way (runner.build).
//   - An image turn's request is built and checked once by RunImage, and
//     sent as checked.
//
// So each attachment is checked once per request that carries it, in
// check, by api.MessageRequest.Validate: the new prompt's files and the
// stored ones of the history alike. The exceptions are where that check
// cannot look: an image of a tool's result is checked once as it is built
// (resultImage), and a stored attachment the check refuses (an imported
// record that lies about its bytes) is left out, named by a line saying
// why, at the cost of one more check of the request. ui/attach reads and
// prepares a file before it is attached (its kind, its limits, scaling),
// which is making the file, not checking a request.
package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"muse/api"
	"muse/session"
	"muse/ui/toolrun"
)

// ErrNotStarted wraps the errors of a turn refused before any request was
// sent: an invalid setting, nothing to retry or to continue.
var ErrNotStarted = errors.New("turn not started")

// notStarted wraps err in ErrNotStarted, keeping its message.
func notStarted(err error) error { return &refusal{err} }

type refusal struct{ err error }

func (r *refusal) Error() string   { return r.err.Error() }
func (r *refusal) Unwrap() []error { return []error{r.err, ErrNotStarted} }

// Defaults of a Config.
const (
	defaultMaxRounds       = 20
	defaultCheckpointEvery = time.Second
)

// Tool is a tool offered to the model. A tool with a Command is run by muse
// (the command is never sent to the server); one without takes a result the
// user types.
type Tool struct {
	Def     api.Tool
	Command []string
	// Call, when set, runs the tool instead of a command: a tool of a
	// Model Context Protocol server (see ToolCaller).
	Call ToolCaller
	// Server names the MCP server of a tool with Call.
	Server string
	// Allowed runs the tool without asking: the configuration allows it.
	Allowed bool
}

// Defs returns the definitions sent to the server.
func Defs(tools []Tool) []api.Tool {
	defs := make([]api.Tool, 0, len(tools))
	for _, t := range tools {
		defs = append(defs, t.Def)
	}
	return defs
}

// ToolRunner runs a tool's command with input on stdin and returns its
// output; err is set only when the command did not run to its end (it
// could not start, timed out or was cancelled).
type ToolRunner func(ctx context.Context, argv []string, input []byte) (output string, exitCode int, err error)

// ImageFitter scales the image data, named name, down to side pixels a
// side, as an attachment is (ui/attach.Fit). The engine takes it from its
// front end, so that it needs no image codecs or scaler of its own.
type ImageFitter func(name string, data []byte, side int) (session.File, error)

// Config is what every turn of a front end shares.
type Config struct {
	Client *api.Client
	Tools  []Tool
	// RunTool runs tool commands; nil refuses to run them.
	RunTool ToolRunner
	// FitImage scales an image of a request down when the request holds
	// too many large ones (see fitMedia); nil scales none, and the check
	// refuses such a request.
	FitImage ImageFitter
	// MoreTools, when set, is asked at the start of each turn for tools
	// offered besides Tools (those of MCP servers; see ToolSource).
	MoreTools ToolSource
	// Instructions, when set, is asked after MoreTools for text added to
	// each request's system prompt: the MCP servers' instructions.
	Instructions func() string
	// MaxRounds bounds the tool rounds of one turn (defaultMaxRounds when 0).
	MaxRounds int
	// CheckpointEvery is how often a streaming reply is checkpointed.
	CheckpointEvery time.Duration
	// NoStream asks for the whole reply at once.
	NoStream bool
	// AskAll puts every tool call to the Approver, those of tools the
	// configuration allows (Tool.Allowed) too: -p without --allow-tools
	// runs no tool of any kind.
	AskAll bool
	// MaxReplySize is the size limit of a reply, in bytes of its content
	// (api.DefaultMaxReplySize when 0): a reply that passes it, or
	// api.MaxReplyBlocks blocks, is cut there and saved with the stop
	// reason api.StopSizeLimit, and a notice says so (api.CutNote).
	MaxReplySize int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Ticker makes the ticker that checkpoints a stalled stream: its
	// ticks and how to stop it. nil means a time.Ticker of d.
	Ticker func(d time.Duration) (<-chan time.Time, func())
}

// Turn says what a turn does: send a new prompt, regenerate the reply to
// the last prompt as a new branch, or continue a reply cut at max_tokens or
// paused by the server (see CanContinue).
type Turn struct {
	Prompt string
	// Attachments are sent with Prompt, before its text; each is stored in
	// the session (see session.Writer.SaveAttachment).
	Attachments []session.File
	Retry       bool
	Continue    bool
	// Edit, with Prompt, is the id of an earlier prompt that Prompt
	// replaces: the new prompt starts a branch beside it, and the request
	// carries the history before it, then Prompt. The old branch stays.
	Edit string
	// EditAttachments, with Edit, sends Attachments in place of the edited
	// prompt's, even when there are none (the user removed them); without
	// it, an edit with no Attachments keeps the edited prompt's.
	EditAttachments bool
	// Regenerate is the id of a reply to write again as a sibling branch:
	// the request carries the history before it. Retry regenerates the
	// reply to the last prompt.
	Regenerate string
	// Compact asks the model for a summary of the active branch, Prompt
	// adding instructions to it, and writes the request and the summary as
	// a new branch from the session's root, so that the next prompts go on
	// from the summary alone; the full history stays on its own branch.
	// Only a full summary is written: a compaction cancelled, failed or
	// cut short writes nothing, the branch compacted stays the active one,
	// and Run's error wraps ErrCompactUndone (see Result.Undone).
	Compact bool
	// SaveOnAnswer, for a new prompt, writes it (with its files, and the
	// title of a new session) only once the server answers its request,
	// with a reply or an error of its own: a turn whose request got no
	// answer at all (the server could not be reached, or the turn was
	// cancelled first) writes nothing, and Result.NotSaved says so. -p
	// sets it for a new session, so that a server that cannot be reached
	// does not leave sessions behind that hold a prompt alone.
	SaveOnAnswer bool
	// Params are the settings the requests are sent with.
	Params session.Params
}

// CompactPrompt is the prompt of a Compact turn with the instructions
// given (may be ""): it heads the new branch, where the model reads it
// before its summary.
func CompactPrompt(instructions string) string {
	p := "Summarise our conversation so far, so that we can go on from the summary alone: " +
		"the goals, the decisions and why, the facts, names, files and code that matter, and what is left to do."
	if s := strings.TrimSpace(instructions); s != "" {
		p += "\n\n" + s
	}
	return p
}

// Kind is what an Event reports.
type Kind int

// Kinds of events.
const (
	// EntryAdded: an entry was written (a prompt, tool results or an error).
	EntryAdded Kind = iota
	// ReplyStarted: a reply is on its way; Entry holds it, still empty.
	ReplyStarted
	// StreamEvent: an event of the reply's stream arrived.
	StreamEvent
	// Retrying: the request failed and is tried again.
	Retrying
	// ReplyEnded: the reply is complete, cancelled or failed; Entry holds it.
	ReplyEnded
	// ToolRunning: a tool's command started.
	ToolRunning
	// Notice: something worth a line in the status bar.
	Notice
	// SaveFailed: a record could not be written; it waits for the next save.
	SaveFailed
	// ToolProgress: a running tool reported its progress; Call is the
	// call, Text says how far it is (sanitized).
	ToolProgress
)

// Event is one thing that happened in a turn. Entries are copies: the
// receiver may keep them.
type Event struct {
	Kind   Kind
	Entry  session.Entry
	Stream api.Event
	Retry  api.RetryInfo
	Call   api.ContentBlock
	Text   string
	Err    error
}

// Approval is the answer to a tool call.
type Approval struct {
	// Run runs the tool's command; Always also runs the tool's later calls
	// in this turn without asking.
	Run, Always bool
	// Result, for a tool without a command, is the result the user typed.
	Result *string
	// Reason, for a call not run, is why, as the user typed it: the model
	// gets it with the refusal.
	Reason string
	// Stop ends the turn, leaving this call and the rest unanswered.
	Stop bool
}

// Approver answers a tool call. hasCommand tells whether muse would run a
// command or needs a typed result. It may block; ctx ends with the turn.
type Approver func(ctx context.Context, call api.ContentBlock, hasCommand bool) Approval

// Result is how a turn ended.
type Result struct {
	// Message is the last reply, as complete as it got.
	Message api.Message
	// Reply is the entry of the last reply, when there was one.
	Reply *session.Entry
	// Rounds counts the tool rounds run.
	Rounds int
	// Unanswered is set when the turn stopped with tool calls unanswered.
	Unanswered bool
	// NotSaved is set when a SaveOnAnswer turn got no answer: nothing of
	// it was written.
	NotSaved bool
	// Undone, for a Compact turn that ended without a full summary, is the
	// session as it stands: nothing of the compaction was written, and its
	// active branch is the one compacted, for the front end to show again.
	Undone *session.Session
}

// ErrCompactUndone is wrapped by the error of a Compact turn that ended
// without a full summary: nothing was written, and the next prompt goes
// on from the whole conversation.
var ErrCompactUndone = errors.New("nothing was lost: the conversation goes on in full")

// compactUndone is the error of a Compact turn whose summary did not
// arrive whole, for err.
func compactUndone(err error) error {
	what := "failed: " + err.Error()
	if errors.Is(err, context.Canceled) {
		what = "cancelled"
	}
	return &undone{what: what, err: err}
}

type undone struct {
	what string
	err  error
}

func (u *undone) Error() string   { return "/compact " + u.what + " · " + ErrCompactUndone.Error() }
func (u *undone) Unwrap() []error { return []error{u.err, ErrCompactUndone} }

// summaryCut says why a summary that arrived without an error is not a
// full one, or nil when it is: it must end as the model meant it to.
func summaryCut(msg api.Message) error {
	switch {
	case msg.StopReason == api.StopMaxTokens:
		return errors.New("the summary was cut at max_tokens (/max-tokens raises it)")
	case msg.StopReason != api.StopEndTurn && msg.StopReason != api.StopSequence:
		return fmt.Errorf("the summary ended early (stop reason %q)", msg.StopReason)
	case !hasText(msg):
		return errors.New("the summary came back empty")
	}
	return nil
}

// Run runs one turn on the session w, reporting to emit and asking approve
// about tool calls. It returns the request's error, if any (cancelling ctx
// gives context.Canceled); whatever arrived is saved either way, and errors
// of saving are reported as SaveFailed events and by w.Unsaved.
func Run(ctx context.Context, cfg Config, w *session.Writer, t Turn, emit func(Event), approve Approver) (Result, error) {
	r := &runner{cfg: cfg, w: w, emit: emit, approve: approve, always: map[string]bool{}}
	if r.cfg.Now == nil {
		r.cfg.Now = time.Now
	}
	if r.cfg.Ticker == nil {
		r.cfg.Ticker = func(d time.Duration) (<-chan time.Time, func()) {
			t := time.NewTicker(d)
			return t.C, t.Stop
		}
	}
	if r.cfg.MaxRounds <= 0 {
		r.cfg.MaxRounds = defaultMaxRounds
	}
	if r.cfg.CheckpointEvery <= 0 {
		r.cfg.CheckpointEvery = defaultCheckpointEvery
	}
	if r.cfg.MaxReplySize <= 0 {
		r.cfg.MaxReplySize = api.DefaultMaxReplySize
	}
	if r.cfg.MoreTools != nil {
		r.cfg.Tools = r.moreTools(ctx)
	}
	if r.cfg.Instructions != nil {
		r.instructions = r.cfg.Instructions()
	}
	return r.run(ctx, t)
}

type runner struct {
	cfg     Config
	w       *session.Writer
	emit    func(Event)
	approve Approver
	always  map[string]bool
	// next, when set, is the first request of the turn, built and checked
	// before its prompt was written (see prepare): reply sends it as it is.
	next *prepared
	// instructions are added to the system prompt (Config.Instructions).
	instructions string
	// compacting, in a Compact turn, is its prompt, written with the
	// summary once the summary has arrived whole (see summarised).
	compacting *session.Entry
	// unwritten, in a SaveOnAnswer turn, is its prompt until the server
	// answers; notSaved is set if it never did.
	unwritten *prompt
	notSaved  bool
}

// prompt is a new prompt to write: its text and files.
type prompt struct {
	text  string
	files []session.File
	time  time.Time
}

// saved reports a failed write; the writer keeps the record for later.
func (r *runner) saved(err error) {
	if err != nil {
		r.emit(Event{Kind: SaveFailed, Err: err})
	}
}

func (r *runner) run(ctx context.Context, t Turn) (Result, error) {
	var base *session.Entry
	switch {
	case t.Compact:
		if err := r.compact(&t); err != nil {
			return Result{}, notStarted(err)
		}
	case t.Continue:
		b, err := r.continueBase()
		if err != nil {
			return Result{}, notStarted(err)
		}
		base = b
	case t.Retry:
		u, err := r.lastPrompt()
		if err != nil {
			return Result{}, notStarted(err)
		}
		// The new reply is a sibling of the old one: the branch goes back
		// to the prompt, and the old reply stays in the session.
		r.saved(r.w.SetHead(u.ID))
	case t.Regenerate != "":
		parent, ok := r.parentOf(t.Regenerate, session.KindAssistant)
		if !ok {
			return Result{}, notStarted(fmt.Errorf("no reply %q on this branch to regenerate", t.Regenerate))
		}
		if parent == "" {
			return Result{}, notStarted(errors.New("that reply answers nothing: there is no prompt before it"))
		}
		r.saved(r.w.SetHead(parent))
	case t.Edit != "":
		parent, ok := r.parentOf(t.Edit, session.KindUser)
		if !ok {
			return Result{}, notStarted(fmt.Errorf("no prompt %q on this branch to edit", t.Edit))
		}
		before := r.w.Branch()
		for i, e := range before {
			if e.ID == t.Edit {
				if len(t.Attachments) == 0 && !t.EditAttachments {
					// The edited prompt keeps its attachments.
					t.Attachments = r.reread(e.Attachments)
				}
				before = before[:i]
				break
			}
		}
		t.Attachments = sentNow(t.Attachments)
		if err := r.prepare(t.Params, before, t.Prompt, t.Attachments); err != nil {
			return Result{}, notStarted(err)
		}
		user, err := r.w.AppendAt(session.Entry{Kind: session.KindUser, Text: t.Prompt, Attachments: r.store(t.Attachments), Time: r.now()}, parent)
		r.saved(err)
		r.emit(Event{Kind: EntryAdded, Entry: user})
	default:
		t.Attachments = sentNow(t.Attachments)
		if err := r.prepare(t.Params, r.w.Branch(), t.Prompt, t.Attachments); err != nil {
			return Result{}, notStarted(err)
		}
		p := prompt{text: t.Prompt, files: t.Attachments, time: r.now()}
		if t.SaveOnAnswer {
			r.unwritten = &p // written once the server answers (see reply)
		} else {
			r.writePrompt(p)
		}
	}
	var res Result
	for {
		reply, err := r.reply(ctx, t.Params, base)
		base = nil
		res.Message = *reply.Message
		res.Reply = &reply
		res.NotSaved = r.notSaved
		if err != nil && t.Compact {
			snap := r.w.Snapshot()
			res.Reply, res.Undone = nil, &snap
			return res, compactUndone(err)
		}
		if err != nil {
			return res, err
		}
		if reply.Message.StopReason != api.StopToolUse || len(calls(*reply.Message)) == 0 {
			return res, nil
		}
		if res.Rounds >= r.cfg.MaxRounds {
			r.emit(Event{Kind: Notice, Text: fmt.Sprintf("stopped after %d tool rounds: send a prompt to go on", r.cfg.MaxRounds)})
			res.Unanswered = true
			return res, nil
		}
		results, stopped := r.answer(ctx, *reply.Message)
		if stopped {
			if len(results) > 0 { // cancelled: what ran is kept, the rest marked
				entry, err := r.w.Append(session.Entry{Kind: session.KindTool, ToolResults: results, Time: r.now()})
				r.saved(err)
				r.emit(Event{Kind: EntryAdded, Entry: entry})
			}
			res.Unanswered = true
			return res, ctx.Err()
		}
		res.Rounds++
		entry, err := r.w.Append(session.Entry{Kind: session.KindTool, ToolResults: results, Time: r.now()})
		r.saved(err)
		r.emit(Event{Kind: EntryAdded, Entry: entry})
	}
}

func (r *runner) now() time.Time { return r.cfg.Now().UTC() }

// writePrompt writes the new prompt p after the head, with its files, and
// titles a new session after it.
func (r *runner) writePrompt(p prompt) {
	if snap := r.w.Snapshot(); snap.Title == "" && len(snap.All) == 0 {
		var first []session.Attachment
		if len(p.files) > 0 {
			first = []session.Attachment{p.files[0].Attachment}
		}
		r.saved(r.w.SetTitle(session.TitleFrom(TitleOf(p.text, first))))
	}
	user, err := r.w.Append(session.Entry{Kind: session.KindUser, Text: p.text, Attachments: r.store(p.files), Time: p.time})
	r.saved(err)
	r.emit(Event{Kind: EntryAdded, Entry: user})
}

// compact starts a Compact turn: the request is the active branch and
// the compaction prompt, checked. The prompt will start a new branch from
// the root, which the summary follows; it is reported now, but written
// only with a full summary (see summarised), so that a compaction that
// ends any other way leaves the session as it was. The model may not call
// tools while it summarises.
func (r *runner) compact(t *Turn) error {
	before := r.w.Branch()
	if len(before) == 0 {
		return errors.New("nothing to compact yet: the conversation is empty")
	}
	prompt := CompactPrompt(t.Prompt)
	t.Params.ToolChoice = "none"
	if err := r.prepare(t.Params, before, prompt, nil); err != nil {
		return err
	}
	user := session.Entry{ID: r.w.NewID(), Kind: session.KindUser, Text: prompt, Time: r.now()}
	r.compacting = &user
	r.emit(Event{Kind: EntryAdded, Entry: user})
	return nil
}

// summarised ends the reply of a Compact turn, live, which ended with
// err: a full summary is written after its prompt as a new branch from
// the root, which becomes the active one; anything else writes nothing,
// and the error says why it was not used.
func (r *runner) summarised(live session.Entry, err error) (session.Entry, error) {
	prompt := *r.compacting
	r.compacting = nil
	if err == nil {
		err = summaryCut(*live.Message)
	}
	if err != nil {
		if live.Status == session.StatusComplete {
			live.Status = session.StatusFailed
		}
		return live, err
	}
	p, werr := r.w.AppendAt(prompt, "")
	r.saved(werr)
	live.Parent = p.ID
	e, werr := r.w.Append(live)
	r.saved(werr)
	return e, nil
}

// prepared is a request built and checked, and the notes of what was
// done to fit it in the service's limits on media.
type prepared struct {
	req   api.MessageRequest
	notes []string
}

// prepare builds and checks the first request of a turn that writes a
// prompt, before it is written: the entries before, then the prompt's
// text after its files, whose bytes are in memory. A refused request
// leaves the session as it was. The request is kept for reply, which
// sends it as it is.
func (r *runner) prepare(p session.Params, before []session.Entry, text string, files []session.File) error {
	msgs, stored := history(before, r.w.ReadAttachment, false)
	pr, err := r.build(p, withPrompt(msgs, text, files), stored)
	if err != nil {
		return err
	}
	r.next = &pr
	return nil
}

// build makes the request that sends msgs with the settings p, fitted to
// the limits on media and checked (see check): the one place a message
// request is built and checked.
func (r *runner) build(p session.Params, msgs []api.MessageParam, stored storedFiles) (prepared, error) {
	msgs, notes := fitMedia(msgs, r.cfg.FitImage)
	req := Request(p, msgs, Defs(r.cfg.Tools))
	req.System = r.system(req.System)
	return prepared{req: req, notes: notes}, check(&req, stored)
}

// store saves the attachments in the session and returns what the prompt's
// entry records of them. One that cannot be stored is kept in memory for
// this run, and reported.
func (r *runner) store(files []session.File) []session.Attachment {
	var out []session.Attachment
	for _, f := range files {
		a, err := r.w.SaveAttachment(f.Attachment, f.Data)
		r.saved(err)
		out = append(out, a)
	}
	return out
}

// sentNow returns files as a new prompt sends them (see
// session.Attachment.AsSentNow): a text file re-attached from an old
// prompt goes as a document like any other.
func sentNow(files []session.File) []session.File {
	out := make([]session.File, len(files))
	for i, f := range files {
		f.Attachment = f.Attachment.AsSentNow()
		out[i] = f
	}
	return out
}

// reread returns the stored attachments with their bytes; one that cannot
// be read is left out.
func (r *runner) reread(as []session.Attachment) []session.File {
	var out []session.File
	for _, a := range as {
		data, err := r.w.ReadAttachment(a)
		if err != nil {
			r.emit(Event{Kind: Notice, Text: fmt.Sprintf("left out %s: %v", a.Name, err)})
			continue
		}
		out = append(out, session.File{Attachment: a, Data: data})
	}
	return out
}

// TitleOf is what a new session is titled after, its first prompt: the
// text, or the name of its first attachment when it has no text.
func TitleOf(text string, attachments []session.Attachment) string {
	if strings.TrimSpace(text) == "" && len(attachments) > 0 {
		return attachments[0].Name
	}
	return text
}

// parentOf returns the parent of the entry id of the active branch, which
// must be of kind.
func (r *runner) parentOf(id, kind string) (string, bool) {
	for _, e := range r.w.Branch() {
		if e.ID == id && e.Kind == kind {
			return e.Parent, true
		}
	}
	return "", false
}

// lastPrompt returns the last prompt of the active branch.
func (r *runner) lastPrompt() (session.Entry, error) {
	es := r.w.Branch()
	for i := len(es) - 1; i >= 0; i-- {
		if es[i].Kind == session.KindUser {
			return es[i], nil
		}
	}
	return session.Entry{}, errors.New("nothing to retry yet: send a prompt first")
}

// CanContinue reports whether a reply ended so that a Continue turn goes
// on with it: cut at max_tokens, or paused by the server (pause_turn), whose
// turn goes on when it is sent back as it is, with no new prompt.
func CanContinue(m *api.Message) bool {
	return m != nil && (m.StopReason == api.StopMaxTokens || m.StopReason == api.StopPauseTurn)
}

// ErrNoContinue is why a Continue turn is refused when the branch does not
// end with a reply that can go on (see Continuable).
var ErrNoContinue = errors.New("/continue needs a last reply that was cut at max_tokens or paused by the server")

// Continuable reports whether the branch es ends with a reply that a
// Continue turn goes on with (see CanContinue).
func Continuable(es []session.Entry) bool {
	n := len(es)
	return n > 0 && es[n-1].Kind == session.KindAssistant && CanContinue(es[n-1].Message)
}

// continueBase returns the last reply when it can go on (see Continuable),
// and is below the size limit.
func (r *runner) continueBase() (*session.Entry, error) {
	es := r.w.Branch()
	if n := len(es); Continuable(es) {
		e := es[n-1]
		if api.ContentSize(*e.Message) >= r.cfg.MaxReplySize {
			return nil, errors.New("/continue: the reply is at the size limit of one reply already")
		}
		return &e, nil
	}
	return nil, ErrNoContinue
}

// reply streams one reply to the active branch and saves it. base is a reply
// cut at max_tokens or paused that this one continues.
func (r *runner) reply(ctx context.Context, p session.Params, base *session.Entry) (session.Entry, error) {
	pr, checkErr := r.request(p, base)
	for _, n := range pr.notes {
		r.emit(Event{Kind: Notice, Text: n})
	}
	req := pr.req
	start := r.cfg.Now()
	var live session.Entry
	// The size limit is the whole reply's: a reply that goes on has the
	// room its first part left.
	limit := r.cfg.MaxReplySize
	if base != nil {
		live = *base
		limit -= api.ContentSize(*base.Message)
	} else {
		pp := p
		live = session.Entry{ID: r.w.NewID(), Kind: session.KindAssistant, Time: r.now(), Params: &pp, Message: &api.Message{Model: p.Model}}
	}
	live.Status = session.StatusStreaming
	r.emit(Event{Kind: ReplyStarted, Entry: live})

	// The stream assembles the reply; this reads it, and so does the
	// ticker below while the stream stalls.
	var stream *api.Stream
	arrived := func() api.Message {
		if stream == nil {
			var none api.Accumulator // what an empty reply holds
			return none.Message()
		}
		return stream.Message()
	}
	message := func() api.Message { return Join(base, arrived(), p.Model) }
	// The reply is checkpointed at most once every CheckpointEvery: as
	// events arrive, and by a ticker while the stream stalls, so that what
	// is on screen is on disk within about that time either way.
	var mu sync.Mutex // guards stream, last and dirty
	last, dirty := start, false
	checkpoint := func(now time.Time) {
		if !dirty || now.Sub(last) < r.cfg.CheckpointEvery {
			return
		}
		last, dirty = now, false
		cp := live
		m := message()
		cp.Message = &m
		if hasText(m) && r.compacting == nil { // a summary is written whole or not at all
			r.saved(r.w.Checkpoint(cp))
		}
	}
	stopTicker := make(chan struct{})
	tickerDone := make(chan struct{})
	go func() {
		defer close(tickerDone)
		ticks, stop := r.cfg.Ticker(r.cfg.CheckpointEvery)
		defer stop()
		for {
			select {
			case <-ticks:
				mu.Lock()
				checkpoint(r.cfg.Now())
				mu.Unlock()
			case <-stopTicker:
				return
			}
		}
	}()
	var s *api.Stream
	err := checkErr // a request refused is a reply failed, as one the server refuses
	if err == nil {
		s, err = r.open(ctx, req, limit)
	}
	unsaved := false // a SaveOnAnswer turn's request got no answer: nothing is written
	if p := r.unwritten; p != nil {
		r.unwritten = nil
		var answer *api.APIError
		if err == nil || errors.As(err, &answer) {
			r.writePrompt(*p)
		} else {
			unsaved, r.notSaved = true, true
		}
	}
	var requestID string
	oversized := 0 // one event over the whole size limit cut the reply: the server's fault
	if err == nil {
		mu.Lock()
		stream = s
		mu.Unlock()
		for s.Next() {
			mu.Lock()
			dirty = true
			checkpoint(r.cfg.Now())
			mu.Unlock()
			r.emit(Event{Kind: StreamEvent, Stream: s.Current()})
		}
		requestID, err = s.RequestID(), s.Err() // an error event ends the stream too
		oversized = s.OversizedEvent()
		s.Close()
	}
	close(stopTicker)
	<-tickerDone
	msg := message()
	live.Message = &msg
	live.RequestID = requestID
	live.LatencyMS = r.cfg.Now().Sub(start).Milliseconds()
	live.Truncated = truncatedInputs(msg)
	cancelled := errors.Is(err, context.Canceled)
	switch {
	case err == nil:
		live.Status = session.StatusComplete
	case base != nil && len(arrived().Content) == 0:
		live = *base // a failed /continue keeps the reply it was extending
	case cancelled:
		live.Status = session.StatusCancelled
	default:
		live.Status = session.StatusFailed
	}
	compacting := r.compacting != nil
	switch {
	case unsaved:
	case compacting:
		live, err = r.summarised(live, err)
	case err == nil || hasText(msg) || base != nil || cancelled:
		// A reply cancelled before anything arrived is saved too, empty,
		// so that its prompt shows it was cancelled (History sends
		// neither).
		e, werr := r.w.Append(live)
		r.saved(werr)
		live = e
	}
	r.emit(Event{Kind: ReplyEnded, Entry: live, Err: err})
	switch {
	case msg.StopReason == api.StopSizeLimit && oversized > 0:
		r.emit(Event{Kind: Notice, Text: api.OversizedNote(oversized)})
	case msg.StopReason == api.StopSizeLimit:
		r.emit(Event{Kind: Notice, Text: api.CutNote(msg, r.cfg.MaxReplySize)})
	}
	if err != nil && !cancelled && !compacting && !unsaved {
		ee := session.ErrorEntry(err)
		if ee.RequestID == "" {
			ee.RequestID = requestID
		}
		ee.Time = r.now()
		e, werr := r.w.Append(ee)
		r.saved(werr)
		r.emit(Event{Kind: EntryAdded, Entry: e})
	}
	return live, err
}

// request returns the request of the next reply: the one prepared
// before the turn's prompt was written, or, for the next round of tools,
// a retry or a continue, the active branch built and checked now. base is
// a reply that this one continues.
func (r *runner) request(p session.Params, base *session.Entry) (prepared, error) {
	if pr := r.next; pr != nil {
		r.next = nil
		return *pr, nil
	}
	msgs, stored := history(r.w.Branch(), r.w.ReadAttachment, true)
	if base != nil {
		if n := len(msgs); n > 0 && msgs[n-1].Role == api.RoleAssistant {
			// The server continues an assistant turn that ends without trailing space.
			msgs[n-1].Text = strings.TrimRight(msgs[n-1].Text, " \t\n")
		}
	}
	return r.build(p, msgs, stored)
}

// open sends req and returns the stream of its reply; a whole reply, when
// the config asks for one, is cut at limit bytes of content as a stream is,
// and replayed as a stream.
func (r *runner) open(ctx context.Context, req api.MessageRequest, limit int) (*api.Stream, error) {
	opts := []api.RequestOption{
		api.Checked(), // by build
		api.OnRetry(func(info api.RetryInfo) { r.emit(Event{Kind: Retrying, Retry: info}) }),
		api.MaxReplySize(limit),
	}
	if r.cfg.NoStream {
		m, err := r.cfg.Client.CreateMessage(ctx, req, opts...)
		if err != nil {
			return nil, err
		}
		return api.NewStreamFromMessage(m), nil
	}
	return r.cfg.Client.StreamMessage(ctx, req, opts...)
}

// answer asks about and runs each tool call of msg, in order. stopped is
// set when the calls are left unanswered: the approver said so, or the
// turn was cancelled.
func (r *runner) answer(ctx context.Context, msg api.Message) (results []session.ToolResult, stopped bool) {
	all := calls(msg)
	// cancelled answers the calls from i on as cancelled, once the turn is:
	// the results already had are kept with them.
	cancelled := func(i int) ([]session.ToolResult, bool) {
		if len(results) == 0 {
			return nil, true // nothing ran: the calls stay unanswered
		}
		for _, call := range all[i:] {
			results = append(results, session.ToolResult{ToolUseID: call.ID, Name: call.Name, IsError: true,
				Output: "cancelled by the user", Approval: "no"})
		}
		return results, true
	}
	for i, call := range all {
		if ctx.Err() != nil {
			return cancelled(i)
		}
		tool := r.find(call.Name)
		if tool == nil {
			results = append(results, session.ToolResult{ToolUseID: call.ID, Name: call.Name, IsError: true,
				Output: fmt.Sprintf("muse has no tool named %q", call.Name), Approval: "no"})
			continue
		}
		hasCommand := len(tool.Command) > 0 || tool.Call != nil
		a := Approval{Run: true, Always: true}
		if !r.always[call.Name] && (!tool.Allowed || r.cfg.AskAll) || !hasCommand {
			a = r.approve(ctx, call, hasCommand)
		}
		if ctx.Err() != nil {
			return cancelled(i)
		}
		if a.Stop {
			return nil, true
		}
		switch {
		case !hasCommand && a.Result != nil:
			results = append(results, session.ToolResult{ToolUseID: call.ID, Name: call.Name, Output: *a.Result, Approval: "typed"})
		case !hasCommand || !a.Run:
			what := "the user declined to run this tool"
			if !hasCommand {
				what = "the user declined to give a result"
			}
			if a.Reason != "" {
				what += ": " + a.Reason
			}
			results = append(results, session.ToolResult{ToolUseID: call.ID, Name: call.Name, IsError: true, Output: what, Approval: "no"})
		default:
			approval := "yes"
			if a.Always {
				approval = "always"
				r.always[call.Name] = true
			}
			results = append(results, r.runTool(ctx, tool, call, approval))
			if ctx.Err() != nil {
				return cancelled(i + 1)
			}
		}
	}
	return results, false
}

// runTool runs a call's command.
func (r *runner) runTool(ctx context.Context, tool *Tool, call api.ContentBlock, approval string) session.ToolResult {
	res := session.ToolResult{ToolUseID: call.ID, Name: call.Name, Approval: approval}
	if tool.Call != nil {
		return r.callTool(ctx, tool, call, res)
	}
	if r.cfg.RunTool == nil {
		res.IsError, res.Output = true, "this muse runs no tool commands"
		return res
	}
	r.emit(Event{Kind: ToolRunning, Call: call})
	input := []byte(call.Input)
	if len(input) == 0 {
		input = []byte("{}")
	}
	start := r.cfg.Now()
	out, code, err := r.cfg.RunTool(ctx, append([]string(nil), tool.Command...), input)
	res.Output, res.ExitCode, res.DurationMS = out, code, r.cfg.Now().Sub(start).Milliseconds()
	if err != nil {
		res.IsError = true
		res.Output = strings.TrimSpace(out + "\n" + err.Error())
	} else if code != 0 {
		res.IsError = true
	}
	return res
}

func (r *runner) find(name string) *Tool {
	for i := range r.cfg.Tools {
		if r.cfg.Tools[i].Def.Name == name {
			return &r.cfg.Tools[i]
		}
	}
	return nil
}

// calls returns the tool calls of msg that may run: not cut short.
func calls(msg api.Message) []api.ContentBlock {
	var out []api.ContentBlock
	for _, b := range msg.Content {
		if b.Type == api.BlockToolUse && !b.Truncated {
			out = append(out, b)
		}
	}
	return out
}

// Join returns the reply so far: msg, or msg continuing base, the reply
// that /continue extends. The text of a reply cut at max_tokens goes on in
// its last text block; the blocks of a paused turn's continuation follow
// its blocks as they came.
func Join(base *session.Entry, msg api.Message, model string) api.Message {
	if msg.Model == "" {
		msg.Model = model
	}
	if base == nil || base.Message == nil {
		return msg
	}
	out := base.Message.Clone()
	cut := out.StopReason == api.StopMaxTokens // else paused
	if n := len(out.Content); cut && n > 0 && out.Content[n-1].Type == api.BlockText {
		// The request sent the cut text without its trailing space; the new
		// text starts where that ends.
		out.Content[n-1].Text = strings.TrimRight(out.Content[n-1].Text, " \t\n")
	}
	for _, b := range msg.Content {
		if n := len(out.Content); cut && b.Type == api.BlockText && n > 0 && out.Content[n-1].Type == api.BlockText {
			out.Content[n-1].Text += b.Text
			continue
		}
		out.Content = append(out.Content, b)
	}
	out.StopReason, out.StopSequence = msg.StopReason, msg.StopSequence
	out.Usage.OutputTokens += msg.Usage.OutputTokens
	out.Usage.InputTokens = msg.Usage.InputTokens
	return out
}

// hasText reports whether msg holds anything worth saving.
func hasText(msg api.Message) bool {
	for _, b := range msg.Content {
		if b.Type != api.BlockText || strings.TrimSpace(b.Text) != "" {
			return true
		}
	}
	return false
}

// truncatedInputs lists the tool calls whose input was cut short.
func truncatedInputs(msg api.Message) map[int]string {
	var out map[int]string
	for i, b := range msg.Content {
		if b.Truncated {
			if out == nil {
				out = map[int]string{}
			}
			out[i] = b.PartialInput
		}
	}
	return out
}

// Commands returns the ToolRunner that runs tool commands as muse does: in
// their own process group, killed whole on timeout or cancel, for at most
// timeout (toolrun's default timeout when 0), and without muse's credentials,
// the variables named in drop, or a variable that holds one of secrets in
// their environment.
func Commands(timeout time.Duration, drop []string, secrets ...string) ToolRunner {
	drop = append(append([]string(nil), toolrun.DefaultDrop...), drop...)
	return func(ctx context.Context, argv []string, input []byte) (string, int, error) {
		r := toolrun.Run(ctx, toolrun.Spec{Argv: argv, Input: input, Timeout: timeout, Drop: drop, Secrets: secrets})
		return r.Output, r.ExitCode, r.Err
	}
}
