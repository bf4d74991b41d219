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

// What a server's answer to completion/complete may put into the input
// and its menu: the rest is left out, with a note saying so.
const (
	// maxCompletions is how many values of one completion are offered, as
	// many as the protocol lets a server send.
	maxCompletions = 100
	// maxCompletionLen bounds one value, a word typed on the command line.
	maxCompletionLen = 256
	// maxCompleteErr bounds the server's error message in a note.
	maxCompleteErr = 300
)

// CompleteArg returns, when value is a prompt's command with an argument's
// value being typed last ("/ev:completable-prompt department=En"), a
// function that asks the prompt's server to complete it
// (completion/complete, the arguments typed before as its context) and
// returns the input's values with each option in, a space after it. It
// returns nil when value is not that, or the server declared no
// completions: the function does the I/O, to be run in a command.
//
// At most maxCompletions values are offered, each one word of plain text
// (sanitize.Line leaves it as it is) of at most maxCompletionLen bytes;
// when the server sent others, the function returns the values offered
// and an error that is a note saying what was left out.
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
			return nil, fmt.Errorf("the MCP server %s did not complete %s: %s", p.Server, name, cut(err.Error(), maxCompleteErr))
		}
		return offered(res.Completion.Values, head, p.Server)
	}
}

// offered returns the values a server sent that can be offered, each with
// head before it and a space after it, and a note on those left out.
func offered(values []string, head, server string) ([]string, error) {
	var out []string
	long, odd := 0, 0
	for i, v := range values {
		// A value the command line cannot hold as one word, or that
		// would show other than it is, is not offered.
		switch {
		case len(out) == maxCompletions:
			return out, leftOut(server, len(values)-i, long, odd)
		case len(v) > maxCompletionLen:
			long++
		case !word(v, maxCompletionLen):
			odd++
		default:
			out = append(out, head+v+" ")
		}
	}
	return out, leftOut(server, 0, long, odd)
}

// word reports whether a server's v can go into the input as one word of
// at most limit bytes that shows as it is: a completion's value, a
// prompt's or an argument's name, a resource's URI.
func word(v string, limit int) bool {
	return v != "" && len(v) <= limit && !strings.ContainsAny(v, " \t\n") && sanitize.Line(v) == v
}

// maxURI bounds a resource's URI, which a mention holds.
const maxURI = 2048

// leftOut is the note on the values of a completion that are not offered:
// more than maxCompletions, longer than maxCompletionLen, or not one word
// of plain text; nil when there are none.
func leftOut(server string, more, long, odd int) error {
	var parts []string
	if more > 0 {
		parts = append(parts, fmt.Sprintf("%d past the first %d", more, maxCompletions))
	}
	if long > 0 {
		parts = append(parts, fmt.Sprintf("%d over %d bytes", long, maxCompletionLen))
	}
	if odd > 0 {
		parts = append(parts, fmt.Sprintf("%d not one word of plain text", odd))
	}
	if parts == nil {
		return nil
	}
	return fmt.Errorf("the MCP server %s sent completions that are not offered: %s", server, strings.Join(parts, ", "))
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
