package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"muse/ui/sanitize"
)

// maxPrompts is how many prompts of one server are listed.
const maxPrompts = 128

// Prompt is a server's prompt, offered as the slash command
// /SERVER:NAME: the data a completion menu lists.
type Prompt struct {
	// Command is "/SERVER:NAME".
	Command     string
	Server      string
	Name        string
	Description string // sanitized, one line
	Args        []PromptArg
}

// PromptArg is an argument of a prompt.
type PromptArg struct {
	Name        string
	Description string // sanitized, one line
	Required    bool
}

// Usage is how the prompt is typed: "/ev:args-prompt city=… [state=…]".
func (p Prompt) Usage() string {
	parts := []string{p.Command}
	for _, a := range p.Args {
		if a.Required {
			parts = append(parts, a.Name+"=…")
		} else {
			parts = append(parts, "["+a.Name+"=…]")
		}
	}
	return strings.Join(parts, " ")
}

// listPrompts lists the prompts of sess when its server offers some, at
// most maxPrompts of them from at most maxPages pages, with names that a
// command can hold and show as they are (word).
func listPrompts(ctx context.Context, sess *sdk.ClientSession) []*sdk.Prompt {
	if res := sess.InitializeResult(); res == nil || res.Capabilities == nil || res.Capabilities.Prompts == nil {
		return nil
	}
	page := func(cursor string) ([]*sdk.Prompt, string, error) {
		res, err := sess.ListPrompts(ctx, &sdk.ListPromptsParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return res.Prompts, res.NextCursor, nil
	}
	return listPages(page, maxPrompts, func(p *sdk.Prompt) bool { return p != nil && word(p.Name, maxCompletionLen) })
}

// Prompts returns the prompts of the ready servers, in the
// configuration's order: what the chat screen offers as /SERVER:NAME.
func (m *Manager) Prompts() []Prompt {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.promptsLocked()
}

func (m *Manager) promptsLocked() []Prompt {
	var out []Prompt
	for _, s := range m.srv {
		if s.state != Ready {
			continue
		}
		for _, p := range s.prompts {
			pr := Prompt{Command: "/" + s.cfg.Name + ":" + p.Name, Server: s.cfg.Name, Name: p.Name, Description: sanitize.Line(p.Description)}
			for _, a := range p.Arguments {
				if a != nil && word(a.Name, maxCompletionLen) && !strings.Contains(a.Name, "=") {
					pr.Args = append(pr.Args, PromptArg{Name: a.Name, Description: sanitize.Line(a.Description), Required: a.Required})
				}
			}
			out = append(out, pr)
		}
	}
	return out
}

// FindPrompt returns the prompt that line, "/SERVER:NAME args…", uses.
func (m *Manager) FindPrompt(line string) (Prompt, bool) {
	cmd, _, _ := strings.Cut(strings.TrimSpace(line), " ")
	for _, p := range m.Prompts() {
		if p.Command == cmd {
			return p, true
		}
	}
	return Prompt{}, false
}

// ParseArgs reads the arguments typed after a prompt's command:
// NAME=VALUE words, or values alone in the order of the prompt's
// arguments (the last takes the rest of the line). A missing required
// argument, or a name the prompt has not, is an error that shows the usage.
func (p Prompt) ParseArgs(typed string) (map[string]string, error) {
	args := map[string]string{}
	words := strings.Fields(typed)
	next := 0
	for i, w := range words {
		if k, v, ok := strings.Cut(w, "="); ok && k != "" {
			if !slices.ContainsFunc(p.Args, func(a PromptArg) bool { return a.Name == k }) {
				return nil, fmt.Errorf("%s has no argument %q: usage: %s", p.Command, k, p.Usage())
			}
			args[k] = v
			continue
		}
		for next < len(p.Args) && args[p.Args[next].Name] != "" {
			next++
		}
		if next == len(p.Args) {
			return nil, fmt.Errorf("%s takes %d arguments: usage: %s", p.Command, len(p.Args), p.Usage())
		}
		if next == len(p.Args)-1 {
			args[p.Args[next].Name] = strings.Join(words[i:], " ")
			break
		}
		args[p.Args[next].Name] = w
	}
	for _, a := range p.Args {
		if a.Required && args[a.Name] == "" {
			return nil, fmt.Errorf("%s needs %s: usage: %s", p.Command, a.Name, p.Usage())
		}
	}
	return args, nil
}

// GetPrompt gets the prompt p with args from its server, and returns its
// messages' text as one prompt to send (the text of embedded resources
// too; other content named in a note), cut at the output limit.
func (m *Manager) GetPrompt(ctx context.Context, p Prompt, args map[string]string) (string, error) {
	sess, done := m.beginNamed(p.Server)
	defer done()
	if sess == nil {
		return "", fmt.Errorf("the MCP server %s is not running", p.Server)
	}
	ctx, cancel := context.WithTimeout(ctx, m.opts.CallTimeout)
	defer cancel()
	res, err := sess.GetPrompt(ctx, &sdk.GetPromptParams{Name: p.Name, Arguments: args})
	if err != nil {
		return "", fmt.Errorf("the MCP server %s: %w", p.Server, err)
	}
	var parts []string
	for _, msg := range res.Messages {
		if msg == nil {
			continue
		}
		switch c := msg.Content.(type) {
		case *sdk.TextContent:
			parts = append(parts, c.Text)
		case *sdk.EmbeddedResource:
			if c.Resource != nil && c.Resource.Text != "" {
				parts = append(parts, fmt.Sprintf("resource %s:\n%s", c.Resource.URI, c.Resource.Text))
			} else if c.Resource != nil {
				parts = append(parts, fmt.Sprintf("[resource %s: %s of %s data, not sent]", c.Resource.URI, size(len(c.Resource.Blob)), cmpOr(c.Resource.MIMEType, "binary")))
			}
		case *sdk.ResourceLink:
			parts = append(parts, link(c.Name, c.URI, c.Description))
		default:
			parts = append(parts, "[content of a kind muse does not send in a prompt]")
		}
	}
	text := strings.TrimSpace(cut(strings.Join(parts, "\n\n"), m.opts.MaxOutput))
	if text == "" {
		return "", errors.New("the prompt " + p.Command + " has no text")
	}
	return text, nil
}

// CompletePrompt returns the completions of value, a prompt's command
// being typed: the commands of prompts that start with it ("/ev:" gives
// every prompt of ev), each followed by a space; once the command is
// whole and a space typed, its arguments not given yet that start as the
// word typed, as "NAME=". It is data for a completion menu: no I/O (an
// argument's value is completed by its server: CompleteArg).
func CompletePrompt(prompts []Prompt, value string) []string {
	cmd, rest, spaced := strings.Cut(value, " ")
	var out []string
	for _, p := range prompts {
		switch {
		case !spaced && strings.HasPrefix(p.Command, cmd):
			out = append(out, p.Command+" ")
		case spaced && p.Command == cmd:
			// The word being typed: an argument's name, or a value
			// (after '=', which its server completes: CompleteArg).
			last := rest[strings.LastIndexAny(rest, " ")+1:]
			if strings.Contains(last, "=") {
				continue
			}
			for _, a := range p.Args {
				if strings.HasPrefix(a.Name, last) && !strings.Contains(" "+rest, " "+a.Name+"=") {
					out = append(out, value[:len(value)-len(last)]+a.Name+"=")
				}
			}
		}
	}
	return out
}
