package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"muse/ui/engine"
	"muse/ui/sanitize"
)

// maxInstructions bounds the instructions of one server that go into the
// system prompt, with every request.
const maxInstructions = 4 << 10

// client returns the MCP client that connects to s (start gen): it
// declares only what muse does (roots only when Options.Roots offers
// some; no sampling, which would let a server spend the user's tokens
// unseen), refreshes the tools of s when the server says they changed,
// and passes the progress of calls on to the engine.
func (m *Manager) client(s *server, gen int) *sdk.Client {
	caps := &sdk.ClientCapabilities{}
	if len(m.opts.Roots) > 0 {
		caps.RootsV2 = &sdk.RootCapabilities{}
	}
	opts := &sdk.ClientOptions{
		Capabilities:                caps,
		ToolListChangedHandler:      func(context.Context, *sdk.ToolListChangedRequest) { m.toolsChanged(s, gen) },
		ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) { m.progressed(r.Params) },
	}
	if m.elicit != nil {
		caps.Elicitation = &sdk.ElicitationCapabilities{Form: &sdk.FormElicitationCapabilities{}}
		opts.ElicitationHandler = func(ctx context.Context, r *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			return m.elicited(ctx, s, r)
		}
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "muse", Version: cmpOr(m.opts.Version, "dev")}, opts)
	if len(m.opts.Roots) == 0 {
		c.AddReceivingMiddleware(refuseRoots)
		return c
	}
	for _, dir := range m.opts.Roots {
		u := url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}
		c.AddRoots(&sdk.Root{URI: u.String(), Name: filepath.Base(dir)})
	}
	return c
}

// refuseRoots answers roots/list with an error: muse offers no roots
// unless a profile allows it (mcp_roots), and says so in its capabilities.
func refuseRoots(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if method == "roots/list" {
			return nil, errors.New("muse offers no roots: the profile does not allow it (mcp_roots = true)")
		}
		return next(ctx, method, req)
	}
}

// instructions returns a server's instructions as they go into the
// system prompt: sanitized, and cut at maxInstructions bytes.
func instructions(sess *sdk.ClientSession) string {
	res := sess.InitializeResult()
	if res == nil {
		return ""
	}
	return cut(strings.TrimSpace(sanitize.Plain(res.Instructions)), maxInstructions)
}

// blockEscaper escapes a server's instructions inside their block, as
// HTML escapes text: a server cannot close its block
// ("</mcp_server_instructions>") and open one that claims to be another
// server's.
var blockEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// Instructions returns the instructions of the ready servers, each under
// its server's name, for the system prompt: "" when none has any; each
// server's escaped (blockEscaper). It is the engine's Config.Instructions.
func (m *Manager) Instructions() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var b strings.Builder
	for _, s := range m.srv {
		if s.state != Ready || s.instructions == "" {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("Instructions from the MCP servers whose tools are offered (tools named SERVER__TOOL):")
		}
		fmt.Fprintf(&b, "\n\n<mcp_server_instructions server=%q>\n%s\n</mcp_server_instructions>", s.cfg.Name, blockEscaper.Replace(s.instructions))
	}
	return b.String()
}

// toolsChanged re-lists the tools of s after the server said they changed
// (notifications/tools/list_changed), in the background: the next turn
// (Tools) waits for it, and /mcp shows the new list once it is in. A
// change during the start is listed once the start ends.
func (m *Manager) toolsChanged(s *server, gen int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.gen != gen {
		return
	}
	s.stale = true
	if s.state == Ready && s.refresh == nil {
		m.refreshLocked(s)
	}
}

// refreshLocked lists the tools of the ready server s again, while they
// are stale.
func (m *Manager) refreshLocked(s *server) {
	done := make(chan struct{})
	s.refresh = done
	gen, sess, tasks := s.gen, s.session, s.tasks
	go func() {
		defer close(done)
		for {
			m.mu.Lock()
			if s.gen != gen || !s.stale {
				if s.gen == gen {
					s.refresh = nil
				}
				m.changedLocked()
				m.mu.Unlock()
				return
			}
			s.stale = false
			m.mu.Unlock()
			ctx, cancel := context.WithTimeout(context.Background(), m.opts.StartTimeout)
			tools, listed, err := listTools(ctx, sess)
			cancel()
			m.mu.Lock()
			if s.gen == gen && err == nil {
				before := s.skipped
				s.tools, s.skipped = m.check(tools, tasks)
				s.skipped = append(listed, s.skipped...)
				for _, n := range s.skipped {
					if !slices.Contains(before, n) && !slices.Contains(s.fresh, n) {
						s.fresh = append(s.fresh, n) // on the status line (Notes)
					}
				}
			}
			m.mu.Unlock()
		}
	}()
}

// waitRefresh waits for the tool lists being refreshed, or for ctx.
func (m *Manager) waitRefresh(ctx context.Context) {
	m.waitFor(ctx, func(s *server) chan struct{} { return s.refresh })
}

// track registers the progress reporter of a call, when the engine gave
// one, and sets the call's progress token; untrack ends it.
func (m *Manager) track(ctx context.Context, params *sdk.CallToolParams) (untrack func()) {
	report := engine.ProgressOf(ctx)
	if report == nil {
		return func() {}
	}
	m.progMu.Lock()
	m.lastToken++
	token := "muse-" + strconv.Itoa(m.lastToken)
	if m.progress == nil {
		m.progress = map[string]func(engine.Progress){}
	}
	m.progress[token] = report
	m.progMu.Unlock()
	params.SetProgressToken(token)
	return func() {
		m.progMu.Lock()
		delete(m.progress, token)
		m.progMu.Unlock()
	}
}

// progressed passes a server's progress notification on to the call it
// is of.
func (m *Manager) progressed(p *sdk.ProgressNotificationParams) {
	if p == nil {
		return
	}
	m.progMu.Lock()
	report := m.progress[fmt.Sprint(p.ProgressToken)]
	m.progMu.Unlock()
	if report != nil {
		report(engine.Progress{Progress: p.Progress, Total: p.Total, Message: cut(p.Message, 200)})
	}
}
