package cli

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"muse/api"
	"muse/session"
	"muse/ui/slash"
)

// everyAPIError is an error of each kind whose hint differs: every status
// the hint looks at, and a 400 that names each setting muse knows.
func everyAPIError() []*api.APIError {
	es := []*api.APIError{
		{Status: 401}, {Status: 403}, {Status: 404, URL: "http://127.0.0.1:1/v1/messages"}, {Status: 404, Type: "not_found_error"},
		{Status: 429}, {Status: 529}, {Status: 500}, {Status: 502}, {Status: 200, Type: "overloaded_error"},
		{Status: 200, Type: "stream_error"}, {Status: 418}, {Status: 400, Message: "nothing muse knows"},
	}
	for _, msg := range []string{"adaptive thinking needs output_config.effort", "thinking.type: Input tag 'adaptive'", "budget_tokens is not allowed",
		"effort is not allowed", "output_config is not allowed", "thinking is not allowed", "temperature is not allowed",
		"top_p is not allowed", "top_k is not allowed", "max_tokens: 100000 > 8192"} {
		es = append(es, &api.APIError{Status: 400, Type: "invalid_request_error", Message: msg})
	}
	return es
}

var (
	slashCommandRE = regexp.MustCompile(`(?:^|[\s(])(/[a-z][a-z-]*)(?:$|[\s,.):])`)
	longFlagRE     = regexp.MustCompile(`(?:^|[\s(])--([a-z][a-z-]*)`)
)

// TestHintsWorkWhereTheyArePasted checks every hint an API error gives,
// on both surfaces: the chat screen's (Hint, saved in the error entry the
// screen shows) names only slash commands muse has, and a shell's
// (ShellHint, which -p, muse image and muse doctor print) names no slash
// command, which a shell cannot run, and only flags of muse.
func TestHintsWorkWhereTheyArePasted(t *testing.T) {
	help := strings.Join(slash.HelpLines(), "\n")
	fs := pflag.NewFlagSet("muse", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addRootFlags(fs, &flags{})
	addGlobalFlags(fs, &flags{})
	retries := 0
	for _, e := range everyAPIError() {
		chat, shell := e.Hint(), e.ShellHint()
		if chat == "" || shell == "" {
			t.Errorf("%v: no hint: %q / %q", e, chat, shell)
		}
		if got := session.ErrorEntry(e).Error.Hint; got != chat {
			t.Errorf("%v: the chat screen's error entry says %q, not the chat hint %q", e, got, chat)
		}
		for _, m := range slashCommandRE.FindAllStringSubmatch(chat, -1) {
			if !strings.Contains(help, "\n"+m[1]+" ") && !strings.HasPrefix(help, m[1]+" ") {
				t.Errorf("%v: the chat hint %q names %s, which is no slash command", e, chat, m[1])
			}
		}
		if m := slashCommandRE.FindStringSubmatch(shell); m != nil {
			t.Errorf("%v: the shell hint %q names the slash command %s", e, shell, m[1])
		}
		for _, m := range longFlagRE.FindAllStringSubmatch(shell, -1) {
			if fs.Lookup(m[1]) == nil {
				t.Errorf("%v: the shell hint %q names --%s, which is no flag", e, shell, m[1])
			}
		}
		if strings.Contains(chat, "/retry") {
			retries++
			if !strings.Contains(shell, "run the same command again") {
				t.Errorf("%v: the chat hint says /retry, the shell hint %q does not say to run the command again", e, shell)
			}
		}
	}
	if retries == 0 {
		t.Fatal("no hint says /retry: the check of its shell form checked nothing")
	}
}

// TestPrintHintsAreForAShell runs -p against servers that fail, as the
// binary does, and checks what it prints: a hint in a shell's words after
// every error, never a slash command.
func TestPrintHintsAreForAShell(t *testing.T) {
	for _, c := range []struct {
		status int
		body   string
		want   string
	}{
		{529, `{"type":"error","error":{"type":"overloaded_error","message":"busy"}}`, "run the same command again in a moment"},
		{500, `{"type":"error","error":{"type":"api_error","message":"boom"}}`, "server error: run the same command again"},
		{429, `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`, "wait a moment, then run the same command again"},
		{400, `{"type":"error","error":{"type":"invalid_request_error","message":"temperature is not supported"}}`, "leave out --temperature"},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("x-should-retry", "false") // fail at once: no wait
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(c.status)
			io.WriteString(w, c.body)
		}))
		env := map[string]string{"MUSE_BASE_URL": srv.URL, "MUSE_MODEL": "m", "MUSE_API_KEY": "k"}
		r := runMain(t, env, "", "-p", "hi")
		srv.Close()
		if r.code != ExitFailed || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%d: exit %d, stderr %q, want the hint %q", c.status, r.code, r.stderr, c.want)
		}
		if m := slashCommandRE.FindStringSubmatch(r.stderr); m != nil {
			t.Errorf("%d: -p names the slash command %s: %q", c.status, m[1], r.stderr)
		}
	}
}

// TestRefusedRequestHintsOnBothSurfaces checks the hints of the requests
// muse refuses before sending them: thinking with a forced tool, a request
// over the service's size limit, too many images. On the chat screen
// (Error) each names slash commands muse has; in a shell (api.ShellText,
// which -p prints) the same problem, and flags of muse, never a slash
// command.
func TestRefusedRequestHintsOnBothSurfaces(t *testing.T) {
	help := strings.Join(slash.HelpLines(), "\n")
	fs := pflag.NewFlagSet("muse", pflag.ContinueOnError)
	addRootFlags(fs, &flags{})
	addGlobalFlags(fs, &flags{})
	tool := api.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`)}
	forced := api.MessageRequest{Model: "m", MaxTokens: 10, Messages: []api.MessageParam{api.TextMessage(api.RoleUser, "hi")},
		Tools: []api.Tool{tool}, ToolChoice: &api.ToolChoice{Type: "any"}, Thinking: &api.Thinking{Type: api.ThinkingAdaptive}}
	big := api.MessageRequest{Model: "m", MaxTokens: 10, Messages: []api.MessageParam{api.TextMessage(api.RoleUser, "hi")},
		Tools: []api.Tool{{Name: "t", Description: strings.Repeat("d", api.MaxRequestBytes), InputSchema: tool.InputSchema}}}
	images := make([]api.ContentBlock, api.MaxMedia+1)
	for i := range images {
		images[i] = api.ContentBlock{Type: api.BlockImage}
	}
	for _, c := range []struct {
		name        string
		err         error
		chat, shell string
	}{
		{"forced tool", forced.Validate(), "/tool-choice auto or /thinking off", "--tool-choice auto or --thinking off"},
		{"too large", big.Validate(), "new session (/clear)", "run it without -c or -r, in a new session, or offer fewer or smaller tools (--tools"},
		{"too many images", api.CheckMedia([]api.MessageParam{{Role: api.RoleUser, Blocks: images}}), "/detach some", "run it without -c or -r"},
	} {
		if c.err == nil {
			t.Fatalf("%s: not refused", c.name)
		}
		chat, shell := c.err.Error(), api.ShellText(c.err)
		if !strings.Contains(chat, c.chat) || !strings.Contains(shell, c.shell) {
			t.Errorf("%s: chat %q, shell %q", c.name, chat, shell)
		}
		if c.name != "too many images" && !errors.Is(c.err, api.ErrInvalidRequest) {
			t.Errorf("%s: not an invalid request: %v", c.name, c.err)
		}
		for _, m := range slashCommandRE.FindAllStringSubmatch(chat, -1) {
			if !strings.Contains(help, "\n"+m[1]+" ") && !strings.HasPrefix(help, m[1]+" ") {
				t.Errorf("%s: %q names %s, which is no slash command", c.name, chat, m[1])
			}
		}
		if m := slashCommandRE.FindStringSubmatch(shell); m != nil {
			t.Errorf("%s: the shell's %q names the slash command %s", c.name, shell, m[1])
		}
		for _, m := range longFlagRE.FindAllStringSubmatch(shell, -1) {
			if fs.Lookup(m[1]) == nil {
				t.Errorf("%s: the shell's %q names --%s, which is no flag", c.name, shell, m[1])
			}
		}
	}

	// -p prints the shell's form.
	dir := t.TempDir()
	tools := filepath.Join(dir, "tools.json")
	if err := os.WriteFile(tools, []byte(`[{"name":"t","description":"d","input_schema":{"type":"object"},"command":["true"]}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"MUSE_BASE_URL": "http://127.0.0.1:1", "MUSE_MODEL": "m", "MUSE_API_KEY": "k"}
	r := runMain(t, env, "", "-p", "hi", "--tools", tools, "--tool-choice", "any", "--thinking", "adaptive")
	if r.code != ExitUsage || !strings.Contains(r.stderr, "use --tool-choice auto or --thinking off") || slashCommandRE.MatchString(r.stderr) {
		t.Errorf("-p: exit %d, stderr %q", r.code, r.stderr)
	}
}
