package turns

import (
	"context"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"muse/api"
	"muse/session"
	"muse/ui/engine"
)

// Model is the turn in flight, a message turn or an image turn (never
// both), and what the screen keeps while a tool call waits: the engine's
// channel, not read meanwhile, and the input put aside while a tool's
// result is typed. Its zero value has nothing in flight.
type Model struct {
	seq   int // numbers turns and image turns
	turn  *Run
	image *Job
	wait  <-chan Item
	draft string
	// flushing is set while a FlushMsg is on its way; stale while events
	// arrived that the screen does not show yet. They are values, not the
	// turn's: a frame costs no copy of the turn.
	flushing, stale bool
}

// Run is the message turn in flight, as the engine reported it. The
// screen reads it (Model.Turn) and never changes it.
type Run struct {
	ID      int
	Cancel  context.CancelFunc
	Started time.Time
	// Prompt is the prompt sent, put back into the input if the turn
	// fails; Compact says the turn is a /compact.
	Prompt  string
	Compact bool
	// Attachments are the prompt's, put back above the input if the turn
	// is refused before it starts.
	Attachments []session.File
	// Ask is the tool call waiting for an answer, if any; PasteRefused
	// says an answer to it came with other text and was not taken.
	Ask          *Ask
	PasteRefused bool
	// Running names the tool whose command runs, and Progress is how far
	// it is, as its MCP server last said (sanitized).
	Running, Progress string
	// Retry is why the request is retried, while it waits to be: at
	// RetryAt, as attempt RetryAttempt.
	Retry        string
	RetryAt      time.Time
	RetryAttempt int
	Tokens       int
	Cancelled    bool

	// reply is the reply streaming, if any.
	reply *reply
	// pending is a yes to Ask that waits AnswerSettle for keys behind it:
	// pendingSeq numbers it, for its AnswerDueMsg.
	pending    *engine.Approval
	pendingSeq int
}

// clone returns a copy of *p to change, or nil for nil: a copy of the
// model keeps its turn and its image job as they were. A run's reply
// streaming is shared: its accumulator only grows as the engine reports.
func clone[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}

// Streaming says whether a reply streams.
func (t *Run) Streaming() bool { return t.reply != nil }

// reply is the reply being streamed, as the screen shows it.
type reply struct {
	acc  api.Accumulator
	live session.Entry
	base *session.Entry // the reply /continue extends
}

// Job is the image turn in flight, as the engine reported it. The screen
// reads it (Model.Image) and never changes it.
type Job struct {
	ID      int
	Cancel  context.CancelFunc
	Started time.Time
	// Entry is the turn's entry as shown, once the engine wrote it.
	Entry *session.Entry
	// Phase is what the status bar says of it; Done and Total the progress
	// of a download.
	Phase       string
	Done, Total int64
	Cancelled   bool
}

// Turn is the message turn in flight, or nil.
func (m Model) Turn() *Run { return m.turn }

// Image is the image turn in flight, or nil.
func (m Model) Image() *Job { return m.image }

// Busy says whether a turn or an image turn is in flight.
func (m Model) Busy() bool { return m.turn != nil || m.image != nil }

// InFlight says whether id is the turn in flight, a message turn or an
// image turn.
func (m Model) InFlight(id int) bool {
	return m.turn != nil && m.turn.ID == id || m.image != nil && m.image.ID == id
}

// Ask is the tool call that waits for an answer, or nil.
func (m Model) Ask() *Ask {
	if m.turn == nil {
		return nil
	}
	return m.turn.Ask
}

// Streaming says whether a reply streams.
func (m Model) Streaming() bool { return m.turn != nil && m.turn.reply != nil }

// Reply is the reply streaming as it stands, if one does.
func (m Model) Reply() (api.Message, bool) {
	if !m.Streaming() {
		return api.Message{}, false
	}
	return m.turn.reply.acc.Message(), true
}

// With returns m with r in flight, as a turn the engine runs: for a
// screen built in a test.
func (m Model) With(r Run) Model {
	m.turn = &r
	return m
}

// StartTurn starts the message turn t, which the engine builds and checks
// (one it refuses ends with engine.ErrNotStarted), at now.
func (m Model) StartTurn(now time.Time, cfg engine.Config, w *session.Writer, t engine.Turn) (Model, tea.Cmd) {
	ctx, cancel := context.WithCancel(context.Background())
	m.seq++
	m.flushing, m.stale = false, false
	m.turn = &Run{ID: m.seq, Cancel: cancel, Started: now, Prompt: t.Prompt, Attachments: t.Attachments, Compact: t.Compact}
	if t.Compact { // failed, it is the command that comes back
		m.turn.Prompt = strings.TrimSpace("/compact " + t.Prompt)
	}
	return m, runTurn(ctx, cfg, w, t, m.seq)
}

// WithPrompt returns m with the turn's prompt set to p: what comes back
// into the input if a retry fails too.
func (m Model) WithPrompt(p string) Model {
	m.turn = clone(m.turn)
	if m.turn != nil {
		m.turn.Prompt = p
	}
	return m
}

// StartImage starts the image turn t at now; preview builds, in the
// background, the preview of each image saved.
func (m Model) StartImage(now time.Time, cfg engine.ImageConfig, w *session.Writer, t engine.ImageTurn, preview func(path string) string) (Model, tea.Cmd) {
	ctx, cancel := context.WithCancel(context.Background())
	m.seq++
	m.image = &Job{ID: m.seq, Cancel: cancel, Started: now, Phase: "generating"}
	return m, runImage(ctx, cfg, w, t, preview, m.seq)
}

// Wait waits for the next reports of turn id on ch, if it is still in
// flight.
func (m Model) Wait(id int, ch <-chan Item) tea.Cmd {
	if !m.InFlight(id) {
		return nil
	}
	return follow(id, ch)
}

// Cancel stops what is in flight: the engine saves it, marked cancelled,
// and the turn ends when the engine says so. ok is false when it was
// cancelled already.
func (m Model) Cancel() (_ Model, ok bool) {
	switch {
	case m.turn != nil:
		if m.turn.Cancelled {
			return m, false
		}
		m.turn = clone(m.turn)
		m.turn.Cancelled = true
		m.turn.Cancel()
	case m.image != nil:
		if m.image.Cancelled {
			return m, false
		}
		m.image = clone(m.image)
		m.image.Cancelled, m.image.Phase = true, "cancelling"
		m.image.Cancel()
	default:
		return m, false
	}
	return m, true
}

// Close cancels what is in flight, as the program ends.
func (m Model) Close() {
	if m.turn != nil {
		m.turn.Cancel()
	}
	if m.image != nil {
		m.image.Cancel()
	}
}

// Ended is how the turn in flight ended, for the screen to go on.
type Ended struct {
	// Image says it was an image turn; Started is when it started.
	Image     bool
	Started   time.Time
	Cancelled bool
	// Prompt, Attachments and Compact are the message turn's (see Run).
	Prompt      string
	Attachments []session.File
	Compact     bool
	// Live is the id of the reply that streamed when the engine stopped
	// without saying how it ended, to drop from the screen.
	Live string
}

// End ends the turn in flight, once the engine has said it is done.
func (m Model) End() (Model, Ended) {
	if j := m.image; j != nil {
		m.image = nil
		j.Cancel()
		return m, Ended{Image: true, Started: j.Started, Cancelled: j.Cancelled}
	}
	t := m.turn
	m.turn = nil
	if t == nil {
		return m, Ended{}
	}
	t.Cancel()
	e := Ended{Started: t.Started, Cancelled: t.Cancelled, Prompt: t.Prompt, Attachments: t.Attachments, Compact: t.Compact}
	if t.reply != nil {
		e.Live = t.reply.live.ID
	}
	return m, e
}

// Live returns the reply streaming as it stands, to show; model names
// the model of a reply that has not said its own.
func (m Model) Live(model string) (Model, session.Entry) {
	m.stale = false // shown now: no longer owed
	r := m.turn.reply
	msg := engine.Join(r.base, r.acc.Message(), model)
	r.live.Message = &msg
	return m, r.live
}

// Owe notes a frame the reply streaming skipped: it returns the command
// that asks for it later (a FlushMsg), or nil when one is on its way.
func (m Model) Owe() (Model, tea.Cmd) {
	m.stale = true
	if m.flushing {
		return m, nil
	}
	m.flushing = true
	id := m.turn.ID
	return m, tea.Tick(FrameInterval, func(time.Time) tea.Msg { return FlushMsg{id} })
}

// Flush takes msg: due says the reply streaming has a frame to show.
func (m Model) Flush(msg FlushMsg) (_ Model, due bool) {
	t := m.turn
	if t == nil || msg.ID != t.ID {
		return m, false
	}
	m.flushing = false
	return m, m.stale && t.reply != nil
}

// Continues notes that the reply that started extends e, which the screen
// shows already (/continue).
func (m Model) Continues(e session.Entry) Model {
	m.turn = clone(m.turn)
	if r := m.turn.reply; r != nil {
		c := *r
		c.base = &e
		m.turn.reply = &c
	}
	return m
}
