package config

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"muse/api"
)

// Show writes the profile's effective settings to w as TOML-like lines, one
// per setting that is set, with the profile name in a comment. The names of
// environment variables and commands are shown, since they are not secrets;
// any value under a name that looks like a token, key or password is shown
// as "****".
func Show(p *Profile, w io.Writer) {
	if p == nil {
		fmt.Fprintln(w, "# no profile selected")
		return
	}
	fmt.Fprintf(w, "# profile %s\n", quote(p.Name))
	for _, s := range []struct{ k, v string }{
		{"base_url", api.RedactURL(p.BaseURL)},
		{"access_token_env", p.AccessTokenEnv},
		{"access_token_cmd", p.AccessTokenCmd},
		{"api_key_env", p.APIKeyEnv},
		{"api_key_cmd", p.APIKeyCmd},
		{"provider_version", p.ProviderVersion},
		{"version_header", p.VersionHeader},
		{"image_base_url", api.RedactURL(p.ImageBaseURL)},
		{"image_api", p.ImageAPI},
		{"image_access_token_env", p.ImageAccessTokenEnv},
		{"image_access_token_cmd", p.ImageAccessTokenCmd},
		{"image_quality", p.ImageQuality},
		{"image_background", p.ImageBackground},
		{"image_output_format", p.ImageOutputFormat},
		{"model", p.Model},
		{"image_model", p.ImageModel},
		{"system", p.System},
		{"user_id", p.UserID},
		{"theme", p.Theme},
		{"notify", p.Notify},
		{"image_size", p.ImageSize},
		{"negative_prompt", p.NegativePrompt},
		{"thinking", p.Thinking},
		{"effort", p.Effort},
		{"sync", p.Sync},
		{"sync_key_cmd", p.SyncKeyCmd},
	} {
		if s.v != "" {
			showLine(w, s.k, strconv.Quote(s.v))
		}
	}
	for _, s := range []struct {
		k string
		v *int
	}{
		{"max_tokens", p.MaxTokens},
		{"top_k", p.TopK},
		{"thinking_budget", p.ThinkingBudget},
		{"max_tool_rounds", p.MaxToolRounds},
		{"context_window", p.ContextWindow},
		{"stall_size", p.StallSize},
	} {
		if s.v != nil {
			showLine(w, s.k, strconv.Itoa(*s.v))
		}
	}
	for _, s := range []struct {
		k string
		v *float64
	}{{"temperature", p.Temperature}, {"top_p", p.TopP}} {
		if s.v != nil {
			showLine(w, s.k, strconv.FormatFloat(*s.v, 'g', -1, 64))
		}
	}
	for _, s := range []struct {
		k string
		v float64
	}{{"price_input", p.PriceInput}, {"price_output", p.PriceOutput}, {"price_cache_read", p.PriceCacheRead}, {"price_cache_write", p.PriceCacheWrite}} {
		if s.v != 0 {
			showLine(w, s.k, strconv.FormatFloat(s.v, 'g', -1, 64))
		}
	}
	for _, s := range []struct {
		k string
		v *bool
	}{{"prompt_extend", p.PromptExtend}, {"watermark", p.Watermark}, {"save", p.Save}, {"auto_compact", p.AutoCompact}, {"mouse", p.Mouse}, {"mcp_expand_env", p.MCPExpandEnv}, {"mcp_roots", p.MCPRoots}, {"allow_insecure_http", p.AllowInsecureHTTP}, {"sync_images", p.SyncImages}} {
		if s.v != nil {
			showLine(w, s.k, strconv.FormatBool(*s.v))
		}
	}
	for _, s := range []struct {
		k string
		v time.Duration
	}{{"tool_timeout", p.ToolTimeout}, {"credential_timeout", p.CredentialTimeout},
		{"request_timeout", p.RequestTimeout}, {"stall_timeout", p.StallTimeout}} {
		if s.v != 0 {
			showLine(w, s.k, strconv.Quote(shortDuration(s.v)))
		}
	}
	if p.StopSequences != nil {
		showLine(w, "stop_sequences", quoteList(p.StopSequences))
	}
	if len(p.Keys) > 0 {
		fmt.Fprintln(w, "[keys]")
		for _, action := range sortedKeys(p.Keys) {
			fmt.Fprintf(w, "%s = %s\n", tableKey(action), quoteList(p.Keys[action]))
		}
	}
	for _, t := range p.Tools {
		fmt.Fprintln(w, "[[tools]]")
		showLine(w, "name", strconv.Quote(t.Name))
		if t.Description != "" {
			showLine(w, "description", strconv.Quote(t.Description))
		}
		showLine(w, "input_schema", strconv.Quote(string(t.InputSchema)))
		if t.Command != nil {
			showLine(w, "command", quoteList(t.Command))
		}
	}
	for _, s := range p.MCP {
		fmt.Fprintf(w, "[mcp.%s]\n", tableKey(s.Name))
		for _, kv := range []struct{ k, v string }{{"type", s.Type}, {"command", s.Command}, {"cwd", s.Cwd}, {"url", s.URL}, {"token_env", s.TokenEnv}, {"token_cmd", s.TokenCmd}} {
			if kv.v != "" {
				showLine(w, kv.k, strconv.Quote(kv.v))
			}
		}
		for _, kv := range []struct {
			k string
			v []string
		}{{"args", s.Args}, {"allow", s.Allow}} {
			if kv.v != nil {
				showLine(w, kv.k, quoteList(kv.v))
			}
		}
		for _, kv := range []struct {
			k string
			v map[string]string
		}{{"env", s.Env}, {"headers", s.Headers}} {
			if len(kv.v) > 0 {
				// Values of env and headers may be anything: shown as keys only.
				showLine(w, kv.k, quoteList(sortedKeys(kv.v)))
			}
		}
	}
}

// showLine writes "name = value", masking the value when the name looks like
// a secret's.
func showLine(w io.Writer, name, value string) {
	if secretName(name) {
		value = `"****"`
	}
	fmt.Fprintf(w, "%s = %s\n", name, value)
}

// secretName reports whether a setting's name looks like it holds a secret:
// one of its words is token, key, secret, password and the like. Names
// ending in _env or _cmd say where to find a secret, one ending in _timeout
// how long to wait for it, and a count such as max_tokens is none.
func secretName(name string) bool {
	n := strings.ToLower(strings.ReplaceAll(name, "-", "_"))
	if strings.HasSuffix(n, "_env") || strings.HasSuffix(n, "_cmd") || strings.HasSuffix(n, "_timeout") {
		return false
	}
	for _, w := range strings.Split(n, "_") {
		switch w {
		case "token", "key", "apikey", "secret", "password", "passwd", "credential", "bearer", "auth":
			return true
		}
	}
	return false
}

// quoteList writes strings as a TOML array.
func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
