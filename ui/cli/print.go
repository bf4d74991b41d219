package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/signal"
	"strings"
	"syscall"

	"muse/api"
	"muse/session"
	"muse/session/prompts"
	"muse/ui/attach"
	"muse/ui/conversation"
	"muse/ui/engine"
	"muse/ui/sanitize"
)

// maxStdin caps piped input appended to a -p prompt.
const maxStdin = 16 << 20

// printMode sends one prompt and writes the reply to stdout. The turn runs
// in the same engine as the chat screen's, and is saved the same way: as a
// new session, or appended to the one -c or -r names.
func printMode(ctx context.Context, env Env, f *flags, cfg *config, client *api.Client) int {
	if cfg.mcp != nil && !f.image {
		cfg.mcp.StartAll() // in the background, while the prompt is read
	}
	prompt := f.print
	fromStdin := prompt == stdinPrompt // -p alone or -p -: the prompt is stdin
	if fromStdin {
		prompt = ""
	}
	stdinText := "" // what the prompt holds of standard input, for againHint
	if env.StdinPiped && env.Stdin != nil {
		in, err := readStdin(env.Stdin, maxStdin)
		if err != nil {
			return fail(env, err)
		}
		switch {
		case fromStdin:
			prompt = strings.TrimRight(in, "\n")
			stdinText = prompt
		case strings.TrimSpace(in) != "":
			prompt += "\n\n" + in
			stdinText = in // the command line alone does not hold the prompt
		}
	}
	if strings.TrimSpace(prompt) == "" {
		return fail(env, usagef("-p needs a prompt, like muse -p \"hello\", or one on standard input: echo hello | muse -p"))
	}
	files, warnings, err := attachFiles(f.attach)
	if err != nil {
		return fail(env, err)
	}
	for _, warning := range warnings {
		fmt.Fprintf(env.Stderr, "muse: warning: %s: it is sent with the prompt, as --attach asked\n", warning)
	}
	for _, f := range files { // what was done to a file to send it: scaled, its first pages taken
		if f.Note != "" {
			fmt.Fprintf(env.Stderr, "muse: %s: %s\n", sanitize.Line(f.Name), sanitize.Line(f.Note))
		}
	}
	w, err := openWriter(env, f, cfg)
	if err != nil {
		return fail(env, err)
	}
	for _, warning := range w.Snapshot().Warnings { // what loading skipped
		fmt.Fprintf(env.Stderr, "muse: session: %s\n", sanitize.Line(warning))
	}
	params := mergeParams(w.Params(), cfg.params, f)
	// A new session is saved once the server answers: one that cannot be
	// reached leaves no session holding the prompt alone, and the hint says
	// how to send it again.
	saveOnAnswer := !f.cont && f.resume == ""
	var code int
	var saved bool
	remembered := prompt
	if f.image {
		code, saved = imageMode(ctx, env, f, cfg, client, prompt, w, params, saveOnAnswer)
		remembered = "/image " + prompt
	} else {
		turn := engine.Turn{Prompt: prompt, Attachments: files, Params: params, SaveOnAnswer: saveOnAnswer}
		code, saved = printTurn(ctx, env, f, cfg, client, w, turn)
	}
	id := w.ID()
	if !saved {
		id = "" // no session holds it
	}
	kept := rememberPrompt(env, cfg, id, remembered)
	if !saved {
		fmt.Fprintf(env.Stderr, "muse: %s\n", againHint(env, stdinText, kept))
	}
	if err := w.Close(); err != nil {
		fmt.Fprintf(env.Stderr, "muse: %s\n", sanitize.Line(err.Error()))
		if code == ExitOK {
			code = ExitFailed
		}
	}
	return code
}

// againHint says how to send again the prompt of a -p that got no reply
// and saved nothing: the same command, when it holds the prompt whole and
// pastes as it prints; for a prompt read from standard input (stdin, what
// the prompt holds of it), the prompt history when it kept the prompt, else
// the command fed the same input by printf. Each hint is true: kept says
// whether the prompt history holds the prompt (--no-save writes none).
func againHint(env Env, stdin string, kept bool) string {
	saved := "nothing was saved: the prompt got no answer"
	history := saved + "; it is kept in the prompt history (run muse, then ↑ finds it)"
	if !kept {
		saved += ", and it is not in the prompt history either"
	}
	if len(env.args) == 0 {
		if kept {
			return history
		}
		return saved
	}
	words := []string{cmdName(env)}
	for _, a := range env.args {
		words = append(words, shellQuote(a))
	}
	line := strings.Join(words, " ")
	switch {
	case stdin != "" && kept:
		return history
	case stdin != "" && len(stdin) <= maxAgainInput:
		// printf '%s\n' prints each of its words as a line: the input,
		// pasteable on one line.
		feed := []string{"printf", shellQuote(`%s\n`)}
		for _, l := range strings.Split(strings.TrimSuffix(stdin, "\n"), "\n") {
			feed = append(feed, shellQuote(l))
		}
		line = strings.Join(feed, " ") + " | " + line
	case stdin != "":
		return saved + "; send the same input again to: " + sanitize.Line(line)
	}
	if !printsAsTyped(line) {
		if kept {
			return history
		}
		return saved + "; the prompt holds characters that do not print, so it cannot be shown here"
	}
	return saved + "; send it again with: " + line
}

// maxAgainInput is the most of standard input againHint repeats in a
// hint; more would not be pasted.
const maxAgainInput = 2000

// printsAsTyped reports whether line prints as it is, on one line.
func printsAsTyped(line string) bool {
	return sanitize.Line(line) == line && !strings.ContainsAny(line, "\n\r")
}

// rememberPrompt puts the prompt typed after -p (an image's as the chat
// screen's "/image PROMPT") into the prompt history, where ↑ in the chat
// screen finds it; with --no-save, nothing is kept. A history that cannot be
// written is reported, and the turn stands. kept reports whether the
// history holds the prompt now.
func rememberPrompt(env Env, cfg *config, sessionID, text string) (kept bool) {
	if cfg.noSave || strings.TrimSpace(text) == "" || strings.TrimSpace(text) == "/image" {
		return false
	}
	dir, err := sessionsDir(env)
	if err == nil {
		var h *prompts.History
		if h, err = prompts.Open(prompts.Path(dir), 0); err == nil {
			err = h.Add(sessionID, text)
		}
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "muse: prompt history: %s\n", sanitize.Line(err.Error()))
	}
	return err == nil
}

// attachFiles reads and prepares the files of --attach. A file that cannot
// be attached is a usage error, reported before anything is sent. The
// user asked for each by name, so a secret file (attach.Secret: a key, a
// .env file) is attached too, and warnings says what it is; but a path
// that a link leads out of the working folder (attach.Follow) names
// another file than it says, and is refused until the target is named,
// as is one whose file muse cannot place (attach.Opened.Unplaced). Each
// file is opened once, and checked and read as opened (attach.Check).
func attachFiles(paths []string) (files []session.File, warnings []string, err error) {
	files = make([]session.File, 0, len(paths))
	for _, p := range paths {
		f, warning, err := attachFile(p)
		if err != nil {
			return nil, nil, err
		}
		if warning != "" {
			warnings = append(warnings, warning)
		}
		files = append(files, f)
	}
	return files, warnings, nil
}

// attachFile is attachFiles for one path.
func attachFile(p string) (f session.File, warning string, err error) {
	o, err := attach.Check(p)
	if err != nil {
		return f, "", &usageError{msg: err.Error()}
	}
	defer o.Close()
	if o.Unplaced {
		return f, "", usagef("-a %s leads to %s: to send it, copy it to a file and attach that, or pipe it to muse's standard input",
			sanitize.Line(p), attach.Unplaced)
	}
	if l := o.Link; l.Target != "" && !l.Named {
		return f, "", usagef("-a %s leads through a link out of the working folder, to %s: to send that file, name it (-a %s)",
			sanitize.Line(p), sanitize.Line(attach.ShortTarget(l.Target)), sanitize.Line(l.Target))
	}
	if f, err = o.Read(); err != nil {
		return f, "", &usageError{msg: err.Error()}
	}
	if o.Secret != "" {
		warning = sanitize.Line(f.Name) + " is " + o.Secret
	}
	return f, warning, nil
}

// openWriter opens the session -c or -r names, or starts a new one; with
// --no-save, one kept in memory only.
func openWriter(env Env, f *flags, cfg *config) (*session.Writer, error) {
	if cfg.noSave {
		if f.cont || f.resume != "" {
			return nil, usagef("--no-save cannot continue a session (-c, -r): leave one of them out")
		}
		return session.NewWriter(nil, cfg.params), nil
	}
	store, err := openStore(env)
	if err != nil {
		return nil, err
	}
	if f.cont || f.resume != "" {
		w, err := openSession(store, f)
		return w, resumeError(env, f, err)
	}
	return session.NewWriter(store, cfg.params), nil
}

// printTurn runs one turn and prints it: the reply's text as it streams, or
// with --json the final message; tool calls run with --allow-tools, else
// they are printed as JSON.
func printTurn(ctx context.Context, env Env, f *flags, cfg *config, client *api.Client, w *session.Writer, turn engine.Turn) (code int, saved bool) {
	// A reader that goes away (| head) ends the turn, which saves what
	// arrived, marked cancelled; muse then exits quietly.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	signal.Ignore(syscall.SIGPIPE) // a write to a closed pipe is an error, not a kill
	guard := &pipeGuard{w: env.Stdout, cancel: cancel}
	env.Stdout = guard
	out, err := replyOut(env, f, cfg)
	if err != nil {
		return fail(env, err), true
	}
	var lostErr error // why a record was refused, and not kept to write later
	var notes serverNotes
	var lastRetry string // the error of the last retry's note
	hints := doctorHints(env, cfg)
	note := func(format string, args ...any) {
		if !f.quiet {
			fmt.Fprintf(env.Stderr, "muse: "+format+"\n", args...)
		}
	}
	emit := func(ev engine.Event) {
		switch ev.Kind {
		case engine.ReplyStarted:
			out.start()
		case engine.StreamEvent:
			out.event(ev.Stream)
			for _, l := range notes.event(ev.Stream) {
				if !f.json {
					note("%s", l) // sanitized
				}
			}
		case engine.ReplyEnded:
			out.end()
			if m := ev.Entry.Message; m != nil && !f.json {
				for _, l := range conversation.CitationLines(m.Content) {
					note("%s", l) // sanitized
				}
			}
		case engine.Retrying:
			// An error said once is not said again on each retry.
			if msg := hints.Replace(sanitize.Line(ev.Retry.Err.Error())); msg != lastRetry {
				lastRetry = msg
				note("%s; retrying in %s", msg, ev.Retry.Wait.Round(1e8))
			} else {
				note("the same again; retrying in %s (retry %d)", ev.Retry.Wait.Round(1e8), ev.Retry.Attempt)
			}
		case engine.ToolRunning:
			note("running tool %s", sanitize.Line(ev.Call.Name))
		case engine.Notice:
			note("%s", sanitize.Line(ev.Text))
		case engine.SaveFailed:
			if lost(w) {
				lostErr = ev.Err
			}
		}
	}
	approve := func(_ context.Context, call api.ContentBlock, hasCommand bool) engine.Approval {
		if !f.allowTools {
			return engine.Approval{Stop: true}
		}
		return engine.Approval{Run: hasCommand}
	}
	ecfg := cfg.engineConfig(client)
	ecfg.NoStream = f.noStream
	ecfg.AskAll = !f.allowTools // an MCP server's allow is no --allow-tools
	res, err := engine.Run(ctx, ecfg, w, turn, emit, approve)
	ok := notSaved(env, lostErr, ExitOK) // README: -p exits 1 when anything is not saved
	if guard.broken {
		return ok, !res.NotSaved
	}
	if err != nil {
		if f.json {
			printPartial(env, res, err)
		}
		hint, err := doctorHinted(env, cfg, err, credentialHint(cfg, err))
		return failHint(env, err, hint), !res.NotSaved
	}
	if res.Unanswered && !f.allowTools && !f.json {
		printToolCalls(env.Stdout, &res.Message)
		note("the reply calls tools, not run: --allow-tools runs them")
	}
	if f.json {
		data, err := json.Marshal(res.Message)
		if err != nil {
			return fail(env, fmt.Errorf("encode the reply: %w", err)), true
		}
		env.Stdout.Write(append(sanitize.JSON(data), '\n'))
	}
	return ok, true
}

// printPartial prints, for --json, the reply of a turn that failed part
// way, as far as it came, marked "partial": true, with the error that ended
// it: plain -p prints the partial text too. A turn that got no reply at all
// prints nothing.
func printPartial(env Env, res engine.Result, err error) {
	m := res.Message
	if res.Reply == nil || (m.ID == "" && len(m.Content) == 0) {
		return
	}
	data, merr := json.Marshal(m)
	if merr != nil || len(data) < 2 || data[len(data)-1] != '}' {
		return
	}
	reason, _ := json.Marshal(api.ShellText(err))
	data = append(data[:len(data)-1], `,"partial":true,"error":`...)
	data = append(append(data, reason...), '}')
	env.Stdout.Write(append(sanitize.JSON(data), '\n'))
}

// lost reports whether the record of a save that just failed is lost: a
// record that could not be written waits in w, and Close says whether it
// was written in the end; one that was refused (a record too large to
// save) does not wait.
func lost(w *session.Writer) bool {
	n, _ := w.Unsaved()
	return n == 0
}

// notSaved prints why a record of the session was lost and returns the
// exit status -p ends with: 1 when anything is not saved, else code.
func notSaved(env Env, lostErr error, code int) int {
	if lostErr == nil {
		return code
	}
	fmt.Fprintf(env.Stderr, "muse: the session is not saved whole: %s\n", sanitize.Line(lostErr.Error()))
	if code == ExitOK {
		return ExitFailed
	}
	return code
}

// pipeGuard writes to standard output and notes when its reader went away
// (EPIPE), cancelling the turn.
type pipeGuard struct {
	w      io.Writer
	cancel context.CancelFunc
	broken bool
}

func (g *pipeGuard) Write(p []byte) (int, error) {
	n, err := g.w.Write(p)
	if err != nil && errors.Is(err, syscall.EPIPE) && !g.broken {
		g.broken = true
		g.cancel()
	}
	return n, err
}

// replyWriter prints the replies of a turn as their events arrive.
type replyWriter interface {
	start()
	event(api.Event)
	end()
}

// replyOut chooses how -p prints the reply: nothing with --json (the
// message follows whole), markdown rendered with glamour on a terminal,
// else (piped, or --raw) the raw text.
//
// The theme is read whatever the output, so a bad --theme or theme file is
// refused as the chat screen refuses it, not only on a terminal.
func replyOut(env Env, f *flags, cfg *config) (replyWriter, error) {
	style, profile, err := printStyle(env, cfg.theme)
	if err != nil {
		return nil, err
	}
	if f.json {
		return &textOut{quiet: true}, nil
	}
	if !env.StdoutTTY || f.raw {
		return &textOut{w: env.Stdout, clean: sanitize.Stream{Plain: !env.StdoutTTY}}, nil
	}
	return newMDOut(env.Stdout, style, profile, printWidth(env, f))
}

// textOut prints the text of the replies of a turn as it arrives. It
// prints what each event adds to the reply's text (see replyText), and it
// sanitizes the text as a stream, so an escape split across two deltas is
// removed whole.
type textOut struct {
	w       io.Writer
	clean   sanitize.Stream
	quiet   bool
	text    replyText
	n       int // bytes written in all
	newline bool
}

func (o *textOut) start() {
	o.text = replyText{}
}

func (o *textOut) event(ev api.Event) {
	if o.quiet {
		return
	}
	if s := o.text.add(ev); s != "" {
		o.write(o.clean.Write(s))
	}
}

func (o *textOut) end() {
	if o.quiet {
		return
	}
	o.write(o.clean.Flush())
	if o.n > 0 && !o.newline {
		o.write("\n")
	}
}

func (o *textOut) write(s string) {
	if s == "" {
		return
	}
	io.WriteString(o.w, s)
	o.n += len(s)
	o.newline = s[len(s)-1] == '\n'
}

// replyText follows the text of a reply, which api.Message.Text joins from
// its text blocks, as the reply's events arrive: add returns only the text
// an event adds, so a reply costs its length once however many deltas it
// comes in. Text arrives with a text block's start (a JSON answer to a
// stream request comes whole that way), in its deltas, and in the blocks of
// message_start. A block started again (no server does that) adds its text
// after what came before; text for a block never started, or for a block
// that holds no text, is none of the reply's text. Text that comes after a
// block of another kind (a server tool's call or result) is set apart from
// the text before it by a blank line, as the chat screen sets them apart;
// text blocks that follow each other (as citations split them) join.
type replyText struct {
	isText map[int]bool // each block started, by its index: whether it holds text
	wrote  bool         // some text was returned
	other  bool         // a block without text started since the last text block
	apart  bool         // the next text returned starts with a blank line
}

// add returns the text ev adds to the reply.
func (r *replyText) add(ev api.Event) string {
	s := r.text(ev)
	if s == "" {
		return ""
	}
	if r.apart {
		s, r.apart = "\n\n"+s, false
	}
	r.wrote = true
	return s
}

// text returns the text of the reply that ev holds.
func (r *replyText) text(ev api.Event) string {
	switch ev.Type {
	case api.EventMessageStart:
		if ev.Message == nil {
			return ""
		}
		var s string
		for _, b := range ev.Message.Content {
			s += r.start(len(r.isText), b) // as api.Accumulator numbers them
		}
		return s
	case api.EventContentBlockStart:
		b := api.ContentBlock{Type: api.BlockText}
		if ev.Block != nil {
			b = *ev.Block
		}
		return r.start(ev.Index, b)
	case api.EventContentBlockDelta:
		if ev.Delta.Type == api.DeltaText && r.isText[ev.Index] {
			return ev.Delta.Text
		}
	}
	return ""
}

// start notes the block b, started at index, and returns the text it
// starts with.
func (r *replyText) start(index int, b api.ContentBlock) string {
	if r.isText == nil {
		r.isText = make(map[int]bool)
	}
	r.isText[index] = b.Type == api.BlockText
	if b.Type != api.BlockText {
		r.other = true
		return ""
	}
	if r.other && r.wrote {
		r.apart = true
	}
	r.other = false
	return b.Text
}

// serverNotes follows the blocks of a reply that -p shows as notes on
// standard error, beside the reply's text: redacted thinking, the server's
// tool calls and their results, each drawn as the chat screen draws it
// (see conversation.ServerBlockLines) once the block ends. Of a call's
// input, at most maxNoteInput bytes are kept: enough for a query.
type serverNotes struct {
	open map[int]*api.ContentBlock // by index, with the input so far in PartialInput
}

// maxNoteInput is the most of a server tool call's input serverNotes keeps.
const maxNoteInput = 4 << 10

// event follows ev and returns the lines of a block it ends.
func (n *serverNotes) event(ev api.Event) []string {
	switch ev.Type {
	case api.EventContentBlockStart:
		if ev.Block == nil {
			return nil
		}
		if _, ok := conversation.ServerBlockLines(*ev.Block); ok {
			if n.open == nil {
				n.open = make(map[int]*api.ContentBlock)
			}
			b := *ev.Block
			n.open[ev.Index] = &b
		}
	case api.EventContentBlockDelta:
		b := n.open[ev.Index]
		if b != nil && ev.Delta.Type == api.DeltaInputJSON && len(b.PartialInput)+len(ev.Delta.PartialJSON) <= maxNoteInput {
			b.PartialInput += ev.Delta.PartialJSON
		}
	case api.EventContentBlockStop:
		if b := n.open[ev.Index]; b != nil {
			delete(n.open, ev.Index)
			lines, _ := conversation.ServerBlockLines(*b)
			return lines
		}
	}
	return nil
}

// mergeParams starts from a session's settings and applies the flags given.
func mergeParams(saved, fromFlags session.Params, f *flags) session.Params {
	p := saved
	if f.set("model") || p.Model == "" {
		p.Model = fromFlags.Model
	}
	if f.set("max-tokens") || p.MaxTokens == 0 {
		p.MaxTokens = fromFlags.MaxTokens
	}
	override(f, "system", &p.System, fromFlags.System)
	override(f, "temperature", &p.Temperature, fromFlags.Temperature)
	override(f, "top-p", &p.TopP, fromFlags.TopP)
	override(f, "top-k", &p.TopK, fromFlags.TopK)
	override(f, "stop", &p.StopSequences, fromFlags.StopSequences)
	if f.set("thinking-budget") || f.set("thinking") {
		p.ThinkingBudget, p.Thinking = fromFlags.ThinkingBudget, fromFlags.Thinking
	}
	override(f, "effort", &p.Effort, fromFlags.Effort)
	return p
}

// openSession opens the session -c or -r names for writing. The latest
// session's journal is read once: the writer replays it as it is used.
func openSession(store *session.Store, f *flags) (*session.Writer, error) {
	if f.cont {
		w, _, err := openSessionAsync(store, f, nil)
		return w, err
	}
	info, err := store.Find(f.resume)
	if err != nil {
		return nil, err
	}
	return store.OpenWriter(info.ID)
}

// openSessionAsync is openSession for the chat screen: it returns with a
// preview of the session while its journal is replayed (see
// session.Store.OpenWriterAsync). adjust changes the session's settings.
func openSessionAsync(store *session.Store, f *flags, adjust func(session.Params) session.Params) (*session.Writer, *session.Session, error) {
	if f.cont {
		w, preview, err := store.OpenLatestAsync(adjust)
		if errors.Is(err, session.ErrNoSessions) {
			return nil, nil, errNoSession
		}
		if err != nil {
			return nil, nil, fmt.Errorf("continue the latest session: %w", err)
		}
		return w, preview, nil
	}
	info, err := store.Find(f.resume)
	if err != nil {
		return nil, nil, err
	}
	return store.OpenWriterAsync(info.ID, adjust)
}

// credentialHint says what to do when the service refused the credential
// (401) or its use (403), naming where muse took it from, so the fix is
// the right variable or profile key; "" for any other error.
func credentialHint(cfg *config, err error) string {
	var apiErr *api.APIError
	if !errors.As(err, &apiErr) {
		return ""
	}
	from := cfg.credFrom
	switch {
	case (apiErr.Status == http.StatusUnauthorized || apiErr.Type == "authentication_error") && from == "":
		return "the service wants a credential and none was sent: set MUSE_ACCESS_TOKEN or MUSE_API_KEY, or access_token_env in the profile (muse doctor checks it)"
	case apiErr.Status == http.StatusUnauthorized || apiErr.Type == "authentication_error":
		return "the service refused the credential from " + from + ": check it, or whether the service wants it as a bearer token or an x-api-key (muse doctor checks it)"
	case (apiErr.Status == http.StatusForbidden || apiErr.Type == "permission_error") && from == "":
		return "the service refused the request, and no credential was sent: set MUSE_ACCESS_TOKEN or MUSE_API_KEY, or access_token_env in the profile"
	case apiErr.Status == http.StatusForbidden || apiErr.Type == "permission_error":
		return "the credential from " + from + " may not use this model or endpoint: check its permissions, or choose another with --model (muse models lists them)"
	}
	return ""
}
