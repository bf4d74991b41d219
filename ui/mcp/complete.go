package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"muse/ui/sanitize"
)

// completeTimeout bounds a server's answer to completion/complete: a Tab
// that waits longer is not worth it.
const completeTimeout = 5 * time.Second

// maxCompletions is how many values of one completion are offered, as many
// as the protocol lets a server send.
const maxCompletions = 100

// CompleteArg returns, when value is a prompt's command with an argument's
// value being typed last ("/ev:completable-prompt department=En"), a
// function that asks the prompt's server to complete it
// (completion/complete, the arguments typed before as its context) and
// returns the input's values with each option in, a space after it. It
// returns nil when value is not that, or the server declared no
// completions: the function does the I/O, to be run in a command.
func (m *Manager) CompleteArg(value string) func() ([]string, error) {
	cmd, rest, spaced := strings.Cut(value, " ")
	if !spaced || rest == "" || strings.HasSuffix(rest, " ") || strings.Contains(value, "\n") {
		return nil
	}
	p, ok := m.FindPrompt(cmd)
	if !ok {
		return nil
	}
	words := strings.Fields(rest)
	name, typed, ok := strings.Cut(words[len(words)-1], "=")
	if !ok || !p.hasArg(name) {
		return nil
	}
	given := map[string]string{}
	for _, w := range words[:len(words)-1] {
		if k, v, ok := strings.Cut(w, "="); ok && p.hasArg(k) {
			given[k] = v
		}
	}
	m.mu.Lock()
	var sess *sdk.ClientSession
	if s := m.find(p.Server); s != nil && s.state == Ready {
		sess = s.session
	}
	m.mu.Unlock()
	if sess == nil {
		return nil
	}
	if res := sess.InitializeResult(); res == nil || res.Capabilities == nil || res.Capabilities.Completions == nil {
		return nil
	}
	head := value[:len(value)-len(typed)]
	return func() ([]string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), completeTimeout)
		defer cancel()
		params := &sdk.CompleteParams{
			Ref:      &sdk.CompleteReference{Type: "ref/prompt", Name: p.Name},
			Argument: sdk.CompleteParamsArgument{Name: name, Value: typed},
		}
		if len(given) > 0 {
			params.Context = &sdk.CompleteContext{Arguments: given}
		}
		res, err := sess.Complete(ctx, params)
		if err != nil {
			return nil, fmt.Errorf("the MCP server %s did not complete %s: %w", p.Server, name, err)
		}
		var out []string
		for _, v := range res.Completion.Values {
			// A value the command line cannot hold as one word, or that
			// would show other than it is, is not offered.
			if v == "" || strings.ContainsAny(v, " \t\n") || sanitize.Line(v) != v || len(out) == maxCompletions {
				continue
			}
			out = append(out, head+v+" ")
		}
		return out, nil
	}
}

// hasArg reports whether p has an argument called name.
func (p Prompt) hasArg(name string) bool {
	for _, a := range p.Args {
		if a.Name == name {
			return true
		}
	}
	return false
}
