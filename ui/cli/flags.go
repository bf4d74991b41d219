package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"muse/api"
	"muse/theme"
	cfgfile "muse/ui/cli/config"
	"muse/ui/tomlfile"
)

// flags holds the parsed command line.
type flags struct {
	print    string
	printSet bool
	json     bool
	noStream bool
	demo     bool
	cont     bool
	resume   string // "" not set, pickSentinel for -r alone, else the query

	image        bool
	attach       []string
	size         string
	negative     string
	promptExtend bool
	watermark    bool
	out          string

	thinkingBudget int
	thinking       string
	effort         string
	// doctorOffline and doctorModels are muse doctor's --offline and
	// --models.
	doctorOffline, doctorModels bool
	toolsFile                   string
	mcpConfig                   string
	mcpExpandEnv                bool
	mcpRoots                    bool
	mcpOnly                     []string
	noMCP                       bool
	profile                     string
	configPath                  string
	toolChoice                  string
	cite                        bool
	allowTools                  bool
	baseURL                     string
	model                       string
	imageModel                  string
	maxTokens                   int
	system                      string
	temp                        float64
	topP                        float64
	topK                        int
	stop                        []string
	version                     string
	theme                       string
	noSave                      bool
	noMouse                     bool
	toolTimeout                 time.Duration
	requestTimeout              time.Duration
	stallTimeout                time.Duration
	showVer                     bool
	debug                       bool
	raw                         bool
	quiet                       bool
	width                       int

	set func(name string) bool
}

// stdinPrompt is the value of -p given without a prompt, or as "-": the
// prompt is standard input, as with claude -p.
const stdinPrompt = "-"

// bareP gives -p and --print the value "-" where they end the command line
// or a flag of fs follows them (muse -p, muse -p --model m), so that pflag
// does not ask for a value: the prompt is then standard input. A value
// that only starts with a dash (-p "-x means?") is still the prompt.
func bareP(args []string, fs *pflag.FlagSet) []string {
	isFlag := func(a string) bool {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case strings.HasPrefix(a, "--"):
			return fs.Lookup(name) != nil
		case strings.HasPrefix(a, "-") && len(name) >= 1:
			return fs.ShorthandLookup(name[:1]) != nil
		}
		return false
	}
	out := make([]string, 0, len(args)+1)
	for i, a := range args {
		out = append(out, a)
		if a == "--" {
			return append(out, args[i+1:]...)
		}
		if (a == "-p" || a == "--print") && (i+1 == len(args) || isFlag(args[i+1])) {
			out = append(out, stdinPrompt)
		}
	}
	return out
}

// pickSentinel is the value of -r given without an id: open the picker.
const pickSentinel = "*"

// usageError is a bad command line or configuration: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// addRootFlags adds the flags of muse itself (the chat screen and -p) to fs.
func addRootFlags(fs *pflag.FlagSet, f *flags) {
	fs.SortFlags = false
	fs.StringVarP(&f.print, "print", "p", "", "send `PROMPT` once, write the reply to stdout and exit; without one (or -), the prompt is standard input: echo hi | muse -p")
	fs.BoolVar(&f.json, "json", false, "with -p: print the final message as one JSON object")
	fs.BoolVar(&f.raw, "raw", false, "with -p: print the reply's raw text, even on a terminal (piped output always is)")
	fs.BoolVar(&f.quiet, "quiet", false, "with -p: print nothing but the answer: no notes on stderr (errors still go there)")
	fs.IntVar(&f.width, "width", 0, "with -p on a terminal: wrap the rendered reply at `N` columns (default: the terminal's, at most 120)")
	fs.BoolVar(&f.noStream, "no-stream", false, "with -p: ask for the whole reply at once (stream: false)")
	fs.BoolVarP(&f.cont, "continue", "c", false, "resume the latest session")
	fs.StringVarP(&f.resume, "resume", "r", "", "resume the session `ID` (or a unique prefix, or its title); alone, pick one from a list")
	fs.Lookup("resume").NoOptDefVal = pickSentinel
	fs.BoolVar(&f.demo, "demo", false, "talk to the embedded offline demo server")
	fs.StringVar(&f.baseURL, "base-url", "", "service address `URL`, like https://llm.example.com (env MUSE_BASE_URL)")
	fs.StringVar(&f.model, "model", "", "model `NAME` (env MUSE_MODEL)")
	fs.StringVar(&f.imageModel, "image-model", "", "image model `NAME` (env MUSE_IMAGE_MODEL)")
	fs.IntVar(&f.maxTokens, "max-tokens", api.DefaultMaxTokens, "at most `N` tokens in a reply (N at least 1)")
	fs.StringVar(&f.system, "system", "", "system prompt `TEXT`")
	fs.Float64Var(&f.temp, "temperature", 0, "sampling temperature `X`, 0 to 1")
	fs.Float64Var(&f.topP, "top-p", 0, "nucleus sampling `X`, 0 to 1")
	fs.IntVar(&f.topK, "top-k", 0, "sample from the top `N` tokens, at least 1")
	fs.StringArrayVar(&f.stop, "stop", nil, "stop `SEQUENCE` (repeatable)")
	fs.StringVar(&f.toolsFile, "tools", "", "offer the tools of `FILE.json` (an array of name, description, input_schema, command)")
	fs.StringVar(&f.mcpConfig, "mcp-config", "", "offer the tools of the MCP servers of `FILE`, an {\"mcpServers\": {...}} JSON file as Claude Desktop, Claude Code and Cursor write")
	fs.StringArrayVar(&f.mcpOnly, "mcp", nil, "use only the MCP server `NAME` of the profile or --mcp-config (repeatable)")
	fs.BoolVar(&f.noMCP, "no-mcp", false, "use no MCP server")
	fs.BoolVar(&f.mcpExpandEnv, "mcp-expand-env", false, "let the --mcp-config file expand ${VAR} from the environment though it is not in your configuration folder (profile: mcp_expand_env)")
	fs.BoolVar(&f.mcpRoots, "mcp-roots", false, "offer the working directory to the MCP servers as a root, which they may then read (off by default; profile: mcp_roots)")
	fs.StringVar(&f.toolChoice, "tool-choice", "", "tool_choice: auto, any, none or a tool's `NAME`")
	fs.BoolVar(&f.cite, "cite", false, "ask for citations from the documents sent (text files and PDFs); they are shown after the reply")
	fs.BoolVar(&f.allowTools, "allow-tools", false, "with -p: run the tools' commands without asking (off by default)")
	fs.IntVar(&f.thinkingBudget, "thinking-budget", 0, "extended thinking with `N` tokens (at least 1024, below --max-tokens)")
	fs.StringVar(&f.thinking, "thinking", "", "`MODE` of thinking: adaptive (current models; --effort guides it) or off")
	fs.StringVar(&f.effort, "effort", "", "effort of the reply, thinking included: `LEVEL` low, medium, high or max")
	fs.StringArrayVarP(&f.attach, "attach", "a", nil, "send `FILE` with the prompt (repeatable): an image (PNG, JPEG, GIF, WebP; scaled to 1568 px a side, 1.15 megapixels), a PDF or a text file; without -p it waits above the chat's input")
	fs.BoolVar(&f.image, "image", false, "with -p: generate images from PROMPT instead of a reply")
	fs.StringVar(&f.size, "size", "", "with --image: image size `W*H` (WxH works too)")
	fs.StringVar(&f.negative, "negative", "", "with --image: `TEXT` saying what the image should not show")
	fs.BoolVar(&f.promptExtend, "prompt-extend", false, "with --image: let the server extend the prompt")
	fs.BoolVar(&f.watermark, "watermark", false, "with --image: ask for a watermark")
	fs.StringVar(&f.out, "out", "", "with --image: save the images in `DIR` (default: muse's data folder)")
	fs.StringVar(&f.version, "provider-version", "", "provider-version header `DATE` (env MUSE_PROVIDER_VERSION, default "+api.DefaultVersion+")")
	fs.StringVar(&f.theme, "theme", "auto", "colour `THEME`: dark, light, auto, "+strings.Join(theme.Names()[3:], ", ")+", or a theme file (.toml)")
	fs.BoolVar(&f.noMouse, "no-mouse", false, "leave the mouse to the terminal, so dragging selects text; the wheel then no longer scrolls (profile: mouse = false)")
	fs.BoolVar(&f.noSave, "no-save", false, "keep the session in memory only: nothing is written to the sessions folder (profile: save = false)")
	fs.DurationVar(&f.toolTimeout, "tool-timeout", cfgfile.DefaultToolTimeout, "stop a tool's command after `DURATION`, such as 45s or 2m: more than 0, at most 1h (profile: tool_timeout)")
	fs.DurationVar(&f.requestTimeout, "request-timeout", api.DefaultRequestTimeout, "give up on a request, its retries and its reply included, after `DURATION`; 0 for no limit (profile: request_timeout)")
	fs.DurationVar(&f.stallTimeout, "stall-timeout", api.DefaultStallTimeout, "end a reply that streams no content, only pings or keep-alives, for `DURATION`; 0 for no limit (profile: stall_timeout)")
	fs.BoolVar(&f.showVer, "version", false, "print the version (module version, commit, dirty mark) and exit; -v is left free")
}

// addGlobalFlags adds the flags every command takes, before or after its
// name: muse --profile work config show and muse config show --profile work
// are the same.
func addGlobalFlags(fs *pflag.FlagSet, f *flags) {
	fs.SortFlags = false
	fs.StringVar(&f.profile, "profile", "", "use the configuration profile `NAME` (env MUSE_PROFILE)")
	fs.StringVar(&f.configPath, "config", "", "read the configuration from `FILE` (default $XDG_CONFIG_HOME/muse/config.toml)")
	fs.BoolVar(&f.debug, "debug", false, "log each request (never a secret or message text) to $XDG_STATE_HOME/muse/muse.log (env MUSE_DEBUG=1)")
}

// check takes the positional arguments (only -r's ID may be one) and checks
// the flags given (changed tells which) against each other.
func (f *flags) check(changed func(string) bool, args []string) error {
	// -r takes its value after a space too: muse -r abc
	if f.resume == pickSentinel && len(args) == 1 {
		f.resume = args[0]
	} else if len(args) > 0 {
		return usagef("unexpected argument %q: put a prompt in -p \"...\" (see muse --help)", args[0])
	}
	if f.cont && f.resume != "" {
		return usagef("use -c (the latest session) or -r (a chosen one), not both")
	}
	if f.resume == pickSentinel && changed("print") {
		return usagef("-r with -p needs a session: muse -r ID -p \"...\"")
	}
	f.set = changed
	f.printSet = changed("print")
	if f.printSet && strings.TrimSpace(f.print) == "" {
		return usagef("-p needs a prompt, like muse -p \"hello\"")
	}
	for _, name := range []string{"json", "no-stream", "raw", "quiet", "width"} {
		if changed(name) && !f.printSet {
			return usagef("--%s goes with -p", name)
		}
	}
	if changed("width") && (f.width < 10 || f.width > 1000) {
		return usagef("--width must be between 10 and 1000 columns, got %d", f.width)
	}
	imageOnly := []string{"size", "negative", "prompt-extend", "watermark", "out"}
	for _, name := range imageOnly {
		if changed(name) && !f.image {
			return usagef("--%s goes with -p \"...\" --image", name)
		}
	}
	if f.image && !f.printSet {
		return usagef("--image goes with -p: muse -p \"a red fox\" --image")
	}
	if f.image && len(f.attach) > 0 {
		return usagef("--attach sends files with a prompt; --image generates images from text only")
	}
	if f.image && f.noStream {
		return usagef("--no-stream is for replies, not --image")
	}
	if changed("size") {
		f.size = strings.ReplaceAll(strings.ToLower(f.size), "x", "*")
		if _, _, err := api.ParseSize(f.size); err != nil {
			return usagef("--size must be W*H (or WxH) with positive whole numbers, like 1024*1024; got %q", f.size)
		}
	}
	if f.maxTokens < 1 {
		return usagef("--max-tokens must be at least 1, got %d", f.maxTokens)
	}
	if changed("temperature") && (f.temp < 0 || f.temp > 1) {
		return usagef("--temperature must be between 0 and 1, got %g", f.temp)
	}
	if changed("top-p") && (f.topP < 0 || f.topP > 1) {
		return usagef("--top-p must be between 0 and 1, got %g", f.topP)
	}
	if changed("thinking") && f.thinking != "adaptive" && f.thinking != "off" {
		return usagef("--thinking must be adaptive or off (a budget is --thinking-budget N), got %q", f.thinking)
	}
	if changed("effort") && !slices.Contains(api.Efforts, f.effort) {
		return usagef("--effort must be one of %s, got %q", strings.Join(api.Efforts, ", "), f.effort)
	}
	if changed("thinking-budget") && (f.thinkingBudget < 1024 || f.thinkingBudget >= f.maxTokens) {
		return usagef("--thinking-budget must be at least 1024 and below --max-tokens (%d), got %d", f.maxTokens, f.thinkingBudget)
	}
	if f.allowTools && !f.printSet {
		return usagef("--allow-tools goes with -p; the chat screen asks before each tool runs")
	}
	if f.noMCP && (changed("mcp") || changed("mcp-config")) {
		return usagef("--no-mcp turns MCP servers off: leave out --mcp and --mcp-config, or --no-mcp")
	}
	if changed("tool-choice") && strings.TrimSpace(f.toolChoice) == "" {
		return usagef("--tool-choice must be auto, any, none or a tool's name")
	}
	if changed("tool-timeout") && (f.toolTimeout <= 0 || f.toolTimeout > cfgfile.MaxToolTimeout) {
		return usagef("--tool-timeout must be more than 0 and at most 1h, such as 45s or 2m; got %v", f.toolTimeout)
	}
	for name, d := range map[string]time.Duration{"request-timeout": f.requestTimeout, "stall-timeout": f.stallTimeout} {
		if changed(name) && (d < 0 || d > cfgfile.MaxRequestTimeout) {
			return usagef("--%s must be from 0 (no limit) to 24h, such as 90s or 20m; got %v", name, d)
		}
	}
	if changed("top-k") && f.topK < 1 {
		return usagef("--top-k must be at least 1, got %d", f.topK)
	}
	if !theme.IsFile(f.theme) && !slices.Contains(theme.Names(), f.theme) {
		return usagef("--theme must be %s, or the path of a theme file (.toml); got %q%s", strings.Join(theme.Names(), ", "), f.theme, tomlfile.Suggest(f.theme, theme.Names()))
	}
	return nil
}

const helpHead = `muse: chat and image generation in your terminal.

Usage:
  muse [flags]                     chat interactively
  muse --demo                      chat with the embedded offline demo server
  muse -c                          resume the latest session
  muse -r [ID|PREFIX|TITLE]        resume a session; alone, pick one from a list
  muse -p "PROMPT" [flags]         one-shot: the reply on stdout (markdown on a terminal, raw text piped)
  muse -p "PROMPT" --image         generate images; prints each saved path (and URL)
  echo text | muse -p "sum up"     piped stdin is appended to the prompt
  muse config init --service NAME  set up a provider: anthropic, ollama, openrouter… (muse config init --help)
  muse COMMAND [flags]             one of the commands below

Commands:
`

const helpTail = `
Environment:
  MUSE_BASE_URL          service address (required unless --demo)
  MUSE_ACCESS_TOKEN      sent as Authorization: Bearer <token>
  MUSE_API_KEY           sent as x-api-key when there is no access token
  MUSE_MODEL             model name (required unless --demo)
  MUSE_IMAGE_MODEL       image model name
  MUSE_PROVIDER_VERSION  API version (default 2023-06-01), sent as provider-version and anthropic-version
  NO_COLOR               turn colours off
  MUSE_PROFILE           the configuration profile to use
  ANTHROPIC_BASE_URL, ANTHROPIC_AUTH_TOKEN (bearer), ANTHROPIC_API_KEY
  (x-api-key), ANTHROPIC_MODEL  read when the MUSE_* ones and the profile are unset
  MUSE_IMAGE_BASE_URL, MUSE_IMAGE_API, MUSE_IMAGE_ACCESS_TOKEN  the image service
  MUSE_ALLOW_INSECURE_HTTP=1  a credential may go over plain http to another host
  MUSE_DEBUG=1           like --debug
  Flags beat the environment, which beats the profile, which beats the defaults.

Configuration file ($XDG_CONFIG_HOME/muse/config.toml, or --config FILE, which must exist):
  Each [profiles.NAME] table may set base_url, model, image_model, max_tokens,
  system, temperature, top_p, top_k, stop_sequences, thinking_budget, theme,
  notify (off, bell, osc9, osc777), provider_version, version_header, user_id,
  image_size, negative_prompt, prompt_extend, watermark, max_tool_rounds,
  context_window (tokens, when the service's models list does not say),
  auto_compact (true: /compact at 90% of the context window),
  price_input, price_output, price_cache_read, price_cache_write (dollars
  per million tokens: /info and the status line show the cost),
  tool_timeout ("45s"), request_timeout, stall_timeout, stall_size (bytes of
  pings a reply may stream, 1 MiB; 0 for no limit), credential_timeout,
  save (false: like --no-save), mouse (false: like --no-mouse), [keys],
  [[tools]] and [mcp.SERVER] tables of MCP servers (command, args, env, cwd,
  or url, headers, token_env, token_cmd; allow lists tools run unasked);
  mcp_expand_env (true: like --mcp-expand-env); mcp_roots (true: like
  --mcp-roots); thinking ("adaptive") and
  effort (low, medium, high, max); allow_insecure_http (true: a credential
  may go over plain http:// to another host); image_base_url, image_api
  (service, dashscope, openai), image_access_token_env, image_access_token_cmd,
  and for openai image_quality, image_background, image_output_format.
  sync ("auto": muse sync in the background), sync_images (false: they
  stay here), sync_key_cmd.
  muse config init --service NAME writes a tested recipe's profile.
  Credentials are never read from the file: access_token_env or api_key_env
  names a variable that holds one; access_token_cmd or api_key_cmd is a shell
  command that prints it (at most 64 KiB) within credential_timeout (default
  10s; raise it for a password manager that prompts). A config file over
  64 KiB or with more than 2000 keys, a tools file over 1 MiB and nesting
  deeper than 64 levels are refused; problems are reported one a line with
  the file and line. muse config init writes a commented example, muse
  config show what a profile sets, secrets masked, muse config path where the
  file is.

Keys (interactive):
` + helpKeys + `
Folders: with XDG_CONFIG_HOME, XDG_DATA_HOME and XDG_STATE_HOME unset, the
configuration, sessions and debug log go to ~/.config, ~/.local/share and
~/.local/state on Linux, ~/Library/Application Support on macOS and
%LOCALAPPDATA% on Windows, each in a muse folder; muse doctor shows where.
Sessions are saved under $XDG_DATA_HOME/muse/sessions unless --no-save or save = false.

Exit status: 0 success, 1 the request failed, 2 bad flags or configuration, 130 interrupted.
`

// writeHelp writes muse's own help: what it does, its commands, its flags
// and the global ones, then the environment, files and keys.
func writeHelp(w io.Writer, root *cobra.Command) {
	io.WriteString(w, helpHead)
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() || c.Name() == "help" {
			fmt.Fprintf(w, "  %-12s %s\n", c.Name(), c.Short)
		}
	}
	io.WriteString(w, "\nFlags:\n")
	// -r's value is optional; pflag would print the sentinel that stands for "none".
	own := pflag.NewFlagSet("muse", pflag.ContinueOnError)
	own.SortFlags = false
	root.Flags().VisitAll(func(fl *pflag.Flag) {
		if root.PersistentFlags().Lookup(fl.Name) == nil {
			own.AddFlag(fl)
		}
	})
	usages := strings.Replace(own.FlagUsagesWrapped(100), "ID[=\""+pickSentinel+"\"]", "[ID]    ", 1)
	io.WriteString(w, usages)
	io.WriteString(w, "\nGlobal flags (before or after a command: muse config show --profile work):\n")
	io.WriteString(w, root.PersistentFlags().FlagUsagesWrapped(100))
	io.WriteString(w, helpTail)
}

// helpKeys lists the chat screen's keys, for --help and the manual page.
const helpKeys = `  enter send (while a reply streams: queue it) · alt+enter or ctrl+j newline · ↑/↓ earlier prompts
  ctrl+a/ctrl+e start/end of line · ctrl+u/ctrl+k delete to its start/end · ctrl+x $EDITOR
  esc close help, or cancel the reply · ctrl+z suspend (fg resumes)
  ctrl+c cancel the reply, else clear the input, else twice to quit · ctrl+d quit at once
  ctrl+↑ or alt+↑ select a message (y copy, c code, e edit, r regenerate, [ ] branches, f fork, a attach)
  pgup/pgdn shift+↑/↓ home/end wheel scroll · ctrl+y copy the last reply · ctrl+t thinking
  ctrl+v attach the clipboard's image · @path or /attach PATH attach a file (tab completes)
  ctrl+s sessions · ctrl+n new session · / commands (tab completes) · ? all keys and commands
`
