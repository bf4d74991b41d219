package config

import (
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"muse/api"
	themes "muse/theme"
)

// profileKeys reads each setting of a [profiles.NAME] table into a Profile.
var profileKeys = map[string]func(p *Profile, v value){
	"base_url":               text(func(p *Profile) *string { return &p.BaseURL }, httpURL),
	"access_token_env":       text(func(p *Profile) *string { return &p.AccessTokenEnv }, envName),
	"access_token_cmd":       text(func(p *Profile) *string { return &p.AccessTokenCmd }, shellCommand),
	"api_key_env":            text(func(p *Profile) *string { return &p.APIKeyEnv }, envName),
	"api_key_cmd":            text(func(p *Profile) *string { return &p.APIKeyCmd }, shellCommand),
	"provider_version":       text(func(p *Profile) *string { return &p.ProviderVersion }, headerValue),
	"version_header":         text(func(p *Profile) *string { return &p.VersionHeader }, headerName),
	"image_base_url":         text(func(p *Profile) *string { return &p.ImageBaseURL }, httpURL),
	"image_api":              text(func(p *Profile) *string { return &p.ImageAPI }, oneOf(api.ImageAPIs...)),
	"image_access_token_env": text(func(p *Profile) *string { return &p.ImageAccessTokenEnv }, envName),
	"image_access_token_cmd": text(func(p *Profile) *string { return &p.ImageAccessTokenCmd }, shellCommand),
	"image_quality":          text(func(p *Profile) *string { return &p.ImageQuality }, oneOf("low", "medium", "high", "auto", "standard", "hd")),
	"image_background":       text(func(p *Profile) *string { return &p.ImageBackground }, oneOf("transparent", "opaque", "auto")),
	"image_output_format":    text(func(p *Profile) *string { return &p.ImageOutputFormat }, oneOf("png", "jpeg", "webp")),
	"model":                  text(func(p *Profile) *string { return &p.Model }, nonEmpty),
	"image_model":            text(func(p *Profile) *string { return &p.ImageModel }, nonEmpty),
	"system":                 text(func(p *Profile) *string { return &p.System }, nil),
	"user_id":                text(func(p *Profile) *string { return &p.UserID }, nil),
	"theme":                  text(func(p *Profile) *string { return &p.Theme }, theme),
	"notify":                 text(func(p *Profile) *string { return &p.Notify }, notify),
	"image_size":             text(func(p *Profile) *string { return &p.ImageSize }, imageSize),
	"negative_prompt":        text(func(p *Profile) *string { return &p.NegativePrompt }, nil),
	"thinking":               text(func(p *Profile) *string { return &p.Thinking }, oneOf("adaptive")),
	"effort":                 text(func(p *Profile) *string { return &p.Effort }, oneOf(api.Efforts...)),
	"max_tokens":             whole(func(p *Profile) **int { return &p.MaxTokens }, 1),
	"top_k":                  whole(func(p *Profile) **int { return &p.TopK }, 1),
	"thinking_budget":        whole(func(p *Profile) **int { return &p.ThinkingBudget }, 1024),
	"max_tool_rounds":        whole(func(p *Profile) **int { return &p.MaxToolRounds }, 1),
	"context_window":         whole(func(p *Profile) **int { return &p.ContextWindow }, 1),
	"price_input":            price(func(p *Profile) *float64 { return &p.PriceInput }),
	"price_output":           price(func(p *Profile) *float64 { return &p.PriceOutput }),
	"price_cache_read":       price(func(p *Profile) *float64 { return &p.PriceCacheRead }),
	"price_cache_write":      price(func(p *Profile) *float64 { return &p.PriceCacheWrite }),
	"temperature":            fraction(func(p *Profile) **float64 { return &p.Temperature }),
	"top_p":                  fraction(func(p *Profile) **float64 { return &p.TopP }),
	"prompt_extend":          flag(func(p *Profile) **bool { return &p.PromptExtend }),
	"watermark":              flag(func(p *Profile) **bool { return &p.Watermark }),
	"save":                   flag(func(p *Profile) **bool { return &p.Save }),
	"auto_compact":           flag(func(p *Profile) **bool { return &p.AutoCompact }),
	"mouse":                  flag(func(p *Profile) **bool { return &p.Mouse }),
	"mcp_expand_env":         flag(func(p *Profile) **bool { return &p.MCPExpandEnv }),
	"mcp_roots":              flag(func(p *Profile) **bool { return &p.MCPRoots }),
	"allow_insecure_http":    flag(func(p *Profile) **bool { return &p.AllowInsecureHTTP }),
	"tool_timeout":           timeout(func(p *Profile) *time.Duration { return &p.ToolTimeout }, MaxToolTimeout),
	"credential_timeout":     timeout(func(p *Profile) *time.Duration { return &p.CredentialTimeout }, maxCredentialTimeout),
	"request_timeout":        timeout(func(p *Profile) *time.Duration { return &p.RequestTimeout }, MaxRequestTimeout),
	"stall_timeout":          timeout(func(p *Profile) *time.Duration { return &p.StallTimeout }, MaxRequestTimeout),
	"sync":                   text(func(p *Profile) *string { return &p.Sync }, syncMode),
	"sync_images":            flag(func(p *Profile) **bool { return &p.SyncImages }),
	"sync_key_cmd":           text(func(p *Profile) *string { return &p.SyncKeyCmd }, shellCommand),
	"stop_sequences":         stopSequences,
	"keys":                   func(p *Profile, v value) { p.Keys = v.keys() },
	"tools":                  func(p *Profile, v value) { p.Tools = v.tools() },
	"mcp":                    func(p *Profile, v value) { p.MCP = v.mcp() },
}

// profileKeyNames lists the keys of a profile, for suggestions.
var profileKeyNames = sortedKeys(profileKeys)

// ProfileKeys lists every key a [profiles.NAME] table may set, sorted, so
// that the help can be checked against it.
func ProfileKeys() []string { return slices.Clone(profileKeyNames) }

// readProfile reads one [profiles.NAME] table, which starts at line.
func (l *loader) readProfile(name string, line int, t *tomlTable) *Profile {
	p := &Profile{Name: name}
	l.profile = name
	header := "[profiles." + tableKey(name) + "]"
	base := value{l: l, line: line, name: header, v: t}
	for _, k := range t.keys {
		v := base.child(t, k.name)
		switch set, ok := profileKeys[k.name]; {
		case ok:
			set(p, v)
		case credential(k.name) != "" && !isTable(k.val):
			v.credential()
		case l.wants(v.line):
			v.unknown(k.name, "in "+header, suggest(k.name, profileKeyNames))
		}
	}
	if p.ThinkingBudget != nil && p.Thinking != "" {
		base.child(t, "thinking").fail(`and thinking_budget are two forms of thinking: keep thinking = "adaptive" (current models) or thinking_budget (older ones), not both`)
		p.Thinking = ""
	}
	if p.ThinkingBudget != nil && p.MaxTokens != nil && *p.ThinkingBudget >= *p.MaxTokens {
		base.child(t, "thinking_budget").fail("must be less than max_tokens (%d), got %d", *p.MaxTokens, *p.ThinkingBudget)
		p.ThinkingBudget = nil
	}
	return p
}

// text reads a string setting; check, when not nil, returns what is wrong
// with it, or "".
func text(get func(*Profile) *string, check func(string) string) func(*Profile, value) {
	return func(p *Profile, v value) {
		s, ok := v.str()
		if !ok {
			return
		}
		if check != nil {
			if msg := check(s); msg != "" {
				v.fail("%s", msg)
				return
			}
		}
		*get(p) = s
	}
}

// whole reads an integer setting of at least lo.
func whole(get func(*Profile) **int, lo int) func(*Profile, value) {
	return func(p *Profile, v value) {
		n, ok := v.integer()
		if !ok {
			return
		}
		if n < lo {
			v.fail("must be at least %d, got %d", lo, n)
			return
		}
		*get(p) = &n
	}
}

// price reads a price in dollars per million tokens: a number, 0 or more.
func price(get func(*Profile) *float64) func(*Profile, value) {
	return func(p *Profile, v value) {
		f, ok := v.float()
		if !ok {
			return
		}
		if !(f >= 0 && f < 1e6) {
			v.fail("must be dollars per million tokens, 0 or more, got %v", f)
			return
		}
		*get(p) = f
	}
}

// fraction reads a number setting between 0 and 1.
func fraction(get func(*Profile) **float64) func(*Profile, value) {
	return func(p *Profile, v value) {
		f, ok := v.float()
		if !ok {
			return
		}
		if !(f >= 0 && f <= 1) {
			v.fail("must be between 0 and 1, got %v", f)
			return
		}
		*get(p) = &f
	}
}

// timeout reads a duration setting, such as "30s", above 0 and at most most.
func timeout(get func(*Profile) *time.Duration, most time.Duration) func(*Profile, value) {
	return func(p *Profile, v value) {
		if d, ok := v.duration(most); ok {
			*get(p) = d
		}
	}
}

// flag reads a boolean setting.
func flag(get func(*Profile) **bool) func(*Profile, value) {
	return func(p *Profile, v value) {
		if b, ok := v.boolean(); ok {
			*get(p) = &b
		}
	}
}

// stopSequences reads stop_sequences: a list of non-empty strings.
func stopSequences(p *Profile, v value) {
	seqs, ok := v.strs(`["\n\nHuman:"]`)
	if !ok {
		return
	}
	for i, s := range seqs {
		if strings.TrimSpace(s) == "" {
			v.l.errorf(int(v.v.(*tomlArray).elems[i].line), "stop_sequences item %d must not be empty or only white space", i+1)
			return
		}
	}
	p.StopSequences = seqs
}

func nonEmpty(s string) string {
	if strings.TrimSpace(s) == "" {
		return "must not be empty"
	}
	return ""
}

// httpURL checks an http(s) address. An address with a user name or
// password in it is refused without being repeated.
func httpURL(s string) string {
	u, err := url.Parse(s)
	if err == nil && u.User != nil {
		return "must not hold a user name or password: use access_token_env or api_key_env"
	}
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "must be an http(s) address such as \"https://llm.example.com\", got " + quote(s)
	}
	return ""
}

var envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// envName checks the name of an environment variable. The value is not
// repeated: a secret pasted here by mistake must not reach the screen.
func envName(s string) string {
	if !envNameRE.MatchString(s) {
		return "must name an environment variable such as WORK_TOKEN (letters, digits and _), not hold the secret itself"
	}
	return ""
}

func shellCommand(s string) string {
	if strings.TrimSpace(s) == "" {
		return `must be a shell command such as "pass show llm/token", got an empty string`
	}
	return ""
}

// headerValue checks a value sent as an HTTP header.
func headerValue(s string) string {
	if msg := nonEmpty(s); msg != "" {
		return msg
	}
	if strings.ContainsFunc(s, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f }) {
		return "must not contain control characters, got " + quote(s)
	}
	return ""
}

// headerName checks an HTTP header name: one or more token characters
// (RFC 9110, section 5.6.2).
func headerName(s string) string {
	ok := s != ""
	for i := 0; ok && i < len(s); i++ {
		c := s[i]
		ok = isBare(c) || c < 0x80 && strings.IndexByte("!#$%&'*+.^`|~", c) >= 0
	}
	if !ok {
		return `must be an HTTP header name such as "anthropic-version", got ` + quote(s)
	}
	return ""
}

// theme checks the name of a theme, or the path of a theme file, which
// is read when muse starts (and refused then with its line).
func theme(s string) string {
	if !themes.IsFile(s) && !slices.Contains(themes.Names(), s) {
		return "must be one of " + strings.Join(themes.Names(), ", ") + ", or the path of a theme file (.toml); got " + quote(s)
	}
	return ""
}

// oneOf checks a setting that takes one of a few words.
func oneOf(words ...string) func(string) string {
	return func(s string) string {
		if !slices.Contains(words, s) {
			return "must be " + strings.Join(words, ", ") + "; got " + quote(s) + suggest(s, words)
		}
		return ""
	}
}

// NotifyModes are the values of notify: how the chat screen tells a
// terminal out of focus that a long reply or image is ready.
var NotifyModes = []string{"off", "bell", "osc9", "osc777"}

// notify checks a notify mode.
func notify(s string) string {
	if !slices.Contains(NotifyModes, s) {
		return "must be one of " + strings.Join(NotifyModes, ", ") + ", got " + quote(s)
	}
	return ""
}

// SyncModes are the values of sync: "auto" syncs in the background,
// "manual" only when muse sync is run.
var SyncModes = []string{"auto", "manual"}

// syncMode checks a sync setting.
func syncMode(s string) string {
	if !slices.Contains(SyncModes, s) {
		return "must be one of " + strings.Join(SyncModes, ", ") + ", got " + quote(s)
	}
	return ""
}

// imageSize checks WIDTH*HEIGHT with positive numbers.
func imageSize(s string) string {
	w, h, ok := strings.Cut(s, "*")
	if ok {
		wn, err1 := strconv.Atoi(w)
		hn, err2 := strconv.Atoi(h)
		ok = err1 == nil && err2 == nil && wn > 0 && hn > 0
	}
	if !ok {
		return `must be WIDTH*HEIGHT with positive numbers such as "1024*1024", got ` + quote(s)
	}
	return ""
}
