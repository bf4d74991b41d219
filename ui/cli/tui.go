package cli

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"muse/api"
	"muse/api/demo"
	"muse/session"
	"muse/session/index"
	"muse/session/prompts"
	"muse/theme"
	"muse/ui"
	"muse/ui/preview"
	"muse/ui/sanitize"
	"muse/ui/screen"
	"muse/ui/syncrun"
	"muse/ui/textfmt"
	"muse/ui/toolrun"
)

// syncOnQuit bounds how long quitting waits for the last background sync;
// one cut short is completed by the next.
const syncOnQuit = 10 * time.Second

// runTUI runs the interactive chat screen. Everything it needs to know about
// the terminal is asked here, before the program starts. Piped input (cat
// notes.md | muse) is read by the screen in the background, for the chat to
// attach, and the keys come from the terminal itself.
func runTUI(env Env, f *flags, cfg *config, client *api.Client) int {
	files, warnings, err := attachFiles(f.attach)
	if err != nil {
		return fail(env, err)
	}
	in, opened, err := screen.Input(os.Stdin)
	if err != nil {
		return fail(env, usagef("%v; -p \"PROMPT\" sends piped input without the chat screen", err))
	}
	if opened {
		defer in.Close()
	}
	out := termenv.NewOutput(os.Stdout, termenv.WithEnvironment(environ{env.Getenv}))
	profile := out.EnvColorProfile()
	lipgloss.SetColorProfile(profile)
	// Bubble Tea's package init has already asked the terminal for its
	// background (through Lip Gloss, before any program can take the
	// terminal); its answer is kept, so asking again would only cost another
	// round trip, or another 5 s on a terminal that does not answer.
	dark := lipgloss.HasDarkBackground()
	th, err := theme.New(cfg.theme, dark, theme.WithProfile(profile))
	if err != nil {
		return fail(env, usagef("%v", err))
	}
	var store *session.Store
	if cfg.noSave { // the session stays in memory
		if f.cont || f.resume != "" {
			return fail(env, usagef("--no-save cannot continue a session (-c, -r): leave one of them out"))
		}
	} else if store, err = openStore(env); err != nil {
		return fail(env, err)
	}
	// What the terminal can do is asked now, in one round trip, never after
	// Run. Kitty graphics also need colour.
	// Answers that come after the wait are taken out of what keys reads.
	terminal, keys := preview.DetectScreen(env.Getenv, in, os.Stdout, time.Second)
	// Every width muse measures is the terminal's from here on: how it
	// draws 👨‍👩‍👧 was asked with the rest.
	textfmt.SetWidthMode(terminal.WidthMode())
	kitty := (profile == termenv.TrueColor || profile == termenv.ANSI256) && terminal.Kitty
	opts := ui.Options{Store: store, Params: cfg.params, Theme: th, Profile: profile, Kitty: kitty,
		Terminal: os.Stdout, Getenv: env.Getenv, ImageModel: cfg.imageModel, Keys: cfg.keys, Notify: cfg.notify,
		Config: cfg.engineConfig(client), MCP: cfg.mcp, Secrets: []string{cfg.token, cfg.apiKey}}
	opts.Attach = files
	opts.Models = modelsLoader(cfg, client, env)
	opts.Meter = cfg.meter
	if cfg.params.Model == "" {
		opts.Notice = "no model yet: /model NAME (tab completes from the service's list)"
	}
	opts.ImageAPI = client.ImageAPI()
	if len(warnings) > 0 {
		opts.Notice = "warning: " + strings.Join(warnings, "; ") + " · it is sent with the first prompt · /detach removes"
	}
	if env.StdinPiped && env.Stdin != nil {
		// Read while the screen runs, never before it shows: a pipe may
		// stay open for ever (yes | muse).
		opts.Stdin, opts.StdinLimit = env.Stdin, maxStdin
	}
	if opts.Notice == "" {
		opts.Notice = sanitize.Line(th.Mismatch()) // once, on the status line
	}
	if cfg.demo {
		prompt, image := demo.Keywords()
		opts.DemoWords = &ui.DemoWords{Prompt: prompt, Image: image}
	}
	if store == nil { // images still get a folder, as -p --no-save saves them
		opts.ImageStore, _ = openStore(env)
	}
	if store != nil {
		// Every write of the screen's sessions reaches the index in the
		// background; it is opened only when something is written or
		// the picker shows.
		opts.Index = index.NewShared(store)
		updater := index.NewUpdater(opts.Index, index.DefaultDelay)
		defer updater.Close()
	}
	if store != nil { // with --no-save, no prompt history either
		if h, err := prompts.Open(prompts.Path(store.Dir()), 1000); err != nil {
			fmt.Fprintf(env.Stderr, "muse: prompt history unavailable: %s\n", sanitize.Line(err.Error()))
		} else {
			opts.Prompts = h
		}
	}
	switch {
	case f.resume == pickSentinel:
		opts.StartInPicker = true
	case f.cont || f.resume != "":
		w, preview, err := openSessionAsync(store, f, func(p session.Params) session.Params { return mergeParams(p, cfg.params, f) })
		switch {
		case errors.Is(err, errNoSession):
			opts.Notice = "no session to continue yet: this is a new one"
		case err != nil:
			return fail(env, resumeError(env, f, err))
		default:
			opts.Writer, opts.Preview = w, preview
		}
	}
	// sync = "auto": the runner tells the program each status, once there
	// is one; the first sync starts with the screen.
	var prog atomic.Pointer[tea.Program]
	syncer := startAutoSync(env, f, cfg, func(s syncrun.Status) {
		if p := prog.Load(); p != nil {
			p.Send(syncrun.StatusMsg(s))
		}
	})
	if syncer != nil {
		opts.Sync = syncer
	}
	// muse draws its own frames (ui/screen), only when they change; Bubble
	// Tea's renderer, which wakes at its frame rate even when idle, draws
	// only where the screen cannot (off unix) or stdout is not a terminal.
	scr, err := screen.Open(in, os.Stdout, ui.FrameRate, !cfg.noMouse, screen.WithSyncOutput(terminal.SyncOutput), screen.WithFocusReports(cfg.notify != "" && cfg.notify != "off"),
		screen.WithGraphemeClusters(terminal.Graphemes))
	var p *tea.Program
	var drawn <-chan struct{} // closed once the first frame is drawn
	switch {
	case err == nil:
		opts.Terminal, opts.Exec, opts.Suspend = scr.Renderer(), scr.Exec, scr.Suspend
		p = tea.NewProgram(scr.Wrap(ui.New(opts)), append(scr.Options(), tea.WithInput(keys))...)
		scr.Start(p)
		drawn = scr.Renderer().Drawn()
	case errors.Is(err, errors.ErrUnsupported) || errors.Is(err, screen.ErrNotTerminal):
		progOpts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithFPS(ui.FrameRate)}
		if !cfg.noMouse {
			progOpts = append(progOpts, tea.WithMouseCellMotion())
		}
		p = tea.NewProgram(ui.New(opts), progOpts...)
		after := make(chan struct{})
		time.AfterFunc(bubbleTeaFirstFrame, func() { close(after) })
		drawn = after
	default:
		return fail(env, fmt.Errorf("open the chat screen: %w", err))
	}
	if cfg.mcp != nil {
		// The MCP servers start in the background once the first frame is
		// on the screen, never before: the first turn then waits only for
		// those still starting (a node server takes seconds).
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			select {
			case <-drawn:
				cfg.mcp.StartAll()
			case <-stop:
			}
		}()
	}
	// A closed terminal (SIGHUP) ends the screen; Bubble Tea itself ends it
	// on SIGTERM. Either way no tool outlives muse, and the session is closed.
	// signal.Stop never closes hup: the goroutine also ends when Run returns.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	ran := make(chan struct{})
	defer func() { signal.Stop(hup); close(ran) }()
	go func() {
		select {
		case <-hup:
			toolrun.KillAll()
			p.Quit()
		case <-ran:
		}
	}()
	if syncer != nil {
		prog.Store(p)
		syncer.Kick()
	}
	final, err := p.Run()
	if scr != nil {
		// A terminal that hung up (EIO) cannot be restored, nor told so.
		if cerr := scr.Close(); cerr != nil && !errors.Is(cerr, syscall.EIO) {
			fmt.Fprintf(env.Stderr, "muse: %s\n", sanitize.Line(cerr.Error()))
		}
		if crash := scr.Panic(); crash != "" {
			fmt.Fprintf(env.Stderr, "muse: internal error, please report it:\n%s\n", crash)
		}
		if w, ok := final.(screen.Model); ok {
			final = w.Inner()
		}
	}
	toolrun.KillAll()
	if m, ok := final.(ui.Model); ok {
		if cerr := m.Close(); cerr != nil && err == nil && m.SaveError() == nil {
			fmt.Fprintf(env.Stderr, "muse: NOT SAVED: %s\n", sanitize.Line(cerr.Error()))
			return ExitFailed
		}
	}
	if syncer != nil {
		syncer.Stop(syncOnQuit) // the session is closed: its last records go too
	}
	if err != nil {
		return fail(env, fmt.Errorf("run the chat screen: %w", err))
	}
	m, ok := final.(ui.Model)
	if !ok {
		return ExitOK
	}
	if err := m.SaveError(); err != nil {
		fmt.Fprintf(env.Stderr, "muse: NOT SAVED: %s\n", sanitize.Line(err.Error()))
		return ExitFailed
	}
	if id := m.SessionID(); id != "" {
		fmt.Fprintf(env.Stdout, "session %s saved · resume it with: %s\n", sanitize.Line(id), resumeHint(cmdName(env), f, id))
	}
	return ExitOK
}

// resumeHint is the command that resumes session id as it was run: the flags
// that chose its service and configuration come along, so the hint works
// when pasted (muse --demo -r ID, not muse -r ID against another service).
func resumeHint(command string, f *flags, id string) string {
	args := []string{command}
	if f.configPath != "" {
		args = append(args, "--config", shellQuote(sanitize.Line(f.configPath)))
	}
	if f.profile != "" {
		args = append(args, "--profile", shellQuote(sanitize.Line(f.profile)))
	}
	if f.baseURL != "" {
		args = append(args, "--base-url", shellQuote(sanitize.Line(f.baseURL)))
	}
	if f.demo {
		args = append(args, "--demo")
	}
	if args = append(args, "-r"); id != "" {
		args = append(args, shellQuote(sanitize.Line(id)))
	}
	return strings.Join(args, " ")
}

// bubbleTeaFirstFrame is how long after start Bubble Tea's renderer, where
// muse's own screen cannot draw, has drawn the first frame.
const bubbleTeaFirstFrame = 100 * time.Millisecond

// environ lets termenv read muse's environment (NO_COLOR, CLICOLOR_FORCE, TERM).
type environ struct{ getenv func(string) string }

func (e environ) Environ() []string      { return os.Environ() }
func (e environ) Getenv(k string) string { return e.getenv(k) }
