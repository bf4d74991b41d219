package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"muse/session/dirs"
	"muse/ui/mcp/mcpcfg"
)

// Durations of the settings that bound how long commands run.
const (
	// DefaultToolTimeout is how long a tool's command may run when
	// tool_timeout and --tool-timeout are not set.
	DefaultToolTimeout = 30 * time.Second
	// MaxToolTimeout is the longest tool_timeout allowed.
	MaxToolTimeout = time.Hour
	// MaxRequestTimeout is the longest request_timeout and stall_timeout
	// allowed.
	MaxRequestTimeout = 24 * time.Hour
	// maxCredentialTimeout is the longest credential_timeout allowed.
	maxCredentialTimeout = 10 * time.Minute
)

// Tool is a client tool offered to the model.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
	// Command is the argv muse runs when the model calls the tool. It stays
	// on this machine: it is never sent to the server.
	Command []string `json:"-"`
}

// Profile is one [profiles.NAME] table. Pointer fields are nil when the file
// does not set them; strings are empty.
type Profile struct {
	Name string

	BaseURL         string
	AccessTokenEnv  string
	AccessTokenCmd  string
	APIKeyEnv       string
	APIKeyCmd       string
	ProviderVersion string
	VersionHeader   string

	// ImageBaseURL is where image requests go; "" means BaseURL.
	ImageBaseURL string
	// ImageAPI is the image API spoken: one of api.ImageAPIs; "" when
	// unset (the interface's).
	ImageAPI            string
	ImageAccessTokenEnv string
	ImageAccessTokenCmd string
	// ImageQuality, ImageBackground and ImageOutputFormat are OpenAI's
	// image settings, sent with image_api = "openai" only; "" when unset.
	ImageQuality, ImageBackground, ImageOutputFormat string

	Model      string
	ImageModel string
	System     string
	UserID     string
	Theme      string
	// Notify is how the chat screen says that a long reply or image is
	// ready while the terminal is out of focus: one of NotifyModes; ""
	// when unset (off).
	Notify         string
	ImageSize      string
	NegativePrompt string
	// Thinking is "adaptive" for adaptive thinking; "" when unset.
	Thinking string
	// Effort is sent as output_config.effort: one of api.Efforts; "" when
	// unset.
	Effort string

	MaxTokens      *int
	TopK           *int
	ThinkingBudget *int
	MaxToolRounds  *int
	// ContextWindow is the model's context window in tokens, for a model
	// the service's models list gives none for; nil when unset.
	ContextWindow *int
	// StallSize is how many bytes a reply may stream that add nothing
	// to it (pings, keep-alives) before it ends (see api.WithStallSize); 0
	// for no limit, nil when unset.
	StallSize *int

	Temperature *float64
	TopP        *float64

	// PriceInput, PriceOutput, PriceCacheRead and PriceCacheWrite are
	// dollars per million tokens, for the cost the chat screen shows; 0
	// when unset.
	PriceInput, PriceOutput, PriceCacheRead, PriceCacheWrite float64

	PromptExtend *bool
	Watermark    *bool
	// Save is false when sessions are not to be saved.
	Save *bool
	// AutoCompact is true when the chat screen compacts the conversation
	// at 90% of the context window.
	AutoCompact *bool
	// Mouse is false when the chat screen is not to capture the mouse.
	Mouse *bool
	// AllowInsecureHTTP lets a credential go over plain http:// to a host
	// that is not this machine.
	AllowInsecureHTTP *bool
	// Sync is "auto" when muse syncs in the background (muse sync), else
	// "manual" or "".
	Sync string
	// SyncImages is false when images and attachments stay on this
	// machine.
	SyncImages *bool
	// SyncKeyCmd prints the sync key (an age identity) when MUSE_SYNC_KEY
	// is not set.
	SyncKeyCmd string
	// MCPExpandEnv is true when an mcpServers file from outside the user's
	// configuration folder may expand ${VAR} from muse's environment.
	MCPExpandEnv *bool
	// MCPRoots is true when the MCP servers are offered the working
	// directory as a root (roots/list); off by default.
	MCPRoots *bool

	// ToolTimeout bounds how long a tool's command may run; 0 when unset.
	ToolTimeout time.Duration
	// CredentialTimeout bounds how long access_token_cmd or api_key_cmd may
	// run; 0 when unset.
	CredentialTimeout time.Duration
	// RequestTimeout bounds one request as a whole, its retries and its
	// reply included; 0 when unset.
	RequestTimeout time.Duration
	// StallTimeout bounds how long a reply may stream no content (only
	// pings and keep-alives); 0 when unset.
	StallTimeout time.Duration

	StopSequences []string
	// Keys maps an action name, such as "send", to the keys bound to it.
	Keys  map[string][]string
	Tools []Tool
	// MCP lists the profile's Model Context Protocol servers, in the
	// file's order.
	MCP []mcpcfg.Server
}

// File is a loaded configuration file.
type File struct {
	Path           string
	DefaultProfile string
	Profiles       map[string]*Profile
}

// DefaultPathOn returns config.toml in muse's configuration folder, laid
// out for the system goos ("" means runtime.GOOS), as dirs.BaseDir does:
// $XDG_CONFIG_HOME/muse when XDG_CONFIG_HOME is an absolute path, else the
// platform's place (~/.config/muse on Linux and the BSDs, ~/Library/
// Application Support/muse on macOS, %LOCALAPPDATA%\muse on Windows).
// getenv reads the environment; nil means the process's own.
func DefaultPathOn(getenv func(string) string, goos string) (string, error) {
	base, err := dirs.BaseDir(dirs.ConfigBase, getenv, goos)
	if err != nil {
		return "", errors.New("cannot locate the config file: " + err.Error())
	}
	return filepath.Join(base, "muse", "config.toml"), nil
}

// Select returns the named profile. An empty name means the file's
// default_profile; with no default either, the profile is nil and there is
// no error. An unknown name is an error that lists the known profiles.
func (f *File) Select(name string) (*Profile, error) {
	if f == nil {
		f = &File{}
	}
	if name == "" {
		name = f.DefaultProfile
	}
	if name == "" {
		return nil, nil
	}
	if p, ok := f.Profiles[name]; ok {
		return p, nil
	}
	where := f.Path
	if where == "" {
		where = "the config file"
	}
	if len(f.Profiles) == 0 {
		return nil, fmt.Errorf("no profile %s: %s defines no profiles (muse config init writes an example)", quote(name), where)
	}
	names := f.Names()
	for i, n := range names {
		names[i] = quote(n)
	}
	return nil, fmt.Errorf("no profile %s in %s: known profiles are %s", quote(name), where, strings.Join(names, ", "))
}

// CredentialEnv returns the environment variables that any profile of the
// file names for a credential (access_token_env, api_key_env,
// image_access_token_env), sorted, once
// each: none of them may reach a tool, whichever profile is in use.
func (f *File) CredentialEnv() []string {
	if f == nil {
		return nil
	}
	var names []string
	for _, p := range f.Profiles {
		for _, n := range []string{p.AccessTokenEnv, p.APIKeyEnv, p.ImageAccessTokenEnv} {
			if n != "" && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	slices.Sort(names)
	return names
}

// Names returns the profile names, sorted.
func (f *File) Names() []string {
	if f == nil {
		return nil
	}
	names := make([]string, 0, len(f.Profiles))
	for n := range f.Profiles {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
