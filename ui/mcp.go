package ui

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/ui/composer"
	"muse/ui/mcp"
	"muse/ui/notices"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// mcpCommand carries out /mcp: arg "" lists the servers into the
// conversation; "on NAME" and "off NAME" start or stop one in the
// background (a tea.Cmd: starting waits for the server).
func (m Model) mcpCommand(arg string) (tea.Model, tea.Cmd) {
	mgr := m.opts.MCP
	if mgr == nil {
		m.status = m.status.Note("no MCP server is configured: --mcp-config FILE, or [profiles.NAME.mcp.SERVER] in the profile")
		return m, nil
	}
	op, name, _ := strings.Cut(arg, " ")
	switch op {
	case "on":
		m.status = m.status.Note("starting MCP server " + sanitize.Line(name) + "…")
		return m, func() tea.Msg {
			if err := mgr.Start(context.Background(), name); err != nil {
				return notices.Msg{Text: sanitize.Line(fmt.Sprintf("MCP server %s: %v", name, err))}
			}
			return notices.Msg{Text: sanitize.Line(fmt.Sprintf("MCP server %s is on: its tools are offered from the next request", name))}
		}
	case "off":
		return m, func() tea.Msg {
			if err := mgr.Stop(name); err != nil {
				return notices.Msg{Text: sanitize.Line(err.Error())}
			}
			return notices.Msg{Text: sanitize.Line(fmt.Sprintf("MCP server %s is off for this session", name))}
		}
	}
	m.conv = m.conv.Note(session.Entry{Kind: session.KindNotice, Text: mcpList(mgr.Status())}, m.now())
	return m.layout(), nil
}

// mcpList describes the servers for /mcp, made safe to show.
func mcpList(servers []mcp.Status) string {
	var b strings.Builder
	b.WriteString("MCP servers (/mcp on NAME, /mcp off NAME):\n")
	for _, s := range servers {
		fmt.Fprintf(&b, "\n%s · %s · %s", s.Name, s.Type, s.State)
		if s.Err != "" {
			b.WriteString(": " + s.Err)
		}
		for _, l := range mcp.StderrLines(s.Stderr, 5) {
			b.WriteString("\n  stderr: " + sanitize.Line(l))
		}
		if len(s.Tools) > 0 {
			b.WriteString("\n  tools: " + strings.Join(s.Tools, ", "))
		}
		if len(s.Prompts) > 0 {
			b.WriteString("\n  prompts: " + strings.Join(s.Prompts, ", "))
		}
		if n := len(s.Resources); n > 0 {
			shown := s.Resources[:min(n, 5)]
			b.WriteString("\n  resources (attach with @): " + strings.Join(shown, ", "))
			if n > len(shown) {
				fmt.Fprintf(&b, " and %d more (tab completes them)", n-len(shown))
			}
		}
		for _, n := range s.Skipped {
			b.WriteString("\n  " + n)
		}
		if s.Instructions != "" {
			b.WriteString("\n  instructions (in the system prompt): " + firstLine(s.Instructions, 100))
		}
		b.WriteString("\n")
	}
	return sanitize.Plain(strings.TrimRight(b.String(), "\n"))
}

// mcpServerOf names the MCP server of the tool offered as name, or "".
func (o Options) mcpServerOf(name string) string {
	if o.MCP == nil {
		return ""
	}
	return o.MCP.ServerOf(name)
}

// waitMCPNotes waits, in a command, for the next notes of the MCP servers
// of mgr (a failure of their background start, as it happens; tools left
// out, at a start or when a server's list changed), so that they show on
// the status line when they happen rather than at the next turn, and then
// waits for the next.
func waitMCPNotes(mgr *mcp.Manager) tea.Cmd {
	return func() tea.Msg {
		for {
			notes, more := mgr.Notes(context.Background())
			if len(notes) > 0 {
				show := notices.Msg{Text: strings.Join(notes, " · ")}
				if !more {
					return show
				}
				return tea.BatchMsg{func() tea.Msg { return show }, waitMCPNotes(mgr)}
			}
			if !more {
				return nil
			}
		}
	}
}

// firstLine returns the first line of s that is not blank, cut to n
// columns, for a one-line summary.
func firstLine(s string, n int) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return textfmt.TruncateWidth(l, n)
		}
	}
	return ""
}

// mcpPromptMsg carries the text of an MCP prompt got for line, to send.
type mcpPromptMsg struct {
	line, text string
	err        error
}

// mcpPrompt reports whether line runs a prompt of an MCP server
// (/SERVER:NAME args…), and if so what the status line says and the
// command that gets it: its text is then sent as a prompt (mcpPromptGot).
// Arguments that do not parse give no command: the line stays in the
// input to be fixed.
func (o Options) mcpPrompt(line string) (notice string, get tea.Cmd, ok bool) {
	mgr := o.MCP
	if mgr == nil {
		return "", nil, false
	}
	p, ok := mgr.FindPrompt(line)
	if !ok {
		return "", nil, false
	}
	_, typed, _ := strings.Cut(strings.TrimSpace(line), " ")
	args, err := p.ParseArgs(typed)
	if err != nil {
		return err.Error(), nil, true
	}
	return "getting prompt " + p.Command + "…", func() tea.Msg {
		text, err := mgr.GetPrompt(context.Background(), p, args)
		return mcpPromptMsg{line: line, text: text, err: err}
	}, true
}

// mcpPromptGot sends an MCP prompt's text, if the input still holds the
// command that asked for it; an error stays on the status line.
func (m Model) mcpPromptGot(msg mcpPromptMsg) (tea.Model, tea.Cmd) {
	if msg.err != nil {
		m.status = m.status.Note(sanitize.Line(msg.err.Error()))
		return m.layout(), nil
	}
	if strings.TrimSpace(m.comp.Input().Value()) != strings.TrimSpace(msg.line) {
		m.status = m.status.Note("the MCP prompt came after the input changed: it was not sent")
		return m.layout(), nil
	}
	m.status = m.status.Note("")
	m.comp = m.comp.SetInput(m.comp.Input().Reset().EndRecall())
	return m.sendPrompt(m.comp.Prompt(msg.text))
}

// mcpResources returns the sources of the MCP resources text mentions as
// @SERVER:URI, each read from its server when attached. Like a file's
// @mention, typed with Tab's completion it is the user's word to send it;
// pasted, it waits as a chip for the next enter.
func (o Options) mcpResources(text string) []composer.Source {
	mgr := o.MCP
	if mgr == nil || !strings.Contains(text, "@") {
		return nil
	}
	var out []composer.Source
	for _, r := range mgr.MentionedResources(text) {
		out = append(out, composer.Source{Name: r.FileName(), Read: func(ctx context.Context) ([]byte, error) {
			return mgr.ReadResource(ctx, r)
		}})
	}
	return out
}
