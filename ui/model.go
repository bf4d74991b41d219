package ui

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"muse/api"
	"muse/session"
	"muse/session/index"
	"muse/session/prompts"
	"muse/theme"
	"muse/ui/approval"
	"muse/ui/branches"
	"muse/ui/composer"
	"muse/ui/conversation"
	"muse/ui/elicitform"
	"muse/ui/engine"
	"muse/ui/helpview"
	"muse/ui/input"
	"muse/ui/launch"
	"muse/ui/mcp"
	"muse/ui/meter"
	"muse/ui/notices"
	"muse/ui/piped"
	"muse/ui/queue"
	"muse/ui/quitting"
	"muse/ui/sanitize"
	"muse/ui/selection"
	"muse/ui/sessions"
	"muse/ui/slash"
	"muse/ui/status"
	"muse/ui/syncrun"
	"muse/ui/textfmt"
	"muse/ui/themes"
	"muse/ui/turns"
)

// Options configure the chat screen.
type Options struct {
	// Config is what every turn of the screen shares with the engine: the
	// client (which also generates images), the tools offered to the model
	// and the runner of their commands (a tool with a Command is run by
	// muse, after the user allows it), the bound on the tool rounds of one
	// prompt, and the clock, which the screen uses too (nil means time.Now).
	engine.Config
	// Store persists the conversation; nil keeps it in memory only.
	Store *session.Store
	// Index is the index of Store, which the picker lists and searches;
	// nil opens one of its own the first time the picker shows.
	Index *index.Shared
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
	// Prompts is the prompt history Up and Down recall; nil keeps none.
	Prompts *prompts.History
	// Terminal receives what is written to the terminal outside the frame:
	// OSC 52 copies and kitty image transmissions; nil means os.Stdout.
	Terminal io.Writer
	// Exec runs a program with the terminal to itself (the editor); nil
	// means tea.Exec.
	Exec func(tea.ExecCommand, tea.ExecCallback) tea.Cmd
	// WorkDir is the folder tool commands run in, which the approval box
	// names; "" means the current one.
	WorkDir string
	// Getenv reads the environment (TMUX, TERM); nil means os.Getenv.
	Getenv func(string) string
	// Keys rebinds actions by name, from the profile.
	Keys map[string][]string
	// Suspend stops muse and gives the terminal to the shell until it
	// continues (ctrl+z, then fg), returning once it has; nil means
	// Bubble Tea's own tea.Suspend.
	Suspend func() error
	// MCP runs the MCP servers whose tools Config.MoreTools offers, for
	// the /mcp command; nil when there are none.
	MCP *mcp.Manager
	// Models, when set, returns the service's models list, which /model
	// completes from and which may give the models' context windows; it is
	// called once, in the background, after the first frame.
	Models func() []api.ModelInfo
	// Meter is the profile's context window and prices (see ui/meter).
	Meter meter.Options
	// StartInPicker opens the session picker first.
	StartInPicker bool
	// ImageModel is the default image model.
	ImageModel string
	// ImageAPI is the image API the client speaks (api.ImageAPIs), for
	// the image commands it has no parameter for; "" is the interface's.
	ImageAPI string
	// Kitty draws image previews with the kitty graphics protocol, written
	// to Terminal; it is detected before the program starts.
	Kitty bool
	// DemoWords, when set, are the words the offline demo server knows: the
	// first screen lists them.
	DemoWords *DemoWords
	// Notice is a line the status bar shows first, such as why the session
	// asked for could not be opened.
	Notice string
	// Secrets are muse's credentials, which "/export page --redact" masks.
	Secrets []string
	// Notify is how a reply or image that took a while is announced when
	// it is ready while the terminal is out of focus: "bell", "osc9",
	// "osc777", or "" or "off" for not at all (see notifySeq).
	Notify string
	// Sync, when set, is asked for a background sync after each finished
	// turn (sync = "auto"); its syncrun.StatusMsg show in the status line.
	Sync interface{ Kick() }
	// Attach are attachments waiting above the input when the screen
	// opens: the files of --attach.
	Attach []session.File
	// Stdin, when set, is what was piped into muse (cat notes.md | muse):
	// read in the background while the screen runs, at most StdinLimit
	// bytes, and attached as a file named "stdin" once it ends (see
	// ui/piped).
	Stdin      io.Reader
	StdinLimit int64
}

// DemoWords are the words that show what the offline demo server does.
type DemoWords struct {
	// Prompt are the words to put in a prompt, Image those for /image.
	Prompt, Image []string
}

// common is what the chat screen shares with its parts, set once by New:
// the options, the theme, the keys and their table, the clock, and the
// memo of the frame. Only a new theme changes it, in a copy (see setTheme).
type common struct {
	opts Options
	th   *theme.Theme
	keys KeyMap
	now  func() time.Time
	memo *viewMemo
	// keyTable is the screen's own keys (see bindKeys), made from keys.
	keyTable []boundKey
}

// Model is muse's root Bubble Tea model: the chat screen, or the session
// picker over it. It routes messages to its children as they concern them:
// the window's size to all, keys to the one in focus (the picker, or the
// chat's keys, then the composer), the engine's reports to the turn, and
// routes what a child asks of the rest (composer.Out: a prompt to send).
//
// Model is a value, as Bubble Tea's Update, which returns the next model,
// and every child here (composer, conversation, approval, picker…) are: a
// method that changes the screen changes its own copy and returns it, and
// a copy kept aside (cut := m, returned if a turn is refused) stays as it
// was. No state that Update changes is changed in place through a pointer.
// What is large (the widgets, 6 KB; the picker, 26 KB) or may be absent
// (the turn and the image turn in flight, in ui/turns) is held by pointer
// and copied before it changes (widgets.with, and in ui/turns), so the
// model stays under 4 KB to copy. The other pointers are to what is not the
// model's to copy: what New sets once (common, copied by a new theme),
// handles to what lives outside it (the session's writer, the MCP manager,
// the engine's channels, the streaming reply's accumulator, which only
// grows), and derived data any copy may fill or drop (the frame's memo,
// the conversation's renders and image previews, the session's shape,
// which only grows with entries the journal holds). Pointer semantics
// would save the copies, but would make every "cut := m" share its
// changes, and values keep Update a function of its input, which the tests
// rely on.
type Model struct {
	*common
	size    tea.WindowSizeMsg // the window's, as the terminal last reported it
	blurred bool              // the terminal reported that it lost focus

	// The children: the conversation, the help, spinner and progress bar,
	// and the session switcher (the picker).
	conv     conversation.Model
	w        *widgets
	sessions sessions.Model
	// elicit is an MCP server's form, while one is open.
	elicit elicitform.Model

	// The session shown (see current), and where each entry shown stands
	// in its shape.
	current
	branches branches.Model
	// meter measures the context window's use and the cost.
	meter meter.Model
	// approve is the box of a tool call that waits, and the session's
	// approval mode.
	approve approval.Model

	// turns is the turn in flight, a message turn or an image turn.
	turns turns.Model

	// comp is where the next prompt is made: the input, the attachments
	// sent with it, the prompts queued behind the turn in flight (sent one
	// by one as turns end well) and the prompt being edited.
	comp composer.Model
	// status is what the status line keeps: the notice, the last failed
	// request, why the session is not saved, the sync's status and the
	// last notices, for ? and /info.
	status status.Model

	sel selection.Model // selection mode

	// quitting is the way out: ctrl+c pressed twice, and whether the
	// screen quits once the turn in flight is saved.
	quitting quitting.Model

	// piped reads Options.Stdin while the screen runs.
	piped piped.Model

	// preview is set while the screen shows Options.Preview.
	opening
}

// opening is the screen while it shows Options.Preview: loading is set
// until the writer's session replaces it, and held are the key and mouse
// messages that arrived meanwhile, handled then.
type opening struct {
	loading bool
	held    []tea.Msg
}

// widgets are the chat screen's bubbles: the help, the spinner and the
// progress bar of an image's download. They take 6 KB, so the model holds
// them by pointer, to stay small to copy, and changes a copy (see with).
type widgets struct {
	help     helpview.Model
	spin     spinner.Model
	progress progress.Model
}

// with returns a copy of w changed by f: w itself is never changed, so a
// copy of the model keeps the widgets it had.
func (w *widgets) with(f func(*widgets)) *widgets {
	c := *w
	f(&c)
	return &c
}

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
	if opts.WorkDir == "" {
		opts.WorkDir, _ = os.Getwd() // unknown, it is not named
	}
	keys := defaultKeyMap()
	keys.override(opts.Keys)
	r := conversation.NewRenderer(opts.Theme, opts.Profile)
	if images := opts.imageStore(); images != nil {
		r.Linkable = images.NamesImage
	}

	sp := spinner.New(spinner.WithSpinner(spinner.MiniDot), spinner.WithStyle(opts.Theme.Styles.Spinner))
	h := helpview.New(&opts.Theme.Styles, keys.helpKeys(), keys.FullHelp())
	bar := progress.New(progress.WithWidth(20), progress.WithSolidFill(string(opts.Theme.Styles.Accent.GetForeground().(lipgloss.Color))), progress.WithoutPercentage())

	m := Model{
		common:   &common{opts: opts, th: opts.Theme, keys: keys, now: opts.Now, memo: &viewMemo{}, keyTable: bindKeys(keys)},
		conv:     conversation.New(r, keys.scrollKeys()),
		comp:     composer.New(opts.Theme, composer.KeyMap{KeyMap: keys.inputKeys(), PasteImage: keys.PasteImage, Unqueue: keys.Prev}, opts.Prompts, opts.Attach),
		w:        &widgets{help: h, spin: sp, progress: bar},
		sessions: sessions.New(opts.Store, opts.Index, opts.Theme),
		current:  current{params: opts.Params},
		meter:    meter.New(opts.Meter),
		approve:  approval.New(opts.Theme, approval.KeyMap{PageUp: keys.PageUp, PageDown: keys.PageDown, Mode: keys.ApproveMode, Send: keys.Send, Cancel: keys.Cancel}),
		sel:      selection.New(keys.selectKeys()),
		quitting: quitting.New(quitting.KeyMap{Quit: keys.Quit, Exit: keys.Exit}, opts.Now),
	}
	in := m.comp.Input()
	if mgr := opts.MCP; mgr != nil {
		in = in.WithCompletions(func(v string) []string {
			return append(mcp.CompletePrompt(mgr.Prompts(), v), mcp.CompleteResource(mgr.Resources(), v)...)
		}).WithAskedCompletions(mgr.CompleteArg)
	}
	m.comp = m.comp.SetInput(in.WithSources(newMentionSources(opts))) // the @ menu's MCP resources and generated images
	w := opts.Writer
	if w == nil {
		w = session.NewWriter(opts.Store, opts.Params)
	}
	if opts.Preview != nil && opts.Writer != nil {
		m = m.resumeFrom(w, *opts.Preview)
		m.loading = true
	} else {
		m = m.resumeFrom(w, w.Snapshot())
	}
	if opts.Notice != "" || m.comp.Queue().Len() == 0 {
		m.status = m.status.Note(opts.Notice)
	}
	if n := m.comp.Pending().Len(); n > 0 && m.status.Notice() == "" {
		m.status = m.status.Note("attached " + textfmt.Plural(n, "file") + " · sent with the first prompt · /detach removes")
	}
	m.piped = piped.New(opts.Stdin, opts.StdinLimit, piped.KeyMap{Stop: m.keys.Cancel})
	if m.piped.Reading() && m.status.Notice() == "" {
		m.status = m.status.Note(m.piped.View())
	}
	return m
}

// resumeFrom shows s, the session of w: one just made, or the one the
// screen starts with, as its snapshot (nothing else uses it yet), or one
// opened for another, as it stands.
func (m Model) resumeFrom(w *session.Writer, s session.Session) Model {
	// Another session, or this one replayed whole: its queue is the one
	// it kept.
	restore := w != m.writer || m.loading
	if w != m.writer {
		m.approve = m.approve.SetAll(false) // approve all holds for the session it was given in
	}
	m.writer, m.sessID = w, s.ID
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
	m.branches = branches.New(s)
	m.comp = m.comp.LeaveEdit()
	m = m.refreshBranches()
	m.sel = m.sel.Leave()
	m.approve = m.approve.Forget() // "a always" holds for the session it was given in
	// ctrl+r's "this session": its prompts before a resume too.
	m.comp = m.comp.SetInput(m.comp.Input().EndRecall().SetSession(s.ID, s.All))
	m.status = m.status.Reset()
	m.usage, _ = session.Branch(s.All).Usage() // spent on every branch, as counted live
	_, m.lastStop = session.Branch(s.Entries).Usage()
	m.meter = m.meter.Measure(s.Entries, m.usage)
	for _, w := range s.Warnings {
		m.conv = m.conv.Note(session.Entry{Kind: session.KindNotice, Text: "session: " + w}, m.now())
	}
	if restore {
		m.comp = m.comp.Restore(s.Queue)
		if n := m.comp.Queue().Len(); n > 0 {
			m.status = m.status.Note(textfmt.Plural(n, "queued prompt") + " from before, not sent: enter on an empty input sends the next, ↑ edits the last")
		}
	}
	m.sessions = m.sessions.Close()
	return m.layout()
}

// Init starts nothing, unless the picker opens first: the screen is idle
// until a key arrives.
func (m Model) Init() tea.Cmd {
	var mcpStart tea.Cmd
	if m.opts.MCP != nil {
		mcpStart = tea.Batch(waitMCPNotes(m.opts.MCP), elicitform.Wait(m.opts.MCP))
	}
	if load := m.opts.Models; load != nil {
		mcpStart = tea.Batch(mcpStart, func() tea.Msg {
			time.Sleep(replayDelay) // after the first frame: it never waits for the list
			ms := load()
			names, windows := make([]string, len(ms)), meter.WindowsMsg{}
			for i, mi := range ms {
				names[i] = mi.ID
				if mi.ContextWindow > 0 {
					windows[mi.ID] = mi.ContextWindow
				}
			}
			return modelsListedMsg{windows: windows, models: slash.NewModels(names)}
		})
	}
	// What runs in the background whatever the screen opens with: the MCP
	// servers' start, the models list, and the read of piped standard input.
	background := tea.Batch(mcpStart, m.piped.Init())
	if m.opts.StartInPicker && m.opts.Store != nil {
		return tea.Batch(func() tea.Msg { return openPickerMsg{first: true} }, background)
	}
	if m.loading {
		w := m.writer
		return tea.Batch(func() tea.Msg {
			time.Sleep(replayDelay)
			return replayedMsg{w: w, s: w.Snapshot()}
		}, background)
	}
	return tea.Batch(loadPreviews(m.conv.Entries(), m.previewer()), background)
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
	notice := m.status.Notice()
	m = m.resumeFrom(msg.w, msg.s)
	if m.status.Notice() == "" {
		m.status = m.status.Note(notice)
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

// Update handles a message: the window's size goes to every child, keys to
// the one in focus, and the rest to what it concerns. A notice that comes
// to need a row of its own above the status line, or no longer needs it,
// sizes the screen again.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := m.update(msg)
	nm, ok := next.(Model)
	if !ok || nm.status.Kept() && !nm.status.Resized(nm.statusState()) {
		// Returned as it is: a Model put in an interface again is a copy
		// of the whole root on the heap, for every delta of a stream.
		return next, cmd
	}
	nm.status = nm.status.Keep() // kept whole for ? and /info
	if nm.status.Resized(nm.statusState()) {
		return nm.layout(), cmd
	}
	return nm, cmd
}

// update routes msg by its kind: held while a preview shows, to an open
// MCP form, then to the handlers of the screen's own messages, of the
// session's, of the turn's and of the commands' reports, then to the
// picker while it is open, and else to the input.
func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	msg, _ = input.ShiftEnter(msg)
	switch msg := msg.(type) {
	case replayedMsg:
		return m.replayed(msg)
	case tea.KeyMsg, tea.MouseMsg:
		if m.loading {
			m.held = append(m.held, msg)
			return m, nil
		}
	}
	if form, cmd, notice, ok := m.elicit.Route(msg, m.opts.MCP, m.th, m.size.Width); ok {
		m.elicit = form
		if notice != "" {
			m.status = m.status.Note(notice)
		}
		return m.layout(), cmd
	}
	if next, cmd, ok := m.updateScreen(msg); ok {
		return next, cmd
	}
	if next, cmd, ok := m.updateSession(msg); ok {
		return next, cmd
	}
	if next, cmd, ok := m.updateTurn(msg); ok {
		return next, cmd
	}
	if next, cmd, ok := m.updateReport(msg); ok {
		return next, cmd
	}
	if m.sessions.IsOpen() {
		// The picker's own messages, such as its list's filter results.
		var cmd tea.Cmd
		m.sessions, cmd = m.sessions.Update(msg)
		return m, cmd
	}
	var cmd tea.Cmd
	m.comp, cmd = m.comp.Update(msg) // the input's own messages
	return m.layout(), cmd
}

// updateScreen handles the terminal's messages (size, focus, keys, the
// mouse) and the input's, the status line's and piped input's; ok is
// false for any other message.
func (m Model) updateScreen(msg tea.Msg) (_ tea.Model, _ tea.Cmd, ok bool) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.FocusMsg, tea.BlurMsg:
		_, m.blurred = msg.(tea.BlurMsg)
	case syncrun.StatusMsg:
		m.status = m.status.Update(msg)
	case tea.WindowSizeMsg:
		m.size = msg
		m.w = m.w.with(func(w *widgets) { w.help = w.help.SetSize(msg.Width, msg.Height) })
		m.sessions = m.sessions.SetSize(msg.Width, msg.Height)
		return m.layout(), nil, true
	case tea.KeyMsg:
		next, cmd := m.handleKey(msg)
		return next, cmd, true
	case tea.MouseMsg:
		m.conv, cmd = m.conv.Update(msg)
	case input.SendDueMsg:
		in, due := m.comp.Input().SendDue(msg)
		if m.comp = m.comp.SetInput(in); !due {
			return m, nil, true
		}
		if m.turns.AwaitsResult(m.approve.Declining()) {
			next, cmd := m.answerCall(m.turns.ResultOf(in.Value()))
			return next, cmd, true
		}
		next, cmd := m.submit()
		return next, cmd, true
	case input.DraftKeptMsg:
		if m.status.Notice() == "input cleared" {
			m.status = m.status.Note("input cleared · ↑ brings it back")
		}
		m.comp, _ = m.comp.Update(msg)
	case notices.Msg:
		m.status = m.status.Note(msg.Text)
	case modelsListedMsg:
		m.meter = m.meter.Update(msg.windows)
		m.comp = m.comp.SetInput(m.comp.Input().WithModels(msg.models))
	case piped.ReadMsg:
		was := m.piped.View()
		if m.piped, cmd = m.piped.Update(msg); m.piped.Reading() && (m.status.Notice() == "" || m.status.Notice() == was) {
			m.status = m.status.Note(m.piped.View())
		}
	case piped.DoneMsg:
		next, cmd := m.pipedDone(msg)
		return next, cmd, true
	default:
		return nil, nil, false // nil: m as a tea.Model would be a copy on the heap
	}
	return m, cmd, true
}

// updateTurn handles what the engine reports of the turn and the image
// turn in flight; ok is false for any other message.
func (m Model) updateTurn(msg tea.Msg) (_ tea.Model, _ tea.Cmd, ok bool) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case turns.StartedMsg:
		cmd = m.turns.Wait(msg.ID, msg.Ch)
	case turns.BatchMsg:
		next, cmd := m.applyTurn(msg)
		return next, cmd, true
	case turns.FlushMsg:
		var due bool
		if m.turns, due = m.turns.Flush(msg); due {
			var live session.Entry
			m.turns, live = m.turns.Live(m.params.Model)
			m.conv = m.conv.UpdateLive(live, m.now())
		}
	case turns.AnswerDueMsg:
		if ap, ok := m.turns.Due(msg); ok {
			next, cmd := m.answerCall(ap)
			return next, cmd, true
		}
	case previewsMsg:
		for k, v := range msg.previews {
			m.conv = m.conv.SetPreview(k, v)
		}
		m.conv = m.conv.Rerender()
		var notes []string
		if len(msg.missing) > 0 {
			notes = append(notes, missingNotice(msg.missing))
		}
		if msg.foreign > 0 {
			notes = append(notes, foreignNotice(msg.foreign))
		}
		if len(notes) > 0 {
			m.status = m.status.Note(strings.Join(notes, "; "))
		}
	case spinner.TickMsg:
		if (m.turns.Turn() == nil || m.turns.Ask() != nil) && m.turns.Image() == nil {
			return m, nil, true // nothing animates: stop ticking
		}
		m.w = m.w.with(func(w *widgets) { w.spin, cmd = w.spin.Update(msg) })
	default:
		return nil, nil, false // nil: m as a tea.Model would be a copy on the heap
	}
	return m, cmd, true
}

// missingNotice names the files of the session that are missing.
func missingNotice(missing []string) string {
	n := len(missing)
	names := make([]string, n)
	for i, name := range missing {
		names[i] = textfmt.TruncateRunes(sanitize.Line(name), 40)
	}
	return fmt.Sprintf("%s of this session %s missing: %s (an attachment is sent as a line naming it)",
		textfmt.Plural(n, "file"), map[bool]string{true: "is", false: "are"}[n == 1], textfmt.TruncateRunes(strings.Join(names, ", "), 80))
}

// updateReport handles what commands report: the editor, copies, exports,
// the viewer, a theme file, MCP, attachments; ok is false for any other
// message.
func (m Model) updateReport(msg tea.Msg) (next tea.Model, cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case editFileMsg:
		return m, runEditor(msg, m.opts.Exec), true
	case editedMsg:
		next, cmd = m.edited(msg)
	case copiedMsg:
		m.status = m.status.Note(fmt.Sprintf("copied %s (%s)", msg.what, textfmt.Plural(msg.chars, "character")))
		if msg.err != nil {
			m.status = m.status.Note("copy failed: " + msg.err.Error())
		}
		return m, nil, true
	case exportedMsg:
		m.status = m.status.Note("exported to " + msg.path)
		if msg.err != nil {
			m.status = m.status.Note(msg.err.Error())
			if in := m.comp.Input(); in.Value() == "" && msg.line != "" {
				m.comp = m.comp.SetInput(in.SetValue(msg.line))
				return m.layout(), nil, true
			}
		}
		return m, nil, true
	case queue.SavedMsg:
		m.status = m.status.Note("the queued prompts could not be kept for after a crash: " + msg.Err.Error())
		return m.layout(), nil, true
	case launch.OpenedMsg:
		if msg.Err == nil {
			m.status = m.status.Note("opened " + textfmt.ShortPath(msg.Path))
			return m, nil, true
		}
		// In the conversation, whole: it names the path and the program
		// that is missing.
		m.status = m.status.Note("the image could not be opened: see above")
		m.conv = m.conv.Note(session.Entry{Kind: session.KindNotice, Text: msg.Err.Error()}, m.now())
		return m.layout(), nil, true
	case themes.LoadedMsg:
		next, cmd = m.themeLoaded(msg)
	case mcpPromptMsg:
		next, cmd = m.mcpPromptGot(msg)
	case composer.AttachedMsg:
		next, cmd = m.compose(m.comp.Attached(msg))
	case input.PathPastedMsg:
		in, notice := m.comp.Input().PathPasted(msg)
		if m.comp = m.comp.SetInput(in); notice == "" {
			return m, nil, true // left as it is
		}
		m.status = m.status.Note(notice)
		return m.layout(), nil, true
	default:
		return nil, nil, false // nil: m as a tea.Model would be a copy on the heap
	}
	return next, cmd, true
}

// handleKey handles a key: the input takes what it must see first, then
// the picker while it is open, a tool call's answer, the selection's keys,
// the help's, the screen's own (see bindKeys), then the input.
func (m Model) handleKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	h := m.comp.Input().Height()
	in, msg := m.comp.Input().Receive(msg)
	if m.comp = m.comp.SetInput(in); in.Height() != h {
		m = m.layout() // the input grew a line, whatever the key does next
	}
	if m.sessions.IsOpen() {
		var cmd tea.Cmd
		if key.Matches(msg, m.keys.Quit) {
			// ctrl+c gets out as esc does: back to the chat, or out of
			// muse from muse -r's picker (the status line's hint to press
			// it again is under the picker).
			m.sessions, cmd = m.sessions.Leave()
		} else {
			m.sessions, cmd = m.sessions.Update(msg)
		}
		m.quitting = m.quitting.Forget()
		return m, cmd
	}
	if m.turns.Ask() != nil && !key.Matches(msg, m.keys.Quit) {
		if next, cmd, handled := m.decideCall(msg); handled {
			return next, cmd
		}
	}
	if m.sel.Active() {
		return m.selectKey(msg)
	}
	if !key.Matches(msg, m.keys.Quit) {
		m.quitting = m.quitting.Forget() // any other key forgets a first ctrl+c
	}
	if h, ok := m.w.help.Update(msg, m.status.Notices()); ok {
		m.w = m.w.with(func(w *widgets) { w.help = h })
		return m, nil
	}
	for _, k := range m.keyTable {
		if k.matches(m, msg) {
			return k.do(m, msg)
		}
	}
	m.status = m.status.Note("")
	return typeKey(m, msg)
}

// submit sends the typed prompt, or runs the typed slash command; with the
// menu under the input open it takes its item, and after a "\" it adds a
// line instead.
func (m Model) submit() (tea.Model, tea.Cmd) {
	in, ok := m.comp.Input().Enter() // the menu's item taken, or a line added after "\"
	if m.comp = m.comp.SetInput(in); ok {
		return m.layout(), nil
	}
	text := strings.TrimSpace(in.Value())
	if text == "" && m.comp.Pending().Len() == 0 {
		if m.comp.Queue().Len() > 0 && !m.turns.Busy() {
			c, p := m.comp.Next() // the queue stopped: enter starts it again
			m.comp = c
			return m.sendPrompt(p)
		}
		return m, nil
	}
	if notice, get, ok := m.opts.mcpPrompt(text); ok {
		m.status = m.status.Note(notice)
		return m.layout(), get
	}
	if slash.Is(text) {
		return m.runCommand(text)
	}
	if command, given, ok := in.CommandAfter(); ok {
		return m.runCommandAfter(command, given)
	}
	if m.piped.Reading() && !m.comp.Pending().Preparing() {
		m.status = m.status.Note(m.piped.StillReading())
		return m, nil
	}
	return m.compose(m.comp.Send(text, m.opts.mcpResources(text)))
}

// compose takes c, the composer after one of its actions, and does what
// the action asks (out): the notice, the command, the prompt to send.
func (m Model) compose(c composer.Model, out composer.Out) (tea.Model, tea.Cmd) {
	m.comp = c
	if out.Noted {
		m.status = m.status.Note(out.Notice)
	}
	if out.Send == nil {
		return m.layout(), out.Cmd
	}
	next, cmd := m.layout().sendPrompt(out.Send)
	return next, tea.Batch(out.Cmd, cmd)
}

// sendPrompt sends p, a prompt of the composer's: behind the turn in
// flight, in the queue; in place of the prompt edited, as a new branch; as
// the retry of the prompt that failed, when it is that prompt again
// without files (its attachments are in it); or as a new turn. A prompt
// refused stays where it was, in the input or the queue.
func (m Model) sendPrompt(p *composer.Prompt) (tea.Model, tea.Cmd) {
	if p.Edit == "" && m.turns.Busy() {
		var cmd tea.Cmd
		m.comp, cmd = m.comp.Enqueue(p, m.sessID, m.writer)
		return m.layout(), cmd
	}
	next, cmd, how := m, tea.Cmd(nil), composer.Started
	failed, retry := session.Branch(m.conv.Entries()).FailedPrompt()
	switch {
	case p.Edit != "" && m.turns.Busy():
		next.status, how = next.status.Busy(busyNotice+": esc cancels it, or wait to send the edit"), composer.Refused
	case p.Edit != "" && m.conv.Index(p.Edit) < 0:
		next.status, how = next.status.Note("the prompt edited is not shown any more: esc cancels"), composer.Refused
	case p.Edit != "":
		cut := m
		cut.conv = cut.conv.Truncate(m.conv.Index(p.Edit))
		next, cmd = cut.startTurn(engine.Turn{Prompt: p.Text, Edit: p.Edit, Attachments: slices.Clone(p.Files), EditAttachments: true})
		if next.turns.Turn() == nil { // refused: the edit stays in the input
			next, next.status = m, m.status.Note(next.status.Notice())
		}
	case retry && failed == p.Text && len(p.Files) == 0:
		// The prompt that failed, sent again: the same turn, retried, not a
		// second copy of the prompt.
		next, cmd = m.retry()
		how = composer.Retried
	default:
		next, cmd = m.startTurn(engine.Turn{Prompt: p.Text, Attachments: slices.Clone(p.Files)})
	}
	if next.turns.Turn() == nil {
		how = composer.Refused // the prompt stays where it was
	}
	var sent tea.Cmd
	next.comp, sent = next.comp.Sent(p, how, m.sessID, m.writer)
	return next.layout(), tea.Batch(cmd, sent)
}

// quit ends the program once the turn in flight has ended and the session
// is saved; a session that could not be saved is reported by the caller
// (see SaveError).
func (m Model) quit() (tea.Model, tea.Cmd) {
	m.quitting = m.quitting.Start()
	if m.turns.Busy() {
		return m, nil // quit once the engine has saved the turn: no lost work
	}
	return m, sessions.Close(m.writer)
}

// SessionID returns the ID of the session shown, once it was saved, as the
// screen last learned it.
func (m Model) SessionID() string { return m.sessID }

// Close stops the turn in flight and closes the session, writing what
// waits, after the program ended without quitting through the screen (a
// signal). It does nothing more once the screen has closed the session.
func (m Model) Close() error {
	m.turns.Close()
	return m.writer.Close()
}

// SaveError returns why the session could not be saved when the screen
// closed, or nil when everything was saved.
func (m Model) SaveError() error { return m.quitting.Err() }
