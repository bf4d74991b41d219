package cli

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"slices"
	"strings"
	"time"

	"muse/api"
	"muse/api/demo"
	"muse/session"
	cfgfile "muse/ui/cli/config"
	"muse/ui/engine"
	"muse/ui/mcp"
	"muse/ui/meter"
	"muse/ui/sanitize"
)

// config is the resolved configuration: flags beat the environment, which
// beats the profile, which beats the built-in defaults.
type config struct {
	baseURL    string
	token      string
	apiKey     string
	version    string
	imageModel string
	demo       bool
	params     session.Params
	tools      []engine.Tool
	maxRounds  int
	// meter is the profile's context window and prices, for the chat
	// screen's /context and cost.
	meter meter.Options

	// versionHeader is the one version header to send; "" sends both
	// provider-version and anthropic-version.
	versionHeader string
	// baseFrom says where baseURL came from, for messages; credFrom where
	// the credential came from ("" for none), for a refused one's hint.
	baseFrom, credFrom string
	// insecureHTTP lets a credential go over plain http to another host.
	insecureHTTP bool
	// imageBaseURL is where image requests go, "" for baseURL; imageToken
	// is its credential (never the chat's); imageAPI the API spoken.
	imageBaseURL, imageToken, imageAPI string
	// openAIImage holds the profile's OpenAI image settings.
	openAIImage api.OpenAIImageOptions
	theme       string
	notify      string // the profile's notify: how a long turn's end is announced out of focus
	keys        map[string][]string
	profile     string

	// noSave keeps sessions in memory only: --no-save, or save = false in
	// the profile.
	noSave bool
	// toolTimeout bounds how long a tool's command may run: --tool-timeout,
	// or tool_timeout in the profile, else cfgfile.DefaultToolTimeout.
	toolTimeout time.Duration
	// requestTimeout and stallTimeout are the client's time limits of a
	// request and of a stream without content: the flag, else the profile,
	// else api's default; 0 is no limit.
	requestTimeout, stallTimeout time.Duration
	// stallSize is the profile's stall_size, the client's stall size
	// (api.WithStallSize); nil for api's default.
	stallSize *int
	// noMouse leaves the mouse to the terminal: --no-mouse, or mouse = false
	// in the profile.
	noMouse bool
	// secretEnv names the environment variables that hold credentials:
	// MUSE_ACCESS_TOKEN, MUSE_API_KEY and every profile's access_token_env,
	// api_key_env and MCP servers' token_env. No child gets them.
	secretEnv []string
	// mcp runs the MCP servers whose tools are offered; nil when there
	// are none.
	mcp *mcp.Manager
	// serverVars are the variables the MCP servers' entries name (every
	// profile's, the --mcp-config file's), and secrets the values of the
	// credentials muse holds: no child gets either, but a stdio server the
	// variables its own entry names (see childDrop, toolDrop, mcpManager).
	serverVars, secrets []string
}

// Demo defaults.
const (
	demoModel      = "demo-chat"
	demoImageModel = "demo-image"
)

// resolveIn resolves the configuration in env: its variables, and its
// folders for the configuration file.
func resolveIn(f *flags, env Env) (*config, error) {
	getenv := env.Getenv
	prof, file, err := loadProfile(f, env)
	if err != nil {
		return nil, err
	}
	names := namesOf(file)
	noProfile := prof == nil
	if prof == nil {
		prof = &cfgfile.Profile{}
	}
	// first returns the first value that is set: flag, environment, profile.
	first := func(vals ...string) string {
		for _, v := range vals {
			if v != "" {
				return v
			}
		}
		return ""
	}
	base, anthropic := serviceAddress(f, getenv, prof)
	c := &config{
		baseURL:        base.value,
		baseFrom:       base.from,
		version:        first(f.version, getenv("MUSE_PROVIDER_VERSION"), prof.ProviderVersion, api.DefaultVersion),
		versionHeader:  prof.VersionHeader,
		insecureHTTP:   allowInsecure(getenv, prof),
		imageBaseURL:   first(getenv("MUSE_IMAGE_BASE_URL"), prof.ImageBaseURL),
		imageAPI:       first(getenv("MUSE_IMAGE_API"), prof.ImageAPI),
		openAIImage:    api.OpenAIImageOptions{Quality: prof.ImageQuality, Background: prof.ImageBackground, OutputFormat: prof.ImageOutputFormat},
		imageModel:     first(f.imageModel, getenv("MUSE_IMAGE_MODEL"), prof.ImageModel),
		demo:           f.demo,
		theme:          first(flagValue(f, "theme", f.theme), prof.Theme, "auto"),
		keys:           prof.Keys,
		notify:         prof.Notify,
		profile:        prof.Name,
		noSave:         boolSetting(f, "no-save", f.noSave, prof.Save),
		noMouse:        boolSetting(f, "no-mouse", f.noMouse, prof.Mouse),
		toolTimeout:    cmp.Or(flagDuration(f, "tool-timeout", f.toolTimeout), prof.ToolTimeout, cfgfile.DefaultToolTimeout),
		secretEnv:      secretEnv(names.cred),
		serverVars:     names.server,
		requestTimeout: timeLimit(f, "request-timeout", f.requestTimeout, prof.RequestTimeout, api.DefaultRequestTimeout),
		stallTimeout:   timeLimit(f, "stall-timeout", f.stallTimeout, prof.StallTimeout, api.DefaultStallTimeout),
	}
	p := session.Params{
		Model:         serviceModel(f, getenv, prof).value,
		MaxTokens:     f.maxTokens,
		System:        first(f.system, prof.System),
		StopSequences: prof.StopSequences,
		Temperature:   prof.Temperature,
		TopP:          prof.TopP,
		TopK:          prof.TopK,
		UserID:        prof.UserID,
	}
	if prof.MaxTokens != nil && !f.set("max-tokens") {
		p.MaxTokens = *prof.MaxTokens
	}
	if prof.ThinkingBudget != nil {
		p.ThinkingBudget = *prof.ThinkingBudget
	}
	p.Thinking, p.Effort = prof.Thinking, prof.Effort
	if prof.ImageSize != "" || prof.NegativePrompt != "" || prof.PromptExtend != nil || prof.Watermark != nil {
		p.Image = &session.ImageParams{Size: prof.ImageSize, NegativePrompt: prof.NegativePrompt, PromptExtend: prof.PromptExtend, Watermark: prof.Watermark}
	}
	override(f, "stop", &p.StopSequences, f.stop)
	override(f, "temperature", &p.Temperature, api.Float(f.temp))
	override(f, "top-p", &p.TopP, api.Float(f.topP))
	override(f, "top-k", &p.TopK, api.Int(f.topK))
	if f.set("thinking-budget") {
		p.ThinkingBudget, p.Thinking = f.thinkingBudget, ""
	}
	if f.set("thinking") {
		p.ThinkingBudget, p.Thinking = 0, ""
		if f.thinking == api.ThinkingAdaptive {
			p.Thinking = api.ThinkingAdaptive
		}
	}
	override(f, "effort", &p.Effort, f.effort)
	override(f, "tool-choice", &p.ToolChoice, f.toolChoice)
	override(f, "cite", &p.Cite, f.cite)
	if p.ThinkingBudget > 0 && p.ThinkingBudget >= p.MaxTokens {
		return nil, usagef("the thinking budget (%d) must be below max_tokens (%d)", p.ThinkingBudget, p.MaxTokens)
	}
	c.params = p
	if prof.MaxToolRounds != nil {
		c.maxRounds = *prof.MaxToolRounds
	}
	c.stallSize = prof.StallSize
	if prof.ContextWindow != nil {
		c.meter.Window = *prof.ContextWindow
	}
	c.meter.AutoCompact = prof.AutoCompact != nil && *prof.AutoCompact
	c.meter.Prices = meter.Prices{Input: prof.PriceInput, Output: prof.PriceOutput, CacheRead: prof.PriceCacheRead, CacheWrite: prof.PriceCacheWrite}
	tools := prof.Tools
	if f.toolsFile != "" {
		if tools, err = cfgfile.LoadTools(f.toolsFile); err != nil {
			return nil, usagef("--tools: %v", err)
		}
	}
	for _, t := range tools {
		c.tools = append(c.tools, engine.Tool{Def: api.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}, Command: t.Command})
	}
	// Every variable a server's entry names is known before any child
	// starts, a credential command first (see childDrop).
	servers, err := mcpServers(f, prof, c, env)
	if err != nil {
		return nil, err
	}
	if f.demo {
		// The demo server answers on its own address with its own token.
		// Its models are its own: a profile's or MUSE_MODEL's names are
		// for the real service, and only --model and --image-model change
		// what the demo is asked for.
		c.token, c.apiKey, c.versionHeader = demo.DefaultToken, "", ""
		c.imageBaseURL, c.imageAPI = "", "" // the demo serves its own images
		c.params.Model = first(f.model, demoModel)
		c.imageModel = first(f.imageModel, demoImageModel)
		// The demo offers its tool, so demo:tool shows the approval with no
		// configuration.
		def, argv := demo.TimeTool()
		if !slices.ContainsFunc(c.tools, func(t engine.Tool) bool { return t.Def.Name == def.Name }) {
			c.tools = append(c.tools, engine.Tool{Def: def, Command: argv})
		}
		if c.mcp, err = mcpManager(f, prof, c, env, servers); err != nil {
			return nil, err
		}
		return c, nil
	}
	// Credentials: the environment, then the profile's variable or command,
	// then the ANTHROPIC_* ones for an ANTHROPIC_* address.
	c.token, c.apiKey = getenv("MUSE_ACCESS_TOKEN"), getenv("MUSE_API_KEY")
	switch {
	case c.token != "":
		c.credFrom = "MUSE_ACCESS_TOKEN"
	case c.apiKey != "":
		c.credFrom = "MUSE_API_KEY"
	case anthropic:
		c.token, c.apiKey, c.credFrom = anthropicCredential(getenv)
	}
	if c.token == "" && c.apiKey == "" {
		if prof.AccessTokenEnv != "" || prof.AccessTokenCmd != "" {
			if c.token, err = cfgfile.ResolveSecret(prof.AccessTokenEnv, prof.AccessTokenCmd, prof.CredentialTimeout, getenv, credentialCommand(c.childDrop(), nil)); err != nil {
				return nil, usagef("profile %s: access token: %v", prof.Name, err)
			}
			c.credFrom = profileCredFrom(prof.Name, "access_token", prof.AccessTokenEnv, getenv)
		} else if prof.APIKeyEnv != "" || prof.APIKeyCmd != "" {
			if c.apiKey, err = cfgfile.ResolveSecret(prof.APIKeyEnv, prof.APIKeyCmd, prof.CredentialTimeout, getenv, credentialCommand(c.childDrop(), nil)); err != nil {
				return nil, usagef("profile %s: API key: %v", prof.Name, err)
			}
			c.credFrom = profileCredFrom(prof.Name, "api_key", prof.APIKeyEnv, getenv)
		}
	}
	if c.imageBaseURL != "" {
		c.imageToken = getenv("MUSE_IMAGE_ACCESS_TOKEN")
		if c.imageToken == "" && (prof.ImageAccessTokenEnv != "" || prof.ImageAccessTokenCmd != "") {
			if c.imageToken, err = cfgfile.ResolveSecret(prof.ImageAccessTokenEnv, prof.ImageAccessTokenCmd, prof.CredentialTimeout, getenv, credentialCommand(c.childDrop(), []string{c.token, c.apiKey})); err != nil {
				return nil, usagef("profile %s: image access token: %v", prof.Name, err)
			}
		}
		if c.imageToken == "" && !loopbackURL(c.imageBaseURL) {
			return nil, usagef("no credential for the image service %s: set MUSE_IMAGE_ACCESS_TOKEN, or image_access_token_env / image_access_token_cmd in the profile (the chat's credential never goes to another address)", sanitize.Line(api.RedactURL(c.imageBaseURL)))
		}
	}
	unchosen := ""
	if c.baseURL == "" && noProfile {
		unchosen = unchosenProfiles(file)
	}
	switch {
	case unchosen != "":
		return nil, usagef("no service address: %s", unchosen)
	case c.baseURL == "":
		return nil, usagef("no service address: set MUSE_BASE_URL (or ANTHROPIC_BASE_URL), pass --base-url or set base_url in a profile (muse config init --service NAME), or try --demo")
	case c.params.Model == "" && f.printSet: // the chat screen starts without one: /model completes
		return nil, usagef("no model: set MUSE_MODEL (or ANTHROPIC_MODEL), pass --model or set model in a profile (muse models lists them)")
	}
	if u, err := url.Parse(c.baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, usagef("base URL %q is not an http(s) address like https://llm.example.com: fix %s", sanitize.Line(api.RedactURL(c.baseURL)), c.baseFrom)
	}
	if c.token == "" && c.apiKey == "" && !loopbackURL(c.baseURL) {
		return nil, usagef("no credentials for %s: set MUSE_ACCESS_TOKEN (or MUSE_API_KEY), or access_token_env / access_token_cmd in a profile; a server on this machine (localhost) needs none", sanitize.Line(api.RedactURL(c.baseURL)))
	}
	if err := api.New(c.baseURL, c.clientOptions()...).Check(); err != nil {
		return nil, usagef("%v", err)
	}
	// After the credentials: the MCP servers' children must not get them.
	if c.mcp, err = mcpManager(f, prof, c, env, servers); err != nil {
		return nil, err
	}
	return c, nil
}

// flagValue is the flag's value when it was given, else "".
func flagValue(f *flags, name, v string) string {
	if f.set(name) {
		return v
	}
	return ""
}

// override sets *dst to v when the flag name was given on the command
// line, over what the profile or the session set.
func override[T any](f *flags, name string, dst *T, v T) {
	if f.set(name) {
		*dst = v
	}
}

// flagDuration is the flag's value when it was given, else 0.
func flagDuration(f *flags, name string, d time.Duration) time.Duration {
	if f.set(name) {
		return d
	}
	return 0
}

// timeLimit resolves a time limit: the flag when it was given (0 there is
// no limit), else the profile's setting when set, else def.
func timeLimit(f *flags, name string, d, prof, def time.Duration) time.Duration {
	if f.set(name) {
		return d
	}
	return cmp.Or(prof, def)
}

// boolSetting resolves an on-by-default setting that the --no-NAME flag
// noFlag or the profile's key (prof, nil when unset) turns off; it returns
// true when the setting is off. --no-NAME=false turns it back on over the
// profile.
func boolSetting(f *flags, noFlag string, off bool, prof *bool) bool {
	if f.set(noFlag) {
		return off
	}
	return prof != nil && !*prof
}

// secretEnv lists the environment variables that hold credentials:
// MUSE_ACCESS_TOKEN, MUSE_API_KEY, ANTHROPIC_AUTH_TOKEN, ANTHROPIC_API_KEY,
// MUSE_IMAGE_ACCESS_TOKEN, MUSE_SYNC_KEY and those that any profile of the file names
// (fileEnv: access_token_env, api_key_env, image_access_token_env, an MCP
// server's token_env), not only the profile in use, once each.
func secretEnv(fileEnv []string) []string {
	names := []string{"MUSE_ACCESS_TOKEN", "MUSE_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_API_KEY", "MUSE_IMAGE_ACCESS_TOKEN", syncKeyEnv}
	for _, n := range fileEnv {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// loadProfile reads the configuration file and picks the profile named by
// --profile, MUSE_PROFILE or default_profile; nil when there is none. The
// default file may be missing; a file named with --config must exist. It
// also returns the file, for the variables every profile of it names
// (namesOf).
func loadProfile(f *flags, env Env) (*cfgfile.Profile, *cfgfile.File, error) {
	file, err := loadConfigFile(f.configPath, env)
	if err != nil {
		return nil, nil, err
	}
	name := f.profile
	if name == "" {
		name = env.Getenv("MUSE_PROFILE")
	}
	prof, err := file.Select(name)
	if err != nil {
		return nil, nil, usagef("%v", err)
	}
	return prof, file, nil
}

// unchosenProfiles says, when the configuration file has profiles but
// none is in effect (no --profile, MUSE_PROFILE or default_profile), which
// there are and how to pick one; else "". muse config init writes its
// example without a default_profile, and --service appends to a file that
// exists, so this is where a new user lands.
func unchosenProfiles(file *cfgfile.File) string {
	if file == nil || len(file.Profiles) == 0 {
		return ""
	}
	names := file.Names()
	for i, n := range names {
		names[i] = sanitize.Line(n)
	}
	where := "the configuration file"
	if file.Path != "" {
		where = sanitize.Line(file.Path)
	}
	return fmt.Sprintf("%s has the profiles %s but no default_profile: pick one with --profile %s (or MUSE_PROFILE), or set default_profile = %q at its top",
		where, strings.Join(names, ", "), shellQuote(names[0]), names[0])
}

// loadConfigFile reads the file named with --config, which must exist, or
// else the default one, which may be missing. With no home folder to find
// the default in, there is no file and no error.
func loadConfigFile(path string, env Env) (*cfgfile.File, error) {
	if path == "" {
		var err error
		if path, err = defaultConfigPath(env); err != nil {
			return &cfgfile.File{}, nil
		}
		file, err := cfgfile.Load(path)
		if err != nil {
			return nil, usagef("%v", err)
		}
		return file, nil
	}
	file, err := cfgfile.LoadExisting(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, usagef("--config %s: no such file: check the name, or write an example there with muse config init --config %s", path, shellQuote(path))
	}
	if err != nil {
		return nil, usagef("%v", err)
	}
	return file, nil
}

// shellQuote quotes s for a shell command line when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./+:@%,=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// errorLines splits an error into the lines it holds, one problem each
// (a config file with several problems gives several), each made safe to
// print.
func errorLines(err error) []string {
	var lines []string
	for _, l := range strings.Split(api.ShellText(err), "\n") { // a shell's hint, not a slash command
		if l = sanitize.Line(l); strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

func (c *config) clientOptions() []api.Option {
	opts := []api.Option{api.WithProviderVersion(c.version), api.WithInsecureHTTP(c.insecureHTTP),
		api.WithRequestTimeout(c.requestTimeout), api.WithStallTimeout(c.stallTimeout)}
	if c.stallSize != nil {
		opts = append(opts, api.WithStallSize(*c.stallSize))
	}
	if c.versionHeader != "" {
		opts = append(opts, api.WithVersionHeader(c.versionHeader))
	}
	if c.imageAPI != "" {
		opts = append(opts, api.WithImageAPI(c.imageAPI))
	}
	if c.imageBaseURL != "" {
		opts = append(opts, api.WithImageService(c.imageBaseURL, c.imageToken))
	}
	if c.openAIImage != (api.OpenAIImageOptions{}) {
		opts = append(opts, api.WithOpenAIImageOptions(c.openAIImage))
	}
	if c.token != "" {
		opts = append(opts, api.WithAccessToken(c.token))
	}
	if c.apiKey != "" {
		opts = append(opts, api.WithAPIKey(c.apiKey))
	}
	return opts
}

// demoDelay paces the demo's words: readable on screen, brisk for -p, or
// MUSE_DEMO_DELAY (a duration such as 0s or 5ms), for benchmarks.
func (c *config) demoDelay(print bool, getenv func(string) string) time.Duration {
	if d, err := time.ParseDuration(getenv("MUSE_DEMO_DELAY")); err == nil && d >= 0 {
		return d
	}
	if print {
		return 2 * time.Millisecond
	}
	return 25 * time.Millisecond
}

// profileCredFrom names where a profile's credential came from: its
// variable (key_env) when that is set, else its command (key_cmd), as
// ResolveSecret chose.
func profileCredFrom(profile, key, envName string, getenv func(string) string) string {
	if envName != "" && getenv(envName) != "" {
		return envName + " (profile " + profile + "'s " + key + "_env)"
	}
	return "profile " + profile + "'s " + key + "_cmd"
}
