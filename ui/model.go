package ui

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"muse/api"
	"muse/session"
	"muse/theme"
)

// Options configure the chat screen.
type Options struct {
	// Client talks to the service.
	Client *api.Client
	// Store persists the conversation; nil keeps it in memory only.
	Store *session.Store
	// Session is a session to resume; nil starts a new one on the first prompt.
	Session *session.Session
	// Params are the settings of a new session.
	Params session.Params
	// Theme styles the screen.
	Theme *theme.Theme
	// Profile is the colour profile glamour renders with.
	Profile termenv.Profile
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Prompts is the prompt history Up and Down recall; nil keeps none.
	Prompts *session.PromptHistory
	// Terminal receives what is written to the terminal outside the frame:
	// OSC 52 copies and kitty image transmissions; nil means os.Stdout.
	Terminal io.Writer
	// Getenv reads the environment (TMUX, TERM); nil means os.Getenv.
	Getenv func(string) string
	// Unlock releases the lock on Session when the screen leaves it.
	Unlock func() error
	// Keys rebinds actions by name, from the profile.
	Keys map[string][]string
	// StartInPicker opens the session picker first.
	StartInPicker bool
	// ImageModel is the default image model.
	ImageModel string
	// Tools are offered to the model; a tool with a Command is run by muse,
	// after the user allows it.
	Tools []Tool
	// MaxToolRounds bounds the automatic tool rounds of one prompt (default 20).
	MaxToolRounds int
	// Kitty draws image previews with the kitty graphics protocol, written
	// to Terminal; it is detected before the program starts.
	Kitty bool
}

// state is which screen the root model shows.
type state int

const (
	stateChat state = iota
	statePicker
)

// Model is muse's root Bubble Tea model: the conversation, the input and the
// status bar, plus the reply in flight.
type Model struct {
	state state
	opts  Options
	th    *theme.Theme
	keys  KeyMap
	now   func() time.Time

	width, height int

	conv conversation
	// w holds the big child widgets behind a pointer: the model is copied on
	// every Update, and these are tens of kilobytes.
	w        *widgets
	renderer *renderer
	params   session.Params

	// The reply in flight, the image turn in flight, and the tool calls
	// being answered (toolRound counts the rounds of the current prompt).
	reply      *reply
	imaging    *imageJob
	tools      *toolTurn
	toolAlways map[string]bool
	toolRound  int

	// Session bookkeeping: the journal of the session shown, its id once
	// saved, and the queue of saves, one running at a time.
	journal    *journal
	sessID     string
	title      string
	titleSaved bool
	saving     bool
	savingJ    *journal // the journal of the save in flight
	queue      []saveJob

	// recall walks the prompt history; recalled is the prompt it put in the input.
	recall   *session.Recall
	recalled string

	usage    api.Usage
	lastStop string
	nextID   int
	notice   string
	quitting bool

	memo *viewMemo
}

// widgets are the chat screen's child components that are large to copy.
type widgets struct {
	input    textarea.Model
	help     help.Model
	spin     spinner.Model
	progress progress.Model
	picker   picker
}

// reply is the state of a reply that is streaming.
type reply struct {
	turn    int
	cancel  context.CancelFunc
	acc     api.Accumulator
	user    session.Entry
	live    session.Entry
	started time.Time
	retry   string
	tokens  int
	// flushing is set while a flushLiveMsg is on its way; stale while
	// events arrived that the screen does not show yet.
	flushing, stale bool
	// base is the reply that /continue extends, or nil.
	base *api.Message
	// checkpointed is when the text was last written to the journal;
	// userSaved tells whether the prompt was written with it.
	checkpointed time.Time
	userSaved    bool
}

// New returns the chat screen.
func New(opts Options) Model {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Terminal == nil {
		opts.Terminal = os.Stdout
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	keys := DefaultKeyMap()
	keys.Override(opts.Keys)
	r := &renderer{th: opts.Theme, md: newMarkdown(opts.Theme.Markdown, opts.Profile), previews: map[string]string{}, showPreviews: true}

	in := textarea.New()
	in.KeyMap = textareaKeys(keys)
	in.ShowLineNumbers = false
	in.Prompt = "› "
	in.Placeholder = inputPlaceholder
	in.CharLimit = 0
	in.MaxHeight = 0
	in.FocusedStyle.CursorLine = lipgloss.NewStyle()
	in.Cursor.SetMode(cursor.CursorStatic) // nothing ticks while nothing animates
	in.FocusedStyle.Placeholder = opts.Theme.Styles.Subtle
	in.BlurredStyle.Placeholder = opts.Theme.Styles.Subtle
	in.Focus()

	sp := spinner.New(spinner.WithSpinner(spinner.MiniDot), spinner.WithStyle(opts.Theme.Styles.Spinner))
	h := help.New()
	h.Styles.ShortKey = opts.Theme.Styles.Muted
	h.Styles.ShortDesc = opts.Theme.Styles.Subtle
	h.Styles.FullKey = opts.Theme.Styles.Muted
	h.Styles.FullDesc = opts.Theme.Styles.Subtle
	h.Styles.ShortSeparator = opts.Theme.Styles.Subtle
	h.Styles.FullSeparator = opts.Theme.Styles.Subtle

	m := Model{
		opts: opts, th: opts.Theme, keys: keys, now: opts.Now,
		conv: newConversation(r, keys), w: &widgets{input: in, help: h, spin: sp, progress: progress.New(progress.WithWidth(20), progress.WithSolidFill(string(opts.Theme.Styles.Accent.GetForeground().(lipgloss.Color))), progress.WithoutPercentage())}, renderer: r,
		params: opts.Params, memo: &viewMemo{}, journal: &journal{},
	}
	m.w.picker = newPicker(opts.Store, opts.Theme)
	if s := opts.Session; s != nil {
		m = m.resume(s, opts.Unlock)
	}
	return m
}

// resume shows a saved session; unlock releases its lock when it is left.
func (m Model) resume(s *session.Session, unlock func() error) Model {
	m.journal = &journal{sess: s, unlock: unlock}
	m.sessID, m.title, m.params, m.titleSaved = s.ID, s.Title, s.Params, true
	if m.params.MaxTokens == 0 {
		m.params.MaxTokens = m.opts.Params.MaxTokens
	}
	if m.params.Model == "" {
		m.params.Model = m.opts.Params.Model
	}
	m.conv = m.conv.SetEntries(s.Entries)
	m.nextID = session.NextSeq(s.Entries) - 1
	m.usage, m.lastStop, m.recall, m.notice = api.Usage{}, "", nil, ""
	for _, e := range s.Entries {
		if e.Message != nil {
			addUsage(&m.usage, e.Message.Usage)
			m.lastStop = e.Message.StopReason
		}
	}
	for _, w := range s.Warnings {
		m = m.addEntry(session.Entry{Kind: session.KindNotice, Text: "session: " + w})
	}
	m.state = stateChat
	return m.layout()
}

// inputPlaceholder is what the empty input says.
const inputPlaceholder = "Ask anything · enter sends · alt+enter adds a line"

// Init starts nothing, unless the picker opens first: the screen is idle
// until a key arrives.
func (m Model) Init() tea.Cmd {
	if m.opts.StartInPicker && m.opts.Store != nil {
		return func() tea.Msg { return openPickerMsg{} }
	}
	return loadPreviews(m.conv.Entries(), m.previewer())
}

// openPickerMsg opens the session picker.
type openPickerMsg struct{}

// Update handles a message.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.w.picker = m.w.picker.SetSize(msg.Width, msg.Height)
		return m.layout(), nil
	case tea.KeyMsg:
		if m.state == statePicker && !key.Matches(msg, m.keys.Quit) {
			var cmd tea.Cmd
			m.w.picker, cmd = m.w.picker.Update(msg)
			return m, cmd
		}
		return m.handleKey(msg)
	case sessionsMsg, sessionChangedMsg:
		var cmd tea.Cmd
		m.w.picker, cmd = m.w.picker.Update(msg)
		return m, cmd
	case pickedMsg:
		return m.pick(msg.id)
	case openPickerMsg:
		return m.openPicker()
	case pickerDoneMsg:
		m.state = stateChat
		return m, nil
	case sessionLoadedMsg:
		return m.loaded(msg)
	case exportedMsg:
		if msg.err != nil {
			m.notice = msg.err.Error()
		} else {
			m.notice = "exported to " + msg.path
		}
		return m, nil
	case tea.MouseMsg:
		var cmd tea.Cmd
		m.conv, cmd = m.conv.Update(msg)
		return m, cmd
	case replyStartedMsg:
		if m.reply == nil || msg.turn != m.reply.turn {
			return m, nil
		}
		return m, waitReply(msg.turn, msg.ch)
	case replyBatchMsg:
		return m.applyBatch(msg)
	case flushLiveMsg:
		if m.reply != nil && msg.turn == m.reply.turn {
			m.reply.flushing = false
			if m.reply.stale {
				m.conv = m.showLive(m.now())
			}
		}
		return m, nil
	case imageResultMsg:
		return m.imageResult(msg)
	case toolRanMsg:
		return m.toolRan(msg)
	case imagesStartedMsg:
		if m.imaging == nil || msg.turn != m.imaging.turn {
			return m, nil
		}
		return m, waitImages(msg.turn, msg.ch)
	case imageItemMsg:
		return m.imageItem(msg)
	case previewsMsg:
		for k, v := range msg.previews {
			m.renderer.previews[k] = v
		}
		m.conv = m.conv.Rerender()
		return m, nil
	case spinner.TickMsg:
		if m.reply == nil && m.imaging == nil {
			return m, nil // nothing animates: stop ticking
		}
		var cmd tea.Cmd
		m.w.spin, cmd = m.w.spin.Update(msg)
		return m, cmd
	case savedMsg:
		return m.saved(msg)
	case editedMsg:
		return m.edited(msg)
	case copiedMsg:
		if msg.err != nil {
			m.notice = "copy failed: " + msg.err.Error()
		} else {
			m.notice = fmt.Sprintf("copied %d characters of the last reply", msg.chars)
		}
		return m, nil
	case noticeMsg:
		m.notice = msg.text
		return m, nil
	}
	return m.updateInput(msg)
}

func (m Model) handleKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if t := m.tools; t != nil && !key.Matches(msg, m.keys.Quit) {
		if t.typing {
			switch {
			case key.Matches(msg, m.keys.Send):
				return m.typedResult(m.w.input.Value(), false)
			case key.Matches(msg, m.keys.Cancel):
				return m.typedResult("", true)
			}
			return m.updateInput(msg)
		}
		if next, cmd, handled := m.decideCall(msg); handled {
			return next, cmd
		}
	}
	switch {
	case key.Matches(msg, m.keys.Quit):
		if m.reply != nil {
			return m.cancelReply()
		}
		if m.tools != nil {
			m = m.abandonTools()
			m.notice = "tool calls left unanswered"
			return m.layout(), nil
		}
		if m.imaging != nil {
			return m.cancelImage()
		}
		return m.quit()
	case key.Matches(msg, m.keys.Cancel):
		if m.reply != nil {
			return m.cancelReply()
		}
		if m.imaging != nil {
			return m.cancelImage()
		}
		if m.w.help.ShowAll {
			m.w.help.ShowAll = false
			return m.layout(), nil
		}
		return m, nil
	case key.Matches(msg, m.keys.Send):
		return m.submit()
	case key.Matches(msg, m.keys.Help) && m.w.input.Value() == "":
		m.w.help.ShowAll = !m.w.help.ShowAll
		return m.layout(), nil
	case key.Matches(msg, m.keys.Editor):
		return m, editText(m.w.input.Value(), editPrompt)
	case key.Matches(msg, m.keys.Thinking):
		m.renderer.expandThinking = !m.renderer.expandThinking
		m.conv = m.conv.Rerender()
		return m, nil
	case key.Matches(msg, m.keys.Copy):
		return m.copyLast()
	case key.Matches(msg, m.keys.Sessions):
		return m.openPicker()
	case key.Matches(msg, m.keys.Open):
		return m.openImage(0)
	case key.Matches(msg, m.keys.Previews):
		m.renderer.showPreviews = !m.renderer.showPreviews
		m.conv = m.conv.Rerender()
		return m, nil
	case key.Matches(msg, m.keys.New):
		return m.newSession()
	case key.Matches(msg, m.keys.Complete):
		if done, ok := completeSlash(m.w.input.Value()); ok {
			m.w.input.SetValue(done)
		}
		return m.layout(), nil
	case key.Matches(msg, m.keys.Prev, m.keys.Next) && m.recalling():
		return m.recallPrompt(key.Matches(msg, m.keys.Prev))
	case key.Matches(msg, m.keys.PageUp, m.keys.PageDown, m.keys.HalfUp, m.keys.HalfDown, m.keys.Top, m.keys.Bottom):
		var cmd tea.Cmd
		m.conv, cmd = m.conv.Update(msg)
		return m, cmd
	}
	m.notice = ""
	m.recall = nil
	return m.updateInput(msg)
}

// submit sends the typed prompt, or runs the typed slash command.
func (m Model) submit() (tea.Model, tea.Cmd) {
	text := strings.TrimSpace(m.w.input.Value())
	if text == "" {
		return m, nil
	}
	if isSlash(text) {
		return m.runCommand(text)
	}
	if m.busy() {
		m.notice = "a reply or image is still on its way: esc cancels it"
		return m, nil
	}
	req := m.request(append(session.History(m.conv.Entries()), api.TextMessage(api.RoleUser, text)))
	if err := req.Validate(); err != nil {
		m.notice = err.Error()
		return m, nil
	}
	user := m.newEntry(session.Entry{Kind: session.KindUser, Text: text})
	m.conv = m.conv.caughtUp().Add(user)
	m.toolRound = 0
	if m.title == "" {
		m.title = session.TitleFrom(text)
	}
	m.w.input.Reset()
	m.recall = nil
	next, cmd := m.startTurn(req, user, nil)
	return next, tea.Batch(cmd, rememberPrompt(m.opts.Prompts, m.sessID, text))
}

// startTurn streams a reply to req. A base entry is a reply cut at
// max_tokens that the new text continues.
func (m Model) startTurn(req api.MessageRequest, user session.Entry, base *session.Entry) (Model, tea.Cmd) {
	if err := req.Validate(); err != nil {
		m.notice = err.Error()
		return m, nil
	}
	var live session.Entry
	if base != nil {
		live = *base
		live.Status = session.StatusStreaming
		m.conv = m.conv.caughtUp().Restart(live)
	} else {
		live = m.newEntry(session.Entry{Kind: session.KindAssistant, Status: session.StatusStreaming,
			Message: &api.Message{Model: m.params.Model}, Params: m.paramsCopy()})
		m.conv = m.conv.caughtUp().Add(live)
	}
	ctx, cancel := context.WithCancel(context.Background())
	turn := m.nextID
	r := &reply{turn: turn, cancel: cancel, user: user, live: live, started: m.now()}
	if base != nil {
		r.base = base.Message
	}
	m.reply = r
	m.notice = ""
	return m.layout(), tea.Batch(startReply(ctx, m.opts.Client, req, turn), m.w.spin.Tick)
}

// message is the reply so far, joined to the reply it continues, if any.
func (r *reply) message(model string) api.Message {
	msg := r.acc.Message()
	if msg.Model == "" {
		msg.Model = model
	}
	if r.base == nil {
		return msg
	}
	out := r.base.Clone()
	if n := len(out.Content); n > 0 && out.Content[n-1].Type == api.BlockText {
		// The request sent the cut text without its trailing space; the new
		// text starts where that ends.
		out.Content[n-1].Text = strings.TrimRight(out.Content[n-1].Text, " \t\n")
	}
	for _, b := range msg.Content {
		if n := len(out.Content); b.Type == api.BlockText && n > 0 && out.Content[n-1].Type == api.BlockText {
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

// request builds a message request from the session's settings.
func (m Model) request(msgs []api.MessageParam) api.MessageRequest {
	return m.params.Request(msgs, ToolDefs(m.opts.Tools))
}

func (m Model) paramsCopy() *session.Params {
	p := m.params
	return &p
}

func (m *Model) newEntry(e session.Entry) session.Entry {
	m.nextID++
	e.ID = fmt.Sprintf("e%d", m.nextID)
	e.Time = m.now().UTC()
	return e
}

// addEntry shows an entry that is not part of a reply, such as a notice.
func (m Model) addEntry(e session.Entry) Model {
	m.conv = m.conv.Add(m.newEntry(e))
	return m
}

func (m Model) applyBatch(msg replyBatchMsg) (tea.Model, tea.Cmd) {
	r := m.reply
	if r == nil || msg.turn != r.turn {
		return m, nil // a cancelled reply's late events
	}
	var done *replyDone
	for _, it := range msg.items {
		switch {
		case it.event != nil:
			_ = r.acc.Add(*it.event) // an error event also ends the stream: see done
			if it.event.Type == api.EventContentBlockDelta {
				r.tokens++
			}
			r.retry = ""
		case it.retry != nil:
			r.retry = fmt.Sprintf("retrying in %s (attempt %d): %s",
				it.retry.Wait.Round(100*time.Millisecond), it.retry.Attempt, errorLine(it.retry.Err))
		case it.done != nil:
			done = it.done
		}
	}
	if done == nil && msg.ch == nil {
		done = &replyDone{err: api.ErrStreamCut}
	}
	if done != nil {
		return m.finish(done)
	}
	// Render at most once a frame; a skipped frame is owed and flushed later.
	cmds := []tea.Cmd{waitReply(msg.turn, msg.ch)}
	var save tea.Cmd
	if m, save = m.checkpoint(); save != nil {
		cmds = append(cmds, save)
	}
	if now := m.now(); m.conv.LiveDue(now) {
		m.conv = m.showLive(now)
	} else {
		r.stale = true
		if !r.flushing {
			r.flushing = true
			cmds = append(cmds, flushLive(r.turn))
		}
	}
	return m, tea.Batch(cmds...)
}

// showLive renders the reply in flight as it stands.
func (m Model) showLive(now time.Time) conversation {
	r := m.reply
	msg := r.message(m.params.Model)
	r.live.Message = &msg
	r.stale = false
	return m.conv.UpdateLive(r.live, now)
}

// flushLiveMsg asks for the render a throttled frame skipped.
type flushLiveMsg struct{ turn int }

func flushLive(turn int) tea.Cmd {
	return tea.Tick(frameInterval, func(time.Time) tea.Msg { return flushLiveMsg{turn} })
}

// finish ends the reply in flight: a complete reply is kept; on an error
// the partial reply is kept, the error is shown, and the prompt goes back
// into the input.
func (m Model) finish(done *replyDone) (tea.Model, tea.Cmd) {
	r := m.reply
	m.reply = nil
	r.cancel()
	r.acc.Finish()
	msg := r.message(m.params.Model)
	newUsage := r.acc.Message().Usage
	live := r.live
	live.Message = &msg
	live.RequestID = done.requestID
	live.LatencyMS = m.now().Sub(r.started).Milliseconds()
	live.Truncated = truncatedInputs(msg)
	entries := []session.Entry{r.user}
	if done.err == nil {
		live.Status = session.StatusComplete
		addUsage(&m.usage, newUsage)
		m.lastStop = msg.StopReason
		m.conv = m.conv.Finish(live)
		next, save := m.save(saveJob{entries: append(entries, live)})
		if msg.StopReason == api.StopToolUse {
			next, tools := next.beginTools(msg)
			return next, tea.Batch(save, tools)
		}
		return next, save
	}
	if r.base != nil {
		// A failed /continue keeps the reply it was extending.
		live.Status = session.StatusFailed
		if len(r.acc.Message().Content) == 0 {
			live.Message, live.Status = r.base, session.StatusComplete
		}
		m.conv = m.conv.Finish(live)
		entries = append(entries, live)
	} else if len(msg.Content) > 0 && msg.Text() != "" {
		live.Status = session.StatusFailed
		addUsage(&m.usage, newUsage)
		m.conv = m.conv.Finish(live)
		entries = append(entries, live)
	} else {
		m.conv = m.conv.Remove(live.ID)
	}
	errEntry := m.newEntry(session.ErrorEntry(done.err))
	if errEntry.RequestID == "" {
		errEntry.RequestID = done.requestID
	}
	m.conv = m.conv.Add(errEntry).caughtUp()
	if strings.TrimSpace(m.w.input.Value()) == "" && r.base == nil {
		m.w.input.SetValue(r.user.Text)
	}
	return m.save(saveJob{entries: append(entries, errEntry)})
}

// cancelReply stops the reply in flight and keeps what arrived, marked cancelled.
func (m Model) cancelReply() (tea.Model, tea.Cmd) {
	r := m.reply
	m.reply = nil
	r.cancel()
	r.acc.Finish()
	msg := r.message(m.params.Model)
	live := r.live
	live.Message = &msg
	live.Status = session.StatusCancelled
	live.LatencyMS = m.now().Sub(r.started).Milliseconds()
	live.Truncated = truncatedInputs(msg)
	addUsage(&m.usage, r.acc.Message().Usage)
	m.conv = m.conv.Finish(live)
	return m.save(saveJob{entries: []session.Entry{r.user, live}})
}

func (m Model) quit() (tea.Model, tea.Cmd) {
	m.quitting = true
	if m.saving || len(m.queue) > 0 {
		return m, nil // quit once the last save lands: no lost work
	}
	return m, tea.Quit
}

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

func errorLine(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return truncateRunes(s, 80)
}

func addUsage(total *api.Usage, u api.Usage) {
	total.InputTokens += u.InputTokens
	total.OutputTokens += u.OutputTokens
	total.CacheCreationInputTokens += u.CacheCreationInputTokens
	total.CacheReadInputTokens += u.CacheReadInputTokens
}

// SessionID returns the ID of the session being shown, once it was saved.
func (m Model) SessionID() string { return m.sessID }

// busy reports whether a reply or an image turn is in flight.
func (m Model) busy() bool { return m.reply != nil || m.imaging != nil || m.tools != nil }
