package ui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"muse/api"
	"muse/session"
	"muse/ui/sanitize"
)

// Tool is a tool offered to the model. A tool with a Command is run by muse
// (never sent to the server); one without lets the user type its result.
type Tool struct {
	Def     api.Tool
	Command []string
}

// ToolDefs are the definitions sent to the server; the commands stay here.
func ToolDefs(tools []Tool) []api.Tool {
	defs := make([]api.Tool, 0, len(tools))
	for _, t := range tools {
		defs = append(defs, t.Def)
	}
	return defs
}

// Tool limits.
const (
	ToolTimeout       = 30 * time.Second
	ToolOutputCap     = 64 << 10
	DefaultToolRounds = 20
)

// RunTool runs argv with the call's input JSON on stdin, for at most
// ToolTimeout, keeping at most ToolOutputCap bytes of its output (stdout and
// stderr together).
func RunTool(ctx context.Context, argv []string, input []byte) (output string, exitCode int, err error) {
	if len(argv) == 0 {
		return "", -1, errors.New("the tool has no command")
	}
	ctx, cancel := context.WithTimeout(ctx, ToolTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = bytes.NewReader(input)
	out := &capped{max: ToolOutputCap}
	cmd.Stdout, cmd.Stderr = out, out
	err = cmd.Run()
	exitCode = cmd.ProcessState.ExitCode()
	if ctx.Err() == context.DeadlineExceeded {
		return out.String(), exitCode, fmt.Errorf("%s timed out after %s", argv[0], ToolTimeout)
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		err = nil // a non-zero exit is a result, reported with its code
	}
	return out.String(), exitCode, err
}

// capped keeps the first max bytes written to it and counts the rest.
type capped struct {
	buf     bytes.Buffer
	max     int
	dropped int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(room, len(p))])
		c.dropped += max(len(p)-room, 0)
	} else {
		c.dropped += len(p)
	}
	return len(p), nil
}

func (c *capped) String() string {
	if c.dropped > 0 {
		return fmt.Sprintf("%s\n… %d more bytes cut (limit %d KiB)", c.buf.String(), c.dropped, c.max>>10)
	}
	return c.buf.String()
}

// toolTurn answers the tool calls of a reply, one after the other.
type toolTurn struct {
	// cancel stops a running command when the calls are abandoned.
	cancel  context.CancelFunc
	calls   []api.ContentBlock
	results []session.ToolResult
	idx     int
	running bool
	// typing is set while the user types the result of a tool with no command.
	typing bool
}

// toolRanMsg carries a finished tool command.
type toolRanMsg struct {
	idx      int
	output   string
	exitCode int
	err      error
	took     time.Duration
}

func (m Model) findTool(name string) *Tool {
	for i := range m.opts.Tools {
		if m.opts.Tools[i].Def.Name == name {
			return &m.opts.Tools[i]
		}
	}
	return nil
}

// beginTools starts answering the tool calls of a finished reply.
func (m Model) beginTools(msg api.Message) (Model, tea.Cmd) {
	var calls []api.ContentBlock
	for _, b := range msg.Content {
		if b.Type == api.BlockToolUse && !b.Truncated {
			calls = append(calls, b)
		}
	}
	if len(calls) == 0 {
		return m, nil
	}
	max := m.opts.MaxToolRounds
	if max <= 0 {
		max = DefaultToolRounds
	}
	if m.toolRound >= max {
		m.notice = fmt.Sprintf("stopped after %d tool rounds for this prompt: send a prompt to go on", max)
		return m, nil
	}
	m.toolRound++
	m.tools = &toolTurn{calls: calls}
	return m.nextCall()
}

// nextCall asks about, runs, or waits for the result of the current call,
// or, when all are answered, sends the results and continues.
func (m Model) nextCall() (Model, tea.Cmd) {
	t := m.tools
	if t.idx >= len(t.calls) {
		return m.sendToolResults()
	}
	call := t.calls[t.idx]
	tool := m.findTool(call.Name)
	switch {
	case tool == nil:
		t.results = append(t.results, session.ToolResult{ToolUseID: call.ID, Name: call.Name, IsError: true,
			Output: fmt.Sprintf("muse has no tool named %q", call.Name), Approval: "no"})
		t.idx++
		return m.nextCall()
	case len(tool.Command) == 0:
		t.typing = true
		m.w.input.Reset()
		m.w.input.Placeholder = fmt.Sprintf("type the result of %s, enter sends · esc declines", sanitize.Line(call.Name))
		return m.layout(), nil
	case m.toolAlways[call.Name]:
		return m.runCall("always")
	}
	return m.layout(), nil // the status bar asks: y, n or a
}

// runCall runs the current call's command.
func (m Model) runCall(approval string) (Model, tea.Cmd) {
	t := m.tools
	call := t.calls[t.idx]
	tool := m.findTool(call.Name)
	t.running = true
	t.results = append(t.results, session.ToolResult{ToolUseID: call.ID, Name: call.Name, Approval: approval})
	idx := t.idx
	input := []byte(call.Input)
	if len(input) == 0 {
		input = []byte("{}")
	}
	argv := append([]string(nil), tool.Command...)
	ctx, cancel := context.WithCancel(context.Background())
	t.cancel = cancel
	return m.layout(), func() tea.Msg {
		defer cancel()
		start := time.Now()
		out, code, err := RunTool(ctx, argv, input)
		return toolRanMsg{idx: idx, output: out, exitCode: code, err: err, took: time.Since(start)}
	}
}

func (m Model) toolRan(msg toolRanMsg) (tea.Model, tea.Cmd) {
	t := m.tools
	if t == nil || msg.idx != t.idx || msg.idx >= len(t.results) {
		return m, nil
	}
	r := &t.results[msg.idx]
	r.Output, r.ExitCode, r.DurationMS = msg.output, msg.exitCode, msg.took.Milliseconds()
	if msg.err != nil {
		r.IsError = true
		r.Output = strings.TrimSpace(msg.output + "\n" + msg.err.Error())
	} else if msg.exitCode != 0 {
		r.IsError = true
	}
	t.running = false
	t.idx++
	return m.nextCall()
}

// decideCall handles y, n and a while a call waits for approval.
func (m Model) decideCall(k tea.KeyMsg) (tea.Model, tea.Cmd, bool) {
	t := m.tools
	if t == nil || t.running || t.typing || t.idx >= len(t.calls) {
		return m, nil, false
	}
	call := t.calls[t.idx]
	switch {
	case k.String() == "y":
		next, cmd := m.runCall("yes")
		return next, cmd, true
	case k.String() == "a":
		if m.toolAlways == nil {
			m.toolAlways = map[string]bool{}
		}
		m.toolAlways[call.Name] = true
		next, cmd := m.runCall("always")
		return next, cmd, true
	case k.String() == "n" || key.Matches(k, m.keys.Cancel):
		t.results = append(t.results, session.ToolResult{ToolUseID: call.ID, Name: call.Name, IsError: true,
			Output: "the user declined to run this tool", Approval: "no"})
		t.idx++
		next, cmd := m.nextCall()
		return next, cmd, true
	}
	return m, nil, true // other keys wait for an answer
}

// typedResult takes the typed result of a tool with no command.
func (m Model) typedResult(text string, declined bool) (tea.Model, tea.Cmd) {
	t := m.tools
	call := t.calls[t.idx]
	r := session.ToolResult{ToolUseID: call.ID, Name: call.Name, Output: text, Approval: "typed"}
	if declined {
		r.IsError, r.Output, r.Approval = true, "the user declined to give a result", "no"
	}
	t.results = append(t.results, r)
	t.typing = false
	t.idx++
	m.w.input.Reset()
	m.w.input.Placeholder = inputPlaceholder
	return m.nextCall()
}

// sendToolResults records the results and continues the conversation.
func (m Model) sendToolResults() (Model, tea.Cmd) {
	t := m.tools
	m.tools = nil
	entry := m.newEntry(session.Entry{Kind: session.KindTool, ToolResults: t.results})
	m.conv = m.conv.caughtUp().Add(entry)
	req := m.request(session.History(m.conv.Entries()))
	if err := req.Validate(); err != nil {
		// The results are kept and saved; the reply waits for a valid setting.
		m.notice = err.Error()
		return m.save(saveJob{entries: []session.Entry{entry}})
	}
	return m.startTurn(req, entry, nil)
}

// abandonTools leaves the current tool calls unanswered: a running command
// is stopped, and the input is a prompt again.
func (m Model) abandonTools() Model {
	if t := m.tools; t != nil {
		if t.cancel != nil {
			t.cancel()
		}
		if t.typing {
			m.w.input.Reset()
		}
	}
	m.w.input.Placeholder = inputPlaceholder
	m.tools = nil
	return m.layout()
}

// toolPrompt is the status line while a call waits for approval.
func (m Model) toolPrompt() string {
	t := m.tools
	if t == nil || t.running || t.typing || t.idx >= len(t.calls) {
		return ""
	}
	call := t.calls[t.idx]
	return fmt.Sprintf("run tool %s %s? y yes · n no · a always this session",
		sanitize.Line(call.Name), truncateRunes(sanitize.Line(string(call.Input)), 60))
}
