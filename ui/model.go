package ui

import (
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
	"muse/ui/conversation"
	"muse/ui/engine"
	"muse/ui/picker"
	"muse/ui/slash"
	"muse/ui/textfmt"
)

// Options configure the chat screen.
type Options struct {
	// Client talks to the service.
	Client *api.Client
	// Store persists the conversation; nil keeps it in memory only.
	Store *session.Store
	// ImageStore, with Store nil, keeps the files of image turns, in a
	// one-shot folder of each turn's: a session kept in memory only still
	// has its images saved, as -p saves them.
	ImageStore *session.Store
	// Writer is the session to resume, opened for writing; nil starts a new
	// one, whose journal is created with its first prompt.
	Writer *session.Writer
	// Preview, when set, is what the first frames show of Writer's session
	// while Writer still replays its journal (see
	// session.Store.OpenWriterAsync); the keys and the mouse wait until it
	// is done.
	Preview *session.Session
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
	// Exec runs a program with the terminal to itself (the editor); nil
	// means tea.Exec.
	Exec func(tea.ExecCommand, tea.ExecCallback) tea.Cmd
	// Getenv reads the environment (TMUX, TERM); nil means os.Getenv.
	Getenv func(string) string
	// Keys rebinds actions by name, from the profile.
	Keys map[string][]string
	// StartInPicker opens the session picker first.
	StartInPicker bool
	// ImageModel is the default image model.
	ImageModel string
	// Tools are offered to the model; a tool with a Command is run by muse,
	// after the user allows it, with RunTool.
	Tools   []Tool
	RunTool engine.ToolRunner
	// MaxToolRounds bounds the automatic tool rounds of one prompt (default 20).
	MaxToolRounds int
	// Kitty draws image previews with the kitty graphics protocol, written
	// to Terminal; it is detected before the program starts.
	Kitty bool
	// Demo says muse talks to its offline demo server: the first screen
	// lists the demo: words to try.
	Demo bool
	// Notice is a line the status bar shows first, such as why the session
	// asked for could not be opened.
	Notice string
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

	conv conversation.Model
	// w holds the big child widgets behind a pointer: the model is copied on
	// every Update, and these are tens of kilobytes.
	w        *widgets
	renderer *conversation.Renderer
	params   session.Params

	// The turn in flight (turnSeq numbers them), the image turn in flight,
	// and the tools the user allowed for the session.
	turn       *turnRun
	turnSeq    int
	waitCh     <-chan turnItem // the engine's reports, while a tool call waits
	draft      string          // the input put aside while a tool result is typed
	imaging    *imageJob
	toolAlways map[string]bool

	// writer saves the session shown; title is its title as shown.
	writer *session.Writer
	title  string
	// saveErr says why the session is not saved, while it is not;
	// lastErr names the last failed request; the status bar shows it until
	// the next turn starts.
	saveErr, lastErr string
	// closeErr is set when the session could not be saved on quitting.
	closeErr error

	// recall walks the prompt history; recalled is the prompt it put in the input.
	recall   *session.Recall
	recalled string

	// sel is selection mode, while it is on.
	sel selection
	// edit is the prompt being edited, while one is; branchCount counts
	// the session's branches, every one; branches tells where each entry
	// of the active branch stands among its siblings.
	edit        editing
	branchCount int
	branches    map[string]branchPos

	// comp is the Tab completion being cycled; hintHidden is the input the
	// hint was closed on with esc (it shows again once the input changes).
	comp       completion
	hintHidden string

	// inputTop is the first row of the input shown, inputHeight how many
	// rows show (see sizeInput).
	inputTop, inputHeight int

	usage    api.Usage
	lastStop string
	nextID   int
	notice   string
	quitting bool
	// lastKey is the kind of the last key message, and keyBefore that of
	// the one before the key being handled: an answer to a tool call or an
	// enter right behind pasted text is not taken at once (see decideCall).
	lastKey, keyBefore keyKind
	// sendPending is an enter right behind pasted text, waiting sendSettle
	// for keys behind it; sendSeq numbers it, for its sendDueMsg.
	sendPending bool
	sendSeq     int

	// loading is set while the screen shows Options.Preview, until the
	// writer's session replaces it; held are the key and mouse messages
	// that arrived meanwhile, handled then.
	loading bool
	held    []tea.Msg

	memo *viewMemo
}

// widgets are the chat screen's child components that are large to copy.
type widgets struct {
	input    textarea.Model
	help     help.Model
	spin     spinner.Model
	progress progress.Model
	picker   picker.Model
}

// Tool is a tool offered to the model.
type Tool = engine.Tool

// New returns the chat screen.
func New(opts Options) Model {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Exec == nil {
		opts.Exec = tea.Exec
	}
	if opts.Terminal == nil {
		opts.Terminal = os.Stdout
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	keys := DefaultKeyMap()
	keys.Override(opts.Keys)
	r := conversation.NewRenderer(opts.Theme, opts.Profile)

	in := textarea.New()
	in.KeyMap = textareaKeys(keys)
	in.ShowLineNumbers = false
	in.Prompt = inputPrompt // drawn by inputView; set for the textarea's width
	in.Placeholder = inputPlaceholder
	in.CharLimit = 0
	in.MaxHeight = 0
	in.SetHeight(1)                        // its own view is never drawn: see inputView
	in.Cursor.SetMode(cursor.CursorStatic) // nothing ticks while nothing animates
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
		conv: conversation.New(r, keys.scrollKeys()), w: &widgets{input: in, help: h, spin: sp, progress: progress.New(progress.WithWidth(20), progress.WithSolidFill(string(opts.Theme.Styles.Accent.GetForeground().(lipgloss.Color))), progress.WithoutPercentage())}, renderer: r,
		params: opts.Params, memo: &viewMemo{},
	}
	m.w.picker = picker.New(opts.Store, opts.Theme)
	w := opts.Writer
	if w == nil {
		w = session.NewWriter(opts.Store, opts.Params)
	}
	if opts.Preview != nil && opts.Writer != nil {
		m = m.resumeFrom(w, *opts.Preview)
		m.loading = true
	} else {
		m = m.resume(w)
	}
	m.notice = opts.Notice
	return m
}

// resume shows the session of w.
func (m Model) resume(w *session.Writer) Model {
	return m.resumeFrom(w, w.Snapshot())
}

// resumeFrom shows s, the session of w.
func (m Model) resumeFrom(w *session.Writer, s session.Session) Model {
	m.writer = w
	m.title, m.params = s.Title, s.Params
	if len(s.All) == 0 && s.ID == "" {
		m.params = m.opts.Params
	}
	if m.params.MaxTokens == 0 {
		m.params.MaxTokens = m.opts.Params.MaxTokens
	}
	if m.params.Model == "" {
		m.params.Model = m.opts.Params.Model
	}
	m.conv = m.conv.SetEntries(s.Entries)
	m = m.stopEdit().setBranches(s)
	m.sel = selection{}
	m.recall, m.notice, m.saveErr, m.lastErr = nil, "", "", ""
	m.usage, m.lastStop = branchUsage(s.Entries)
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
	if m.loading {
		w := m.writer
		return func() tea.Msg {
			time.Sleep(replayDelay)
			return replayedMsg{w: w, s: w.Snapshot()}
		}
	}
	return loadPreviews(m.conv.Entries(), m.previewer())
}

// replayDelay is how long after the program starts the writer of a preview
// begins to replay its journal: its first frame is drawn by then, which the
// replay, which takes a processor and the garbage collector, would delay.
const replayDelay = 50 * time.Millisecond

// replayedMsg carries the session of w, replayed whole, to replace the
// preview the screen opened with.
type replayedMsg struct {
	w *session.Writer
	s session.Session
}

// replayed shows the whole session in place of the preview, then handles the
// keys and mouse messages held meanwhile.
func (m Model) replayed(msg replayedMsg) (tea.Model, tea.Cmd) {
	if !m.loading || msg.w != m.writer {
		return m, nil
	}
	notice := m.notice
	m = m.resumeFrom(msg.w, msg.s)
	if m.notice == "" {
		m.notice = notice
	}
	m.loading = false
	cmds := []tea.Cmd{loadPreviews(m.conv.Entries(), m.previewer())}
	held := m.held
	m.held = nil
	var next tea.Model = m
	for _, h := range held {
		var cmd tea.Cmd
		next, cmd = next.Update(h)
		cmds = append(cmds, cmd)
	}
	return next, tea.Batch(cmds...)
}

// sendSettle is how long an enter right behind pasted text waits for keys
// behind it before it sends: far more than a terminal takes to deliver the
// rest of a paste, far less than a person notices.
const sendSettle = 40 * time.Millisecond

// sendDueMsg says the enter numbered seq has settled: it sends.
type sendDueMsg struct{ seq int }

// openPickerMsg opens the session picker.
type openPickerMsg struct{}

// Update handles a message.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case replayedMsg:
		return m.replayed(msg)
	case tea.KeyMsg, tea.MouseMsg:
		if m.loading {
			m.held = append(m.held, msg)
			return m, nil
		}
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.w.picker = m.w.picker.SetSize(msg.Width, msg.Height)
		return m.layout(), nil
	case answerDueMsg:
		return m.answerDue(msg)
	case sendDueMsg:
		if !m.sendPending || msg.seq != m.sendSeq {
			return m, nil
		}
		m.sendPending = false
		if m.awaitsResult() {
			return m.sendResult()
		}
		return m.submit()
	case tea.KeyMsg:
		if m.sendPending { // keys behind the enter: it was a line break in a paste
			m.sendPending = false
			m.w.input.InsertString("\n")
			m = m.layout() // the input grew a line, whatever the key does next
		}
		msg = asText(msg)
		m.keyBefore, m.lastKey = m.lastKey, kindOf(msg)
		if m.state == statePicker && !key.Matches(msg, m.keys.Quit) {
			var cmd tea.Cmd
			m.w.picker, cmd = m.w.picker.Update(msg)
			return m, cmd
		}
		return m.handleKey(msg)
	case picker.ListedMsg, picker.ChangedMsg:
		var cmd tea.Cmd
		m.w.picker, cmd = m.w.picker.Update(msg)
		return m, cmd
	case picker.PickedMsg:
		return m.pick(msg.ID, msg.EntryID)
	case picker.RenameOpenMsg:
		title := session.CleanTitle(msg.Title)
		if title == "" {
			m.w.picker = m.w.picker.SetStatus("a title needs some text")
			return m, nil
		}
		m.title = title
		w := m.writer
		return m, func() tea.Msg { return picker.ChangedMsg{What: "renamed", Err: w.SetTitle(title)} }
	case openPickerMsg:
		return m.openPicker()
	case picker.DoneMsg:
		m.state = stateChat
		return m, nil
	case sessionLoadedMsg:
		return m.loaded(msg)
	case switchedMsg:
		return m.switched(msg)
	case forkedMsg:
		return m.forked(msg)
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
	case turnStartedMsg:
		if m.turn == nil || msg.id != m.turn.id {
			return m, nil
		}
		return m, waitTurn(msg.id, msg.ch)
	case turnBatchMsg:
		return m.applyTurn(msg)
	case flushLiveMsg:
		if t := m.turn; t != nil && msg.id == t.id {
			t.flushing = false
			if t.stale && t.reply != nil {
				m.conv = m.showLive(m.now())
			}
		}
		return m, nil
	case imageStartedMsg:
		if m.imaging == nil || msg.id != m.imaging.id {
			return m, nil
		}
		return m, waitImage(msg.id, msg.ch)
	case imageItemMsg:
		return m.applyImage(msg)
	case previewsMsg:
		for k, v := range msg.previews {
			m.renderer.Previews[k] = v
		}
		m.conv = m.conv.Rerender()
		return m, nil
	case spinner.TickMsg:
		if (m.turn == nil || m.turn.ask != nil) && m.imaging == nil {
			return m, nil // nothing animates: stop ticking
		}
		var cmd tea.Cmd
		m.w.spin, cmd = m.w.spin.Update(msg)
		return m, cmd
	case savedMsg:
		return m.saved(msg)
	case closedMsg:
		m.closeErr = msg.err
		return m, tea.Quit
	case editFileMsg:
		return m, runEditor(msg, m.opts.Exec)
	case editedMsg:
		return m.edited(msg)
	case copiedMsg:
		if msg.err != nil {
			m.notice = "copy failed: " + msg.err.Error()
		} else {
			m.notice = fmt.Sprintf("copied %s (%s)", msg.what, textfmt.Plural(msg.chars, "character"))
		}
		return m, nil
	case openedMsg:
		return m.opened(msg)
	case noticeMsg:
		m.notice = msg.text
		return m, nil
	case draftKeptMsg:
		if m.notice == "input cleared" {
			m.notice = "input cleared · ↑ brings it back"
		}
		m.recall = nil // the next ↑ starts from the draft
		return m, nil
	}
	if m.state == statePicker {
		// The picker's own messages, such as its list's filter results.
		var cmd tea.Cmd
		m.w.picker, cmd = m.w.picker.Update(msg)
		return m, cmd
	}
	return m.updateInput(msg)
}

func (m Model) handleKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if m.turn != nil && m.turn.ask != nil && !key.Matches(msg, m.keys.Quit) {
		if next, cmd, handled := m.decideCall(msg); handled {
			return next, cmd
		}
	}
	if m.sel.active {
		return m.selectKey(msg)
	}
	switch {
	case key.Matches(msg, m.keys.Quit):
		// From the inside out: a reply or image in flight, then the draft,
		// then muse itself.
		if m.turn != nil && !m.turn.cancelled {
			return m.cancelTurn()
		}
		if m.imaging != nil {
			return m.cancelImage()
		}
		if m.edit.active() {
			return m.stopEdit(), nil
		}
		if strings.TrimSpace(m.w.input.Value()) != "" {
			return m.clearDraft()
		}
		return m.quit()
	case key.Matches(msg, m.keys.Cancel):
		// From the inside out: the help, the completion, then what is in flight.
		if m.w.help.ShowAll {
			m.w.help.ShowAll = false
			return m.layout(), nil
		}
		if len(m.hintLines()) > 0 {
			m.hintHidden, m.comp = m.w.input.Value(), completion{}
			return m.layout(), nil
		}
		if m.edit.active() {
			return m.stopEdit(), nil
		}
		if m.turn != nil {
			return m.cancelTurn()
		}
		if m.imaging != nil {
			return m.cancelImage()
		}
		return m, nil
	case key.Matches(msg, m.keys.Send) && m.keyBefore == keyPaste:
		// An enter right behind pasted text may be a line break inside a
		// paste without bracketed paste (Bubble Tea makes its CR an enter):
		// it sends only if no key follows within sendSettle.
		m.sendSeq++
		m.sendPending = true
		seq := m.sendSeq
		return m, tea.Tick(sendSettle, func(time.Time) tea.Msg { return sendDueMsg{seq: seq} })
	case key.Matches(msg, m.keys.Send):
		return m.submit()
	case key.Matches(msg, m.keys.Help) && m.w.input.Value() == "":
		m.w.help.ShowAll = !m.w.help.ShowAll
		return m.layout(), nil
	case key.Matches(msg, m.keys.Editor):
		return m, editText(m.w.input.Value(), editPrompt)
	case key.Matches(msg, m.keys.Thinking):
		m.renderer.ExpandThinking = !m.renderer.ExpandThinking
		m.conv = m.conv.Rerender()
		return m, nil
	case key.Matches(msg, m.keys.Copy):
		return m.copyLast()
	case key.Matches(msg, m.keys.Select):
		return m.startSelection()
	case key.Matches(msg, m.keys.Sessions):
		return m.openPicker()
	case key.Matches(msg, m.keys.Open):
		return m.openImage(0)
	case key.Matches(msg, m.keys.Previews):
		m.renderer.ShowPreviews = !m.renderer.ShowPreviews
		m.conv = m.conv.Rerender()
		m.notice = "image previews hidden · " + m.keys.Previews.Help().Key + " shows them"
		if m.renderer.ShowPreviews {
			m.notice = "image previews shown · " + m.keys.Previews.Help().Key + " hides them"
		}
		return m, nil
	case key.Matches(msg, m.keys.New):
		return m.newSession()
	case key.Matches(msg, m.keys.Complete):
		return m.complete(1), nil
	case msg.Type == tea.KeyShiftTab:
		return m.complete(-1), nil
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
	if slash.Is(text) {
		return m.runCommand(text)
	}
	if m.busy() {
		m.notice = "a reply or image is still on its way: esc cancels it"
		return m, nil
	}
	if m.edit.active() {
		return m.sendEdit(text)
	}
	if m.failedPrompt(text) {
		// The prompt that failed, sent again: the same turn, retried, not a
		// second copy of the prompt.
		return m.retry()
	}
	next, cmd := m.startTurn(engine.Turn{Prompt: text})
	if next.turn == nil {
		return next, cmd // refused: the prompt stays in the input
	}
	next.w.input.Reset()
	next.recall = nil
	return next.layout(), tea.Batch(cmd, rememberPrompt(m.opts.Prompts, m.SessionID(), text))
}

// failedPrompt reports whether text is the last prompt and the
// conversation ends in its failure: an error, after at most a failed reply.
func (m Model) failedPrompt(text string) bool {
	es := m.conv.Entries()
	if len(es) == 0 || es[len(es)-1].Kind != session.KindError {
		return false
	}
	u := lastIndex(es, session.KindUser)
	if u < 0 || strings.TrimSpace(es[u].Text) != text {
		return false
	}
	for _, e := range es[u+1:] {
		if e.Kind != session.KindError && (e.Kind != session.KindAssistant || e.Status != session.StatusFailed) {
			return false
		}
	}
	return true
}

// clearDraft empties the input; the text goes into the prompt history, so
// ↑ brings it back.
func (m Model) clearDraft() (tea.Model, tea.Cmd) {
	text := m.w.input.Value()
	m.w.input.Reset()
	m.recall = nil
	m.notice = "input cleared"
	m = m.layout()
	h, id := m.opts.Prompts, m.SessionID()
	if h == nil {
		return m, nil
	}
	return m, func() tea.Msg {
		if err := h.Add(id, text); err != nil {
			return noticeMsg{text: "input cleared; it could not be kept for ↑: " + err.Error()}
		}
		return draftKeptMsg{}
	}
}

// draftKeptMsg says a cleared draft is in the prompt history.
type draftKeptMsg struct{}

// newEntry gives a screen-only entry, such as a notice, an id of its own
// ("n1", "n2"…): such entries are never saved.
func (m *Model) newEntry(e session.Entry) session.Entry {
	m.nextID++
	e.ID = fmt.Sprintf("n%d", m.nextID)
	e.Time = m.now().UTC()
	return e
}

// addEntry shows an entry that is not part of a reply, such as a notice.
func (m Model) addEntry(e session.Entry) Model {
	m.conv = m.conv.Add(m.newEntry(e))
	return m
}

// quit ends the program once the turn in flight has ended and the session
// is saved; a session that could not be saved is reported by the caller
// (see SaveError).
func (m Model) quit() (tea.Model, tea.Cmd) {
	m.quitting = true
	if m.turn != nil || m.imaging != nil {
		return m, nil // quit once the engine has saved the turn: no lost work
	}
	return m, closeWriter(m.writer)
}

// closedMsg reports the session closed, on quitting.
type closedMsg struct{ err error }

// closeWriter writes what waits and lets go of the session.
func closeWriter(w *session.Writer) tea.Cmd {
	return func() tea.Msg { return closedMsg{err: w.Close()} }
}

func errorLine(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return textfmt.TruncateRunes(s, 80)
}

func addUsage(total *api.Usage, u api.Usage) {
	total.InputTokens += u.InputTokens
	total.OutputTokens += u.OutputTokens
	total.CacheCreationInputTokens += u.CacheCreationInputTokens
	total.CacheReadInputTokens += u.CacheReadInputTokens
}

// SessionID returns the ID of the session being shown, once it was saved.
func (m Model) SessionID() string { return m.writer.ID() }

// Close stops the turn in flight and closes the session, writing what
// waits, after the program ended without quitting through the screen (a
// signal). It does nothing more once the screen has closed the session.
func (m Model) Close() error {
	if m.turn != nil {
		m.turn.cancel()
	}
	if m.imaging != nil {
		m.imaging.cancel()
	}
	return m.writer.Close()
}

// SaveError returns why the session could not be saved when the screen
// closed, or nil when everything was saved.
func (m Model) SaveError() error { return m.closeErr }

// busy reports whether a turn or an image turn is in flight.
func (m Model) busy() bool { return m.turn != nil || m.imaging != nil }
