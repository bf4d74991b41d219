package cli

import (
	"net/url"
	"time"

	"muse/api"
	"muse/api/demo"
	"muse/session"
	"muse/ui"
	"muse/ui/sanitize"
)

// config is the resolved configuration: flags beat the environment, which
// beats the built-in defaults.
type config struct {
	baseURL    string
	token      string
	apiKey     string
	version    string
	imageModel string
	demo       bool
	params     session.Params
	tools      []ui.Tool
	maxRounds  int
}

// Demo defaults.
const (
	demoModel      = "demo-chat"
	demoImageModel = "demo-image"
)

func resolve(f *flags, getenv func(string) string) (*config, error) {
	pick := func(flag, env string) string {
		if flag != "" {
			return flag
		}
		return getenv(env)
	}
	c := &config{
		baseURL:    pick(f.baseURL, "MUSE_BASE_URL"),
		token:      getenv("MUSE_ACCESS_TOKEN"),
		apiKey:     getenv("MUSE_API_KEY"),
		version:    pick(f.version, "MUSE_PROVIDER_VERSION"),
		imageModel: pick(f.imageModel, "MUSE_IMAGE_MODEL"),
		demo:       f.demo,
	}
	c.params = session.Params{Model: pick(f.model, "MUSE_MODEL"), MaxTokens: f.maxTokens, System: f.system, StopSequences: f.stop}
	if f.set("temperature") {
		c.params.Temperature = api.Float(f.temp)
	}
	if f.set("top-p") {
		c.params.TopP = api.Float(f.topP)
	}
	if f.set("top-k") {
		c.params.TopK = api.Int(f.topK)
	}
	if f.set("thinking-budget") {
		c.params.ThinkingBudget = f.thinkingBudget
	}
	if f.set("tool-choice") {
		c.params.ToolChoice = f.toolChoice
	}
	if f.toolsFile != "" {
		tools, err := loadToolsFile(f.toolsFile)
		if err != nil {
			return nil, err
		}
		c.tools = tools
	}
	if c.version == "" {
		c.version = api.DefaultVersion
	}
	if f.demo {
		// The demo server answers on its own address with its own token.
		c.token, c.apiKey = demo.DefaultToken, ""
		if c.params.Model == "" {
			c.params.Model = demoModel
		}
		if c.imageModel == "" {
			c.imageModel = demoImageModel
		}
		return c, nil
	}
	switch {
	case c.baseURL == "":
		return nil, usagef("no service address: set MUSE_BASE_URL or pass --base-url (or try --demo)")
	case c.params.Model == "":
		return nil, usagef("no model: set MUSE_MODEL or pass --model")
	case c.token == "" && c.apiKey == "":
		return nil, usagef("no credentials: set MUSE_ACCESS_TOKEN (or MUSE_API_KEY)")
	}
	if u, err := url.Parse(c.baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, usagef("base URL %q is not an http(s) address like https://llm.example.com: fix MUSE_BASE_URL or --base-url", sanitize.Line(c.baseURL))
	}
	return c, nil
}

func (c *config) clientOptions() []api.Option {
	opts := []api.Option{api.WithProviderVersion(c.version)}
	if c.token != "" {
		opts = append(opts, api.WithAccessToken(c.token))
	}
	if c.apiKey != "" {
		opts = append(opts, api.WithAPIKey(c.apiKey))
	}
	return opts
}

// demoDelay paces the demo's words: readable on screen, brisk for -p.
func (c *config) demoDelay(print bool) time.Duration {
	if print {
		return 2 * time.Millisecond
	}
	return 25 * time.Millisecond
}
