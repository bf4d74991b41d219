package config

import (
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"muse/api"
	themes "muse/theme"
	"muse/ui/mcp/mcpcfg"
	"muse/ui/tomlfile"
)

// fileTOML is the configuration file as written: what ui/tomlfile decodes
// it into, refusing keys it has no field for. Pointer fields are nil when
// the file does not set them.
type fileTOML struct {
	DefaultProfile *string                 `toml:"default_profile"`
	Profiles       map[string]*profileTOML `toml:"profiles" expect:"a table of [profiles.NAME] tables"`
}

// profileTOML is one [profiles.NAME] table as written.
type profileTOML struct {
	BaseURL             *string `toml:"base_url"`
	AccessTokenEnv      *string `toml:"access_token_env"`
	AccessTokenCmd      *string `toml:"access_token_cmd"`
	APIKeyEnv           *string `toml:"api_key_env"`
	APIKeyCmd           *string `toml:"api_key_cmd"`
	ProviderVersion     *string `toml:"provider_version"`
	VersionHeader       *string `toml:"version_header"`
	ImageBaseURL        *string `toml:"image_base_url"`
	ImageAPI            *string `toml:"image_api"`
	ImageAccessTokenEnv *string `toml:"image_access_token_env"`
	ImageAccessTokenCmd *string `toml:"image_access_token_cmd"`
	ImageQuality        *string `toml:"image_quality"`
	ImageBackground     *string `toml:"image_background"`
	ImageOutputFormat   *string `toml:"image_output_format"`
	Model               *string `toml:"model"`
	ImageModel          *string `toml:"image_model"`
	System              *string `toml:"system"`
	UserID              *string `toml:"user_id"`
	Theme               *string `toml:"theme"`
	Notify              *string `toml:"notify"`
	ImageSize           *string `toml:"image_size"`
	NegativePrompt      *string `toml:"negative_prompt"`
	Thinking            *string `toml:"thinking"`
	Effort              *string `toml:"effort"`
	Sync                *string `toml:"sync"`
	SyncKeyCmd          *string `toml:"sync_key_cmd"`

	MaxTokens      *int `toml:"max_tokens"`
	TopK           *int `toml:"top_k"`
	ThinkingBudget *int `toml:"thinking_budget"`
	MaxToolRounds  *int `toml:"max_tool_rounds"`
	ContextWindow  *int `toml:"context_window"`
	StallSize      *int `toml:"stall_size"`

	PriceInput      *float64 `toml:"price_input"`
	PriceOutput     *float64 `toml:"price_output"`
	PriceCacheRead  *float64 `toml:"price_cache_read"`
	PriceCacheWrite *float64 `toml:"price_cache_write"`
	Temperature     *float64 `toml:"temperature"`
	TopP            *float64 `toml:"top_p"`

	PromptExtend      *bool `toml:"prompt_extend"`
	Watermark         *bool `toml:"watermark"`
	Save              *bool `toml:"save"`
	AutoCompact       *bool `toml:"auto_compact"`
	Mouse             *bool `toml:"mouse"`
	MCPExpandEnv      *bool `toml:"mcp_expand_env"`
	MCPRoots          *bool `toml:"mcp_roots"`
	AllowInsecureHTTP *bool `toml:"allow_insecure_http"`
	SyncImages        *bool `toml:"sync_images"`

	ToolTimeout       *string `toml:"tool_timeout" expect:"a duration such as \"30s\" or \"2m\""`
	CredentialTimeout *string `toml:"credential_timeout" expect:"a duration such as \"30s\" or \"2m\""`
	RequestTimeout    *string `toml:"request_timeout" expect:"a duration such as \"30s\" or \"2m\""`
	StallTimeout      *string `toml:"stall_timeout" expect:"a duration such as \"30s\" or \"2m\""`

	StopSequences []string                  `toml:"stop_sequences" expect:"a list of strings such as [\"\\n\\nHuman:\"]"`
	Keys          map[string][]string       `toml:"keys" expect:"a table such as [profiles.NAME.keys] with send = [\"enter\"]"`
	Tools         []toolTOML                `toml:"tools" expect:"an array of [[profiles.NAME.tools]] tables"`
	MCP           map[string]*mcpcfg.Server `toml:"mcp" expect:"a table such as [profiles.NAME.mcp.files] with command = \"npx\""`
}

// profileKeyNames lists the keys of a profile, sorted, for suggestions.
var profileKeyNames = func() []string {
	keys := tomlfile.Keys(reflect.TypeFor[profileTOML]())
	slices.Sort(keys)
	return keys
}()

// ProfileKeys lists every key a [profiles.NAME] table may set, sorted, so
// that the help can be checked against it.
func ProfileKeys() []string { return slices.Clone(profileKeyNames) }

// readProfile checks one [profiles.NAME] table as written, r, and returns
// the profile it sets.
func (l *loader) readProfile(name string, r *profileTOML) *Profile {
	p := &Profile{Name: name}
	c := setting{l: l, at: []string{"profiles", name}}
	p.BaseURL = c.text("base_url", r.BaseURL, httpURL)
	p.AccessTokenEnv = c.text("access_token_env", r.AccessTokenEnv, envName)
	p.AccessTokenCmd = c.text("access_token_cmd", r.AccessTokenCmd, shellCommand)
	p.APIKeyEnv = c.text("api_key_env", r.APIKeyEnv, envName)
	p.APIKeyCmd = c.text("api_key_cmd", r.APIKeyCmd, shellCommand)
	p.ProviderVersion = c.text("provider_version", r.ProviderVersion, headerValue)
	p.VersionHeader = c.text("version_header", r.VersionHeader, headerName)
	p.ImageBaseURL = c.text("image_base_url", r.ImageBaseURL, httpURL)
	p.ImageAPI = c.text("image_api", r.ImageAPI, oneOf(api.ImageAPIs...))
	p.ImageAccessTokenEnv = c.text("image_access_token_env", r.ImageAccessTokenEnv, envName)
	p.ImageAccessTokenCmd = c.text("image_access_token_cmd", r.ImageAccessTokenCmd, shellCommand)
	p.ImageQuality = c.text("image_quality", r.ImageQuality, oneOf("low", "medium", "high", "auto", "standard", "hd"))
	p.ImageBackground = c.text("image_background", r.ImageBackground, oneOf("transparent", "opaque", "auto"))
	p.ImageOutputFormat = c.text("image_output_format", r.ImageOutputFormat, oneOf("png", "jpeg", "webp"))
	p.Model = c.text("model", r.Model, nonEmpty)
	p.ImageModel = c.text("image_model", r.ImageModel, nonEmpty)
	p.System = c.text("system", r.System, nil)
	p.UserID = c.text("user_id", r.UserID, nil)
	p.Theme = c.text("theme", r.Theme, theme)
	p.Notify = c.text("notify", r.Notify, oneOf(NotifyModes...))
	p.ImageSize = c.text("image_size", r.ImageSize, imageSize)
	p.NegativePrompt = c.text("negative_prompt", r.NegativePrompt, nil)
	p.Thinking = c.text("thinking", r.Thinking, oneOf("adaptive"))
	p.Effort = c.text("effort", r.Effort, oneOf(api.Efforts...))
	p.Sync = c.text("sync", r.Sync, oneOf(SyncModes...))
	p.SyncKeyCmd = c.text("sync_key_cmd", r.SyncKeyCmd, shellCommand)

	p.MaxTokens = c.whole("max_tokens", r.MaxTokens, 1)
	p.TopK = c.whole("top_k", r.TopK, 1)
	p.ThinkingBudget = c.whole("thinking_budget", r.ThinkingBudget, 1024)
	p.MaxToolRounds = c.whole("max_tool_rounds", r.MaxToolRounds, 1)
	p.ContextWindow = c.whole("context_window", r.ContextWindow, 1)
	p.StallSize = c.whole("stall_size", r.StallSize, 0)

	p.PriceInput = c.price("price_input", r.PriceInput)
	p.PriceOutput = c.price("price_output", r.PriceOutput)
	p.PriceCacheRead = c.price("price_cache_read", r.PriceCacheRead)
	p.PriceCacheWrite = c.price("price_cache_write", r.PriceCacheWrite)
	p.Temperature = c.fraction("temperature", r.Temperature)
	p.TopP = c.fraction("top_p", r.TopP)

	p.PromptExtend, p.Watermark, p.Save, p.AutoCompact = r.PromptExtend, r.Watermark, r.Save, r.AutoCompact
	p.Mouse, p.MCPExpandEnv, p.MCPRoots = r.Mouse, r.MCPExpandEnv, r.MCPRoots
	p.AllowInsecureHTTP, p.SyncImages = r.AllowInsecureHTTP, r.SyncImages

	p.ToolTimeout = c.timeout("tool_timeout", r.ToolTimeout, MaxToolTimeout)
	p.CredentialTimeout = c.timeout("credential_timeout", r.CredentialTimeout, maxCredentialTimeout)
	p.RequestTimeout = c.timeout("request_timeout", r.RequestTimeout, MaxRequestTimeout)
	p.StallTimeout = c.timeout("stall_timeout", r.StallTimeout, MaxRequestTimeout)

	p.StopSequences = c.stopSequences(r.StopSequences)
	if c.set("keys") {
		p.Keys = l.keys(name, r.Keys)
	}
	if c.set("tools") {
		p.Tools = l.tools(name, r.Tools)
	}
	p.MCP = l.mcp(name, r.MCP)

	if p.ThinkingBudget != nil && p.Thinking != "" {
		c.fail("thinking", `and thinking_budget are two forms of thinking: keep thinking = "adaptive" (current models) or thinking_budget (older ones), not both`)
		p.Thinking = ""
	}
	if p.ThinkingBudget != nil && p.MaxTokens != nil && *p.ThinkingBudget >= *p.MaxTokens {
		c.fail("thinking_budget", "must be less than max_tokens (%d), got %d", *p.MaxTokens, *p.ThinkingBudget)
		p.ThinkingBudget = nil
	}
	return p
}

// setting checks the settings of one table, at path at.
type setting struct {
	l  *loader
	at []string
}

// path is the path of the key in the table.
func (c setting) path(key ...string) []string {
	return child(c.at, key...)
}

// set reports whether the file sets the key.
func (c setting) set(key string) bool { return c.l.places.Has(c.path(key)...) }

// fail records a problem with the key; the message starts with its name.
func (c setting) fail(key, format string, args ...any) {
	c.l.fail(c.path(key), "%s "+format, append([]any{key}, args...)...)
}

// text returns a string setting, or "" when it is not set or wrong; check,
// when not nil, returns what is wrong with it, or "".
func (c setting) text(key string, v *string, check func(string) string) string {
	if v == nil {
		return ""
	}
	if check != nil {
		if msg := check(*v); msg != "" {
			c.fail(key, "%s", msg)
			return ""
		}
	}
	return *v
}

// whole returns an integer setting of at least lo.
func (c setting) whole(key string, v *int, lo int) *int {
	if v != nil && *v < lo {
		c.fail(key, "must be at least %d, got %d", lo, *v)
		return nil
	}
	return v
}

// price returns a price in dollars per million tokens: a number, 0 or more.
func (c setting) price(key string, v *float64) float64 {
	if v == nil {
		return 0
	}
	if !(*v >= 0 && *v < 1e6) {
		c.fail(key, "must be dollars per million tokens, 0 or more, got %v", *v)
		return 0
	}
	return *v
}

// fraction returns a number setting between 0 and 1.
func (c setting) fraction(key string, v *float64) *float64 {
	if v != nil && !(*v >= 0 && *v <= 1) {
		c.fail(key, "must be between 0 and 1, got %v", *v)
		return nil
	}
	return v
}

// timeout returns a duration setting, such as "30s", above 0 and at most
// most; 0 when it is not set or wrong.
func (c setting) timeout(key string, v *string, most time.Duration) time.Duration {
	if v == nil {
		return 0
	}
	d, msg := checkDuration(*v, most)
	if msg != "" {
		c.fail(key, "%s", msg)
	}
	return d
}

// stopSequences returns stop_sequences: a list of non-empty strings.
func (c setting) stopSequences(seqs []string) []string {
	if !c.set("stop_sequences") {
		return nil
	}
	for i, s := range seqs {
		if strings.TrimSpace(s) == "" {
			c.l.fail(c.path("stop_sequences", strconv.Itoa(i)), "stop_sequences item %d must not be empty or only white space", i+1)
			return nil
		}
	}
	if seqs == nil {
		seqs = []string{}
	}
	return seqs
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
		return "must be one of " + strings.Join(themes.Names(), ", ") + ", or the path of a theme file (.toml); got " + quote(s) + suggest(s, themes.Names())
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

// SyncModes are the values of sync: "auto" syncs in the background,
// "manual" only when muse sync is run.
var SyncModes = []string{"auto", "manual"}

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
