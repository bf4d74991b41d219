package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Service is a recipe: the profile that talks to one provider the way its
// docs say, which muse config init --service NAME writes. Each is tested
// against a stand-in that enforces that provider's rules (api/standin).
type Service struct {
	Name  string // the recipe's name, as --service takes it
	Title string // what the provider is, for the README and --help
	// BaseURL is the address before /v1/messages; "" leaves it to
	// ANTHROPIC_BASE_URL (a recipe for images only).
	BaseURL string
	// TokenEnv names the variable of a bearer credential, KeyEnv of an
	// x-api-key one; neither for a local server.
	TokenEnv, KeyEnv string
	Model            string
	// Adaptive sends adaptive thinking with effort high, as current
	// Claude models require.
	Adaptive bool
	// ImageBaseURL, ImageAPI, ImageModel and ImageTokenEnv are the image
	// service, when the recipe has one.
	ImageBaseURL, ImageAPI, ImageModel, ImageTokenEnv string
	// Note is a comment written above the profile.
	Note string
}

// Services are the recipes, in the README's order.
var Services = []Service{
	{Name: "anthropic", Title: "Anthropic's API", BaseURL: "https://api.anthropic.com", KeyEnv: "ANTHROPIC_API_KEY", Model: "claude-opus-4-7", Adaptive: true,
		Note: "current Claude models take adaptive thinking and refuse temperature, top_p and top_k"},
	{Name: "ollama", Title: "Ollama on this machine", BaseURL: "http://localhost:11434", Model: "qwen3-coder",
		Note: "ollama pull qwen3-coder first; a local server needs no credential"},
	{Name: "llamacpp", Title: "llama.cpp's llama-server on this machine", BaseURL: "http://localhost:8080", Model: "local",
		Note: "llama-server -m MODEL.gguf --jinja serves /v1/messages; it answers with the model it loaded"},
	{Name: "vllm", Title: "vLLM on this machine", BaseURL: "http://localhost:8000", Model: "Qwen/Qwen3-8B",
		Note: "vllm serve Qwen/Qwen3-8B; with --api-key KEY add access_token_env = \"VLLM_API_KEY\""},
	{Name: "lmstudio", Title: "LM Studio's server on this machine", BaseURL: "http://localhost:1234", Model: "openai/gpt-oss-20b",
		Note: "lms server start, with the model loaded"},
	{Name: "openrouter", Title: "OpenRouter", BaseURL: "https://openrouter.ai/api", TokenEnv: "OPENROUTER_API_KEY", Model: "anthropic/claude-sonnet-4.6",
		Note: "the key goes as a bearer token; the base URL has no /v1"},
	{Name: "deepseek", Title: "DeepSeek", BaseURL: "https://api.deepseek.com/anthropic", KeyEnv: "DEEPSEEK_API_KEY", Model: "deepseek-v4-pro",
		Note: "DeepSeek's Anthropic-shaped endpoint lists no models"},
	{Name: "kimi", Title: "Moonshot's Kimi", BaseURL: "https://api.moonshot.ai/anthropic", TokenEnv: "MOONSHOT_API_KEY", Model: "kimi-k2.6"},
	{Name: "glm", Title: "Z.ai's GLM", BaseURL: "https://api.z.ai/api/anthropic", TokenEnv: "ZAI_API_KEY", Model: "glm-5.1"},
	{Name: "dashscope", Title: "Alibaba Cloud's DashScope, chat and images", BaseURL: "https://dashscope-intl.aliyuncs.com/apps/anthropic", TokenEnv: "DASHSCOPE_API_KEY", Model: "qwen3-max",
		ImageBaseURL: "https://dashscope-intl.aliyuncs.com", ImageAPI: "dashscope", ImageModel: "qwen-image", ImageTokenEnv: "DASHSCOPE_API_KEY",
		Note: "in mainland China use dashscope.aliyuncs.com in both addresses"},
	{Name: "openai-images", Title: "OpenAI's images (chat from ANTHROPIC_BASE_URL)", ImageBaseURL: "https://api.openai.com", ImageAPI: "openai", ImageModel: "gpt-image-1", ImageTokenEnv: "OPENAI_API_KEY",
		Note: "chat comes from ANTHROPIC_BASE_URL and its key; images from OpenAI"},
}

// ServiceNames lists the recipes' names.
func ServiceNames() []string {
	names := make([]string, len(Services))
	for i, s := range Services {
		names[i] = s.Name
	}
	return names
}

// LookupService returns the recipe named name, or an error that lists them.
func LookupService(name string) (Service, error) {
	for _, s := range Services {
		if s.Name == name {
			return s, nil
		}
	}
	return Service{}, fmt.Errorf("no recipe %s%s: the recipes are %s", quote(name), suggest(name, ServiceNames()), strings.Join(ServiceNames(), ", "))
}

// Profile is the recipe's [profiles.NAME] table, as TOML.
func (s Service) Profile() string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n# %s (muse config init --service %s)\n", s.Title, s.Name)
	if s.Note != "" {
		fmt.Fprintf(&b, "# %s\n", s.Note)
	}
	fmt.Fprintf(&b, "[profiles.%s]\n", s.Name)
	line := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "%s = %s\n", k, strconv.Quote(v))
		}
	}
	line("base_url", s.BaseURL)
	line("access_token_env", s.TokenEnv)
	line("api_key_env", s.KeyEnv)
	line("model", s.Model)
	if s.Adaptive {
		line("thinking", "adaptive")
		line("effort", "high")
	}
	line("image_base_url", s.ImageBaseURL)
	line("image_api", s.ImageAPI)
	line("image_model", s.ImageModel)
	line("image_access_token_env", s.ImageTokenEnv)
	return b.String()
}

// InitService writes the recipe's profile to the file at path: a new file
// (0600, its folder 0700) that names it default_profile, or the end of an
// existing one that has no profile of that name yet.
func InitService(path, name string) error {
	s, err := LookupService(name)
	if err != nil {
		return err
	}
	f, err := Load(path)
	if err != nil {
		return err
	}
	if _, ok := f.Profiles[s.Name]; ok {
		return fmt.Errorf("%s already has a profile %s: not overwritten", path, quote(s.Name))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create config folder: %w", err)
	}
	text := s.Profile()
	_, statErr := os.Stat(path)
	if errors.Is(statErr, fs.ErrNotExist) {
		text = "default_profile = " + strconv.Quote(s.Name) + "\n" + text
	}
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("write config %s: %w", path, err)
	}
	if _, err := out.WriteString(text); err != nil {
		out.Close()
		return fmt.Errorf("write config %s: %w", path, err)
	}
	return out.Close()
}

// ServiceFor names the recipe whose address base is, by host (and, on
// this machine, by port); "" when none fits.
func ServiceFor(base string) string {
	host := strings.TrimPrefix(strings.TrimPrefix(base, "https://"), "http://")
	host, _, _ = strings.Cut(host, "/")
	for _, s := range Services {
		h := strings.TrimPrefix(strings.TrimPrefix(s.BaseURL, "https://"), "http://")
		h, _, _ = strings.Cut(h, "/")
		if s.BaseURL != "" && (h == host || slices.Contains([]string{"127.0.0.1", "[::1]"}, strings.Split(host, ":")[0]) && strings.HasSuffix(h, ":"+lastPort(host))) {
			return s.Name
		}
	}
	return ""
}

// lastPort is the port of host:port, "" without one.
func lastPort(host string) string {
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.HasSuffix(host, "]") {
		return host[i+1:]
	}
	return ""
}
