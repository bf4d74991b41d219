package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"muse/api"
	"muse/ui/engine"
	"muse/ui/sanitize"
	"muse/ui/toolrun"
)

// Defaults of Options.
const (
	// DefaultStartTimeout is how long a server may take to start and list
	// its tools.
	DefaultStartTimeout = 30 * time.Second
	// DefaultCallTimeout is how long a tool call may take.
	DefaultCallTimeout = 30 * time.Second
	// DefaultMaxOutput is how many bytes of a result's text are kept, as
	// for a command's output.
	DefaultMaxOutput = 64 << 10
	// maxImageBytes is how many bytes of images one result may send.
	maxImageBytes = 5 << 20
)

// Options tune a Manager.
type Options struct {
	// StartTimeout bounds a server's start, its tool list included.
	StartTimeout time.Duration
	// CallTimeout bounds each tool call.
	CallTimeout time.Duration
	// MaxOutput is how many bytes of a result's text are kept.
	MaxOutput int
	// Env is the environment of stdio servers; nil means os.Environ().
	Env []string
	// Drop names variables kept from stdio servers besides toolrun's
	// DefaultDrop: muse's credentials, and those of every profile and
	// server. A server gets none of the variables another server's entry
	// names either (see ServerVars), unless its own entry names it too.
	Drop []string
	// Named names the variables that servers configured elsewhere name
	// too (those of another profile): a server gets none of them unless
	// its own entry names it, as for those of the servers given.
	Named []string
	// Secrets are the values of the credentials muse holds (read from a
	// variable or a command): a variable that holds one under another name
	// is kept from stdio servers too.
	Secrets []string
	// HTTPClient reaches HTTP servers; nil means a default client.
	HTTPClient *http.Client
	// Version is muse's version, sent to servers.
	Version string
	// Roots are the folders offered to servers as roots (roots/list); none
	// means muse declares no roots and answers roots/list with an error.
	Roots []string
	// Elicit declares elicitation (forms only): servers' requests for input
	// come on Elicitations, for the front end to answer.
	Elicit bool
	// Declined, when set with Elicit, declines every request for input at
	// once (-p, which has no one to ask) and is told a note saying so.
	Declined func(note string)
}

// State is where a server stands.
type State int

// States of a server.
const (
	// Idle: not started yet; it starts at the next turn that offers tools.
	Idle State = iota
	// Starting: starting, or listing its tools.
	Starting
	// Ready: its tools are offered.
	Ready
	// Failed: it did not start, or stopped; Status says why.
	Failed
	// Off: turned off for the session (--no-mcp, /mcp off).
	Off
)

func (s State) String() string {
	return [...]string{"not started", "starting", "ready", "failed", "off"}[s]
}

// Manager runs the configured servers and offers their tools. Its methods
// may be called from any goroutine.
type Manager struct {
	opts Options
	// vars are the variables the servers' entries name (ServerVars), and
	// Options.Named.
	vars []string
	mu   sync.Mutex
	srv  []*server
	// startedAll is closed when all the servers first start (StartAll, or
	// a turn's Tools).
	startedAll chan struct{}
	// changed is closed, and replaced, when a server's start ends or its
	// tools change (see changedLocked); closed is closed by Close, which
	// ends the wait for notes.
	changed chan struct{}
	closed  chan struct{}
	// progress maps the progress tokens of the calls under way to their
	// reporters (track); lastToken numbers the tokens.
	progMu    sync.Mutex
	progress  map[string]func(engine.Progress)
	lastToken int
	// elicit carries servers' requests for input (Options.Elicit).
	elicit chan *Elicitation
}

// server is one server and its connection.
type server struct {
	cfg   Server
	state State
	err   string // why it failed, for Status
	// stderr is the end of what the server wrote on standard error before
	// it failed.
	stderr string
	// noted is set once the failure was reported in a turn.
	noted bool
	// done is closed when the start under way ends; cancel ends it early.
	done    chan struct{}
	cancel  context.CancelFunc
	session *sdk.ClientSession
	proc    *toolrun.Process
	tools   []*sdk.Tool
	skipped []string // notes on tools not offered
	// fresh are the notes of skipped that a refresh of the tool list
	// brought, not reported yet (notesLocked).
	fresh []string
	gen   int // counts starts, so a stale one is told apart
	// instructions are the server's, sanitized and bounded.
	instructions string
	// tasks names its tools that run only as tasks (taskOnly).
	tasks *taskOnly
	// prompts and resources are the server's (listPrompts, listResources).
	prompts   []*sdk.Prompt
	resources []*sdk.Resource
	// stale says the server changed its tools since they were listed;
	// refresh, while they are listed again, is closed when that ends.
	stale   bool
	refresh chan struct{}
	// asking counts muse's requests to the server under way, during which
	// it may ask the user for input; declined counts its requests for
	// input muse declined since the last note (see asking.go); ended is
	// closed when asking returns to 0 (made anew when it leaves 0).
	asking, declined int
	ended            chan struct{}
}

// New returns a Manager of servers, started only when asked for their
// tools or by StartAll. Servers named in off start Off.
func New(servers []Server, opts Options, off ...string) *Manager {
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = DefaultCallTimeout
	}
	if opts.MaxOutput <= 0 {
		opts.MaxOutput = DefaultMaxOutput
	}
	vars := ServerVars(servers)
	for _, v := range opts.Named {
		if !common(v) && !slices.Contains(vars, v) {
			vars = append(vars, v)
		}
	}
	m := &Manager{opts: opts, vars: vars, startedAll: make(chan struct{}), changed: make(chan struct{}), closed: make(chan struct{})}
	if opts.Elicit {
		m.elicit = make(chan *Elicitation)
	}
	for _, s := range servers {
		st := Idle
		if slices.Contains(off, s.Name) {
			st = Off
		}
		m.srv = append(m.srv, &server{cfg: s, state: st})
	}
	return m
}

// StartAll starts the servers not started yet (not those turned off) in
// the background, in parallel, and returns at once. The chat screen calls
// it once its first frame is drawn, and -p as it starts, so that the first
// turn waits only for what is still starting.
func (m *Manager) StartAll() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.startAllLocked()
}

// Notes waits for the first start of all the servers (StartAll, or a
// turn's Tools), then for notes: a server that failed, tools a server left
// out, at its start or when a refresh of its list (list_changed) left out
// others, each reported once. It returns as soon as there are some, so the
// chat screen shows a failure as it happens, not when the slowest server
// has started: more says it is worth calling again. It returns nil, false
// when ctx ends or the Manager is closed.
func (m *Manager) Notes(ctx context.Context) (notes []string, more bool) {
	select {
	case <-m.startedAll:
	case <-ctx.Done():
		return nil, false
	case <-m.closed:
		return nil, false
	}
	for {
		m.mu.Lock()
		notes = m.notesLocked()
		changed := m.changed
		m.mu.Unlock()
		if len(notes) > 0 {
			return notes, true
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, false
		case <-m.closed:
			return nil, false
		}
	}
}

// changedLocked wakes those waiting for a change (Notes).
func (m *Manager) changedLocked() {
	close(m.changed)
	m.changed = make(chan struct{})
}

func (m *Manager) startAllLocked() {
	for _, s := range m.srv {
		if s.state == Idle {
			m.startLocked(s)
		}
	}
	select {
	case <-m.startedAll:
	default:
		close(m.startedAll)
	}
}

// waitStarting waits for the servers starting now to be ready or to fail,
// each within StartTimeout; false when ctx ended first.
func (m *Manager) waitStarting(ctx context.Context) bool {
	return m.waitFor(ctx, func(s *server) chan struct{} {
		if s.state == Starting {
			return s.done
		}
		return nil
	})
}

// waitFor waits until the channel pick gives for each server, under m.mu,
// is closed (nil: none to wait for), or for ctx: false when ctx ended
// first.
func (m *Manager) waitFor(ctx context.Context, pick func(s *server) chan struct{}) bool {
	var wait []chan struct{}
	m.mu.Lock()
	for _, s := range m.srv {
		if d := pick(s); d != nil {
			wait = append(wait, d)
		}
	}
	m.mu.Unlock()
	for _, d := range wait {
		select {
		case <-d:
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// notesLocked returns, once each, a note for each server that failed and
// for the tools a ready server left out, at its start or at a refresh.
func (m *Manager) notesLocked() []string {
	var notes []string
	for _, s := range m.srv {
		if s.state == Failed && !s.noted {
			s.noted = true
			notes = append(notes, sanitize.Line(fmt.Sprintf("MCP server %s: %s; the chat goes on without its tools", s.cfg.Name, s.why())))
		}
		if s.state == Ready {
			fresh := s.fresh
			if !s.noted {
				s.noted, fresh = true, s.skipped
			}
			for _, n := range fresh {
				notes = append(notes, sanitize.Line(fmt.Sprintf("MCP server %s: %s", s.cfg.Name, n)))
			}
			s.fresh = nil
		}
		if s.declined > 0 {
			notes = append(notes, sanitize.Line(declinedNote(s.cfg.Name, s.declined)))
			s.declined = 0
		}
	}
	return notes
}

// Tools starts the servers not started yet, in parallel, waits for those
// starting (each within StartTimeout) or for ctx, and returns the tools of
// the servers ready, with a note for each server that failed since the
// last call. It is an engine.ToolSource.
func (m *Manager) Tools(ctx context.Context) ([]engine.Tool, []string) {
	m.mu.Lock()
	m.startAllLocked()
	m.mu.Unlock()
	m.waitStarting(ctx)
	m.waitRefresh(ctx)
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.offeredLocked(), m.notesLocked()
}

// Start starts the server name now, if it is not running, and waits for
// it within StartTimeout or until ctx ends: /mcp on and muse doctor. A
// server turned off is turned on.
func (m *Manager) Start(ctx context.Context, name string) error {
	m.mu.Lock()
	s := m.find(name)
	if s == nil {
		m.mu.Unlock()
		return m.unknown(name)
	}
	if s.state == Idle || s.state == Off || s.state == Failed {
		m.startLocked(s)
	}
	done, state := s.done, s.state
	m.mu.Unlock()
	if state == Starting {
		select {
		case <-done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	s.noted = true // the caller reports it
	if s.state == Failed {
		return errors.New(s.why())
	}
	return nil
}

// StderrLines returns the last n lines of stderr, a server's standard
// error, that are neither blank nor the frames of a stack trace ("    at
// f (file.js:1:2)", as Node.js and Java write them), which would push the
// error's message out. They are the server's text: sanitize them.
func StderrLines(stderr string, n int) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "at ") && t != l {
			continue
		}
		out = append(out, l)
	}
	return out[max(len(out)-n, 0):]
}

// why says why s failed, with the last lines it wrote on standard error.
func (s *server) why() string {
	lines := StderrLines(s.stderr, 3)
	if len(lines) == 0 {
		return s.err
	}
	return s.err + ": " + strings.Join(lines, " · ")
}

// Stop stops the server name and keeps it off for the session: /mcp off.
func (m *Manager) Stop(name string) error {
	m.mu.Lock()
	s := m.find(name)
	if s == nil {
		m.mu.Unlock()
		return m.unknown(name)
	}
	sess, proc := m.detachLocked(s)
	s.state, s.err, s.stderr = Off, "", ""
	m.mu.Unlock()
	closeConn(sess, proc)
	return nil
}

// Close stops every server. Calling Tools afterwards starts them again.
func (m *Manager) Close() {
	m.mu.Lock()
	select {
	case <-m.closed:
	default:
		close(m.closed)
	}
	type conn struct {
		s *sdk.ClientSession
		p *toolrun.Process
	}
	var conns []conn
	for _, s := range m.srv {
		sess, proc := m.detachLocked(s)
		conns = append(conns, conn{sess, proc})
		if s.state != Off {
			s.state = Idle
		}
	}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Add(1)
		go func() { defer wg.Done(); closeConn(c.s, c.p) }()
	}
	wg.Wait()
}

// detachLocked takes the connection of s away from it, for closing outside
// the lock; a start under way is left to find itself stale.
func (m *Manager) detachLocked(s *server) (*sdk.ClientSession, *toolrun.Process) {
	sess, proc := s.session, s.proc
	s.session, s.proc, s.tools, s.skipped, s.fresh, s.instructions, s.prompts, s.resources = nil, nil, nil, nil, nil, "", nil, nil
	s.stale, s.refresh = false, nil
	s.gen++
	if s.state == Starting {
		s.cancel() // the start sees itself stale and stops what it started
		close(s.done)
		m.changedLocked()
	}
	return sess, proc
}

// Status is a server's state, for /mcp and muse doctor.
type Status struct {
	Name, Type, Where string
	State             State
	// Err says why the server failed, and Stderr is the end of what it
	// wrote on standard error then (the server's text: sanitize it).
	Err, Stderr string
	// Tools are the names its tools are offered under, and Skipped notes on
	// the tools not offered.
	Tools, Skipped []string
	// Instructions are the server's, as they go into the system prompt.
	Instructions string
	// Prompts are the usages of its prompts (Prompt.Usage), and Resources
	// the mentions of its resources.
	Prompts, Resources []string
}

// Status returns the servers' states, in the configuration's order.
func (m *Manager) Status() []Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	offered := m.offeredLocked()
	prompts := m.promptsLocked()
	out := make([]Status, 0, len(m.srv))
	for _, s := range m.srv {
		st := Status{Name: s.cfg.Name, Type: s.cfg.Type, Where: s.cfg.Where, State: s.state, Err: s.err, Stderr: s.stderr, Skipped: slices.Clone(s.skipped), Instructions: s.instructions}
		for _, t := range offered {
			if t.Server == s.cfg.Name {
				st.Tools = append(st.Tools, t.Def.Name)
			}
		}
		for _, p := range prompts {
			if p.Server == s.cfg.Name {
				st.Prompts = append(st.Prompts, p.Usage())
			}
		}
		for _, r := range s.resources {
			st.Resources = append(st.Resources, "@"+s.cfg.Name+":"+r.URI)
		}
		out = append(out, st)
	}
	return out
}

// Names returns the servers' names, in the configuration's order.
func (m *Manager) Names() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	names := make([]string, len(m.srv))
	for i, s := range m.srv {
		names[i] = s.cfg.Name
	}
	return names
}

// ToolNames returns the names the tools of the ready servers are offered
// under, as --tool-choice and /tool-choice take them.
func (m *Manager) ToolNames() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var names []string
	for _, t := range m.offeredLocked() {
		names = append(names, t.Def.Name)
	}
	return names
}

// ServerOf returns the server whose tool is offered as name, or "".
func (m *Manager) ServerOf(name string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, t := range m.offeredLocked() {
		if t.Def.Name == name {
			return t.Server
		}
	}
	return ""
}

func (m *Manager) find(name string) *server {
	for _, s := range m.srv {
		if s.cfg.Name == name {
			return s
		}
	}
	return nil
}

func (m *Manager) unknown(name string) error {
	names := make([]string, len(m.srv))
	for i, s := range m.srv {
		names[i] = s.cfg.Name
	}
	if len(names) == 0 {
		return fmt.Errorf("no MCP server %q: none is configured (--mcp-config FILE, or [profiles.NAME.mcp.SERVER])", name)
	}
	return fmt.Errorf("no MCP server %q: the servers are %s", name, strings.Join(names, ", "))
}

// startLocked starts s in the background.
func (m *Manager) startLocked(s *server) {
	s.state, s.err, s.stderr, s.noted = Starting, "", "", false
	s.done = make(chan struct{})
	s.gen++
	ctx, cancel := context.WithTimeout(context.Background(), m.opts.StartTimeout)
	s.cancel = cancel
	gen, cfg, done := s.gen, s.cfg, s.done
	go func() {
		defer cancel()
		tasks := &taskOnly{}
		sess, proc, tools, listed, err := m.connect(ctx, cfg, m.client(s, gen), tasks)
		var prompts []*sdk.Prompt
		var resources []*sdk.Resource
		if err == nil {
			prompts, resources = listPrompts(ctx, sess), listResources(ctx, sess)
		}
		if err != nil && ctx.Err() != nil {
			err = fmt.Errorf("did not answer within %s", m.opts.StartTimeout)
			if proc != nil {
				select {
				case <-proc.Done():
					err = fmt.Errorf("exited while starting: %s", proc.Exit())
				default:
				}
			}
		} else if err != nil && proc != nil {
			select {
			case <-proc.Done(): // what the protocol said of it is noise
				err = fmt.Errorf("exited while starting: %s", proc.Exit())
			case <-time.After(time.Second): // a closed connection is an exit on its way
			}
		}
		stderr := ""
		if err != nil && proc != nil {
			stderr = proc.Stderr()
		}
		m.mu.Lock()
		stale := s.gen != gen
		if !stale {
			if err != nil {
				s.state, s.err, s.stderr = Failed, err.Error(), stderr
			} else {
				s.state, s.session, s.proc = Ready, sess, proc
				s.tasks = tasks
				s.tools, s.skipped = m.check(tools, tasks)
				s.skipped = append(listed, s.skipped...)
				s.instructions, s.prompts, s.resources = instructions(sess), prompts, resources
				if s.stale {
					m.refreshLocked(s)
				}
			}
			close(done)
			m.changedLocked()
		}
		m.mu.Unlock()
		if stale || err != nil {
			closeConn(sess, proc)
			return
		}
		go m.watch(s, gen, sess)
	}()
}

// watch marks s failed when its connection ends by itself: a crash.
func (m *Manager) watch(s *server, gen int, sess *sdk.ClientSession) {
	sess.Wait()
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.gen != gen {
		return // stopped by muse
	}
	why, stderr := "stopped", ""
	if s.proc != nil {
		select {
		case <-s.proc.Done():
			why = s.proc.Exit()
		case <-time.After(100 * time.Millisecond):
		}
		stderr = s.proc.Stderr()
	}
	proc := s.proc
	s.state, s.err, s.stderr, s.noted = Failed, "stopped: "+why, stderr, false
	s.session, s.proc, s.tools, s.skipped, s.fresh, s.instructions, s.prompts, s.resources = nil, nil, nil, nil, nil, "", nil, nil
	s.stale, s.refresh = false, nil
	s.gen++
	m.changedLocked()
	if proc != nil {
		go proc.Stop()
	}
}

// connect starts or reaches cfg's server, and lists its tools.
func (m *Manager) connect(ctx context.Context, cfg Server, client *sdk.Client, tasks *taskOnly) (*sdk.ClientSession, *toolrun.Process, []*sdk.Tool, []string, error) {
	var t sdk.Transport
	var proc *toolrun.Process
	switch {
	case cfg.Connect != nil:
		var err error
		if t, err = cfg.Connect(ctx); err != nil {
			return nil, nil, nil, nil, err
		}
	case cfg.Type == TypeHTTP || cfg.Type == TypeSSE:
		hc := httpClient(m.opts.HTTPClient, cfg, tasks)
		if cfg.Type == TypeSSE {
			t = sseTransport{&sdk.SSEClientTransport{Endpoint: cfg.URL, HTTPClient: hc, MaxEventSize: maxMessage}}
		} else {
			t = &sdk.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: hc, MaxRetries: -1, MaxEventSize: maxMessage}
		}
	default:
		extra := make([]string, 0, len(cfg.Env))
		for k, v := range cfg.Env {
			extra = append(extra, k+"="+v)
		}
		sort.Strings(extra)
		var err error
		proc, err = toolrun.StartServer(toolrun.ServerSpec{
			Argv: append([]string{cfg.Command}, cfg.Args...), Dir: cfg.Cwd,
			Env: m.opts.Env, Extra: extra, Drop: m.dropFor(cfg), Secrets: m.opts.Secrets,
		})
		if err != nil {
			return nil, nil, nil, nil, err
		}
		t = &sdk.IOTransport{Reader: scanned{&taskScan{r: proc.Stdout, t: tasks}, proc.Stdout}, Writer: proc.Stdin, MaxLineLength: maxMessage}
	}
	sess, err := client.Connect(ctx, t, nil)
	if err != nil {
		return nil, proc, nil, nil, fmt.Errorf("could not start: %w", err)
	}
	tools, notes, err := listTools(ctx, sess)
	if err != nil {
		return sess, proc, nil, nil, fmt.Errorf("could not list its tools: %w", err)
	}
	return sess, proc, tools, notes, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// check keeps the tools that can be offered: a name, and an input schema
// that is a JSON object of type "object" (or none). It returns notes on the
// others.
func (m *Manager) check(tools []*sdk.Tool, tasks *taskOnly) (kept []*sdk.Tool, notes []string) {
	for _, t := range tools {
		if t == nil || strings.TrimSpace(t.Name) == "" {
			notes = append(notes, "a tool without a name is not offered")
			continue
		}
		if tasks.has(t.Name) {
			notes = append(notes, fmt.Sprintf("tool %q is not offered: it runs only as a task (execution.taskSupport required), which muse does not run", t.Name))
			continue
		}
		if msg := schemaProblem(t.InputSchema); msg != "" {
			notes = append(notes, fmt.Sprintf("tool %q is not offered: %s", t.Name, msg))
			continue
		}
		kept = append(kept, t)
	}
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].Name < kept[j].Name })
	return kept, notes
}

// schemaProblem says what is wrong with an input schema, or "".
func schemaProblem(schema any) string {
	if schema == nil {
		return ""
	}
	obj, ok := schema.(map[string]any)
	if !ok {
		return "its input schema is not a JSON object"
	}
	if t, ok := obj["type"]; ok && t != "object" {
		return fmt.Sprintf("its input schema has type %v, and tools take an object", t)
	}
	return ""
}

// offeredLocked returns the tools of the ready servers under names that
// the API takes and that differ, in the configuration's order.
func (m *Manager) offeredLocked() []engine.Tool {
	var out []engine.Tool
	taken := map[string]bool{}
	for _, s := range m.srv {
		if s.state != Ready {
			continue
		}
		for _, t := range s.tools {
			name := uniqueName(toolName(s.cfg.Name, t.Name), taken)
			taken[name] = true
			schema, _ := json.Marshal(t.InputSchema)
			if t.InputSchema == nil {
				schema = nil
			}
			out = append(out, engine.Tool{
				Def:     api.Tool{Name: name, Description: t.Description, InputSchema: schema},
				Call:    m.caller(s, t.Name),
				Server:  s.cfg.Name,
				Allowed: slices.Contains(s.cfg.Allow, t.Name),
			})
		}
	}
	return out
}

// caller returns the engine's ToolCaller of tool on s.
func (m *Manager) caller(s *server, tool string) engine.ToolCaller {
	return func(ctx context.Context, input json.RawMessage) engine.ToolOutput {
		sess, done := m.begin(s)
		defer done()
		name := s.cfg.Name
		if sess == nil {
			return engine.ToolOutput{IsError: true, Text: fmt.Sprintf("the MCP server %s is not running", name)}
		}
		ctx, cancel := context.WithTimeout(ctx, m.opts.CallTimeout)
		defer cancel()
		params := &sdk.CallToolParams{Name: tool, Arguments: input}
		defer m.track(ctx, params)()
		res, err := sess.CallTool(ctx, params)
		switch {
		case err != nil && ctx.Err() == context.DeadlineExceeded:
			return engine.ToolOutput{IsError: true, Text: fmt.Sprintf("the MCP server %s did not answer within %s", name, m.opts.CallTimeout)}
		case err != nil && ctx.Err() != nil:
			return engine.ToolOutput{IsError: true, Text: "cancelled"}
		case err != nil:
			return engine.ToolOutput{IsError: true, Text: fmt.Sprintf("the MCP server %s: %v", name, err)}
		}
		return Convert(res, m.opts.MaxOutput)
	}
}
