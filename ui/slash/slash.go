// Package slash parses the slash commands typed in the chat screen
// (/model, /temperature, /image…): it checks their values, completes
// and hints them, and says what the screen should do. It draws nothing.
package slash

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"muse/api"
	"muse/session"
	"muse/theme"
)

// slashCommand describes one slash command for parsing, completion, help and hints.
type slashCommand struct {
	name    string   // without the slash, e.g. "temperature"
	aliases []string // other names that run it; accepted when typed in full, never offered in hints or completion
	args    string   // usage of its arguments, e.g. "X" or "[TEXT]"; "" for none
	// choices, when set, are the words tab completes for the argument;
	// else those of args ("[on|off]" gives on and off).
	choices []string
	help    string // one short line, e.g. "sampling temperature, 0 to 1 (off: server default)"
	// run carries the command out on the text after its name (trimmed) and the
	// current settings. It must not modify p: p's pointers and slice are shared
	// with the caller, so a change is made on a copy (see session.Params.Clone).
	// A command whose args is "" is refused by runSlash when given any text,
	// so its run never sees an argument.
	run func(arg string, p session.Params) (Result, error)
	// imageParam is the image setting the command sets, when the openai
	// image API has no such parameter (see Env.lacksImageParam).
	imageParam string
}

// Result is what a command asks the chat screen to do.
type Result struct {
	Action Action         // what to do
	Params session.Params // for ActionSet: the settings after the change; otherwise a copy of the settings as they were
	Notice string         // a short line saying what happened, e.g. "temperature 0.7 · from the next request"; may be ""
	Arg    string         // the argument of ActionRename, ActionExport and ActionImage; "code" for /copy code
	N      int            // for ActionCopy and ActionOpen: the number given, 0 when none
}

// Action is the kind of thing a slash command asks the chat screen to do.
type Action int

// The actions a slash command can ask for.
const (
	ActionSet        Action = iota // settings changed: params holds them
	ActionRetry                    // regenerate the last reply
	ActionContinue                 // continue a reply cut at max_tokens
	ActionCopy                     // copy the last reply; message N from the end; with arg "code", code block N of the last reply (0: its last)
	ActionInfo                     // show the usage of the last reply
	ActionClear                    // start a new session
	ActionHelp                     // show all keys and commands
	ActionQuit                     // quit
	ActionEditSystem               // `/system` alone: edit the system prompt in $EDITOR
	ActionRename                   // rename the session to arg
	ActionExport                   // export the session as Markdown, or "page …" as HTML, to arg (or a default path)
	ActionSessions                 // open the session picker
	ActionImage                    // generate images from arg (or the last reply)
	ActionOpen                     // open image N of the last image turn; 0: the last image saved
	ActionAttach                   // attach the file arg; with N, image N of the last image turn; arg "clipboard": the clipboard's image
	ActionDetach                   // remove attachment N waiting to be sent; 0: all of them
	ActionMCP                      // list the MCP servers (arg ""), or turn one on or off (arg "on NAME", "off NAME")
	ActionTheme                    // switch to the theme arg, a name or a theme file; "": say which is on
	ActionContext                  // say how much of the context window the conversation uses
	ActionCompact                  // summarise the conversation and go on from the summary on a new branch; arg: instructions
	ActionApprove                  // set the approval mode of tool calls: arg "all" runs them unasked, "ask" asks
)

// Limits of the numeric settings, named in their errors and help.
const (
	slashMaxTokens = 1000000 // the largest /max-tokens accepted
)

// FromNext ends the notice of every settings command.
const FromNext = " · from the next request"

// slashCommands is the registry, in the order help lists them. A new command
// is a new row: parsing, completion, hints, suggestions and help all read it.
var slashCommands = []slashCommand{
	{name: "model", args: "NAME", help: "model for the next requests", run: slashModel},
	{name: "system", args: "[TEXT]", help: "system prompt (alone: edit in $EDITOR; off: none)", run: slashSystem},
	{name: "temperature", args: "X", help: "sampling temperature, 0 to 1 (off: server default)",
		run: slashUnitFloat("temperature", func(p *session.Params) **float64 { return &p.Temperature })},
	{name: "max-tokens", args: "N|off", help: fmt.Sprintf("longest reply in tokens, 1 to %d; off for %d", slashMaxTokens, api.DefaultMaxTokens), run: slashMaxTokensRun},
	{name: "top-p", args: "X", help: "nucleus sampling, 0 to 1 (off: server default)",
		run: slashUnitFloat("top_p", func(p *session.Params) **float64 { return &p.TopP })},
	{name: "top-k", args: "N", help: "sample from the N likeliest tokens, 1 or more (off: server default)", run: slashTopK},
	{name: "thinking", args: "adaptive [EFFORT]|BUDGET|off", choices: []string{"adaptive", "off"}, help: "thinking: adaptive with an effort low, medium, high or max (current models), or a budget ≥ 1024 below max_tokens", run: slashThinking},
	{name: "tool-choice", args: "auto|any|none|NAME", help: "how the model may use tools (off: server default)", run: slashToolChoice},
	{name: "cite", args: "on|off", choices: []string{"on", "off"}, help: "ask for citations from the documents sent (text files and PDFs)", run: slashCite},
	{name: "stop", args: "[SEQ…]", help: `stop sequences, "quoted" if they hold spaces (alone or off: none)`, run: slashStop},
	{name: "image", args: "[PROMPT]", help: "generate images (alone: from the last reply)", run: slashImage},
	{name: "size", args: "W*H", help: fmt.Sprintf("image size, like 1024*1024 (WxH works too), sides 1 to %d, at most %d megapixels", session.MaxImageSide, session.MaxImagePixels/1_000_000), run: slashSize},
	{name: "negative", args: "[TEXT]", help: "what images should not show (alone: clear)", run: slashNegative, imageParam: "negative prompt"},
	{name: "extend", args: "on|off", help: "let the server extend image prompts", run: slashOnOff("prompt_extend", func(ip *session.ImageParams) **bool { return &ip.PromptExtend }), imageParam: "prompt_extend"},
	{name: "watermark", args: "on|off", help: "ask for a watermark on images", run: slashOnOff("watermark", func(ip *session.ImageParams) **bool { return &ip.Watermark }), imageParam: "watermark"},
	{name: "image-model", args: "NAME", help: "model for image generation", run: slashImageModel},
	{name: "open", args: "[N]", help: "open image N of the last image turn in the viewer (alone: the last image saved)", run: slashOpen},
	{name: "attach", args: "PATH|image N|clipboard", help: "attach a file (tab completes; @path in a prompt too), image N of the last image turn, or the clipboard's image (ctrl+v)", run: slashAttach},
	{name: "detach", args: "[N]", help: "remove attachment N waiting to be sent (alone: all)", run: slashDetach},
	{name: "retry", help: "regenerate the last reply", run: slashJust(ActionRetry)},
	{name: "continue", help: "continue a reply cut at max_tokens", run: slashJust(ActionContinue)},
	{name: "copy", args: "[N|code [N]]", help: "copy the last reply; N: message N from the end; code [N]: code block N of the last reply (default its last)", run: slashCopy},
	{name: "info", help: "usage and cost of the last reply and the session, and the last notices in full", run: slashJust(ActionInfo)},
	{name: "compact", args: "[INSTRUCTIONS]", help: "the model summarises the conversation; it goes on from the summary on a new branch (the full history stays on its own)", run: func(arg string, p session.Params) (Result, error) {
		return Result{Action: ActionCompact, Params: p.Clone(), Arg: arg}, nil
	}},
	{name: "context", help: "how much of the model's context window the conversation uses", run: slashJust(ActionContext)},
	{name: "approve", args: "all|ask", help: "tool calls for the rest of the session: all runs them unasked, ask asks each time (shift+tab switches)", run: slashApprove},
	{name: "clear", help: "start a new session", run: slashJust(ActionClear)},
	{name: "rename", args: "TITLE", help: "rename this session", run: slashRename},
	{name: "export", args: "[page] [PATH] [--force]", help: "save this session as Markdown (default ./muse-<id>.md), or with page as one HTML page (./muse-<id>.html; --redact masks secrets); --force replaces an existing file", run: slashExport},
	{name: "theme", args: "[NAME|FILE]", choices: theme.Names(), help: "colours: a theme's name (tab completes) or a theme file (.toml); alone: the theme on", run: slashTheme},
	{name: "mcp", args: "[on|off NAME]", help: "MCP servers, their state and tools (on/off NAME: start or stop one for this session)", run: slashMCP},
	{name: "sessions", help: "open the session picker (ctrl+s)", run: slashJust(ActionSessions)},
	{name: "help", help: "list all keys and commands in the conversation", run: slashJust(ActionHelp)},
	{name: "quit", aliases: []string{"exit"}, help: "quit muse", run: slashJust(ActionQuit)},
}

// slashApprove reads /approve all|ask.
func slashApprove(arg string, p session.Params) (Result, error) {
	switch a := strings.ToLower(arg); a {
	case "all", "ask":
		return Result{Action: ActionApprove, Params: p.Clone(), Arg: a}, nil
	}
	return Result{}, errors.New("usage: /approve all (run every tool call unasked for this session) or /approve ask")
}

// isSlash reports whether input is meant as a slash command rather than a
// prompt. After leading whitespace it must start with "/" and a letter, and its
// first word, minus the slash, must be a known command name or look like an
// attempt at one (letters, digits and '-' only), so "/usr/bin/env …" and
// "/ hello" stay prompts while "/unknowncmd" is a command that runSlash refuses
// with a clear error.
func Is(input string) bool {
	word, _ := splitSlash(input)
	if !strings.HasPrefix(word, "/") {
		return false
	}
	name := word[1:]
	if name == "" || !slashLetter(rune(name[0])) {
		return false
	}
	if lookupSlash(name) != nil {
		return true
	}
	for _, r := range name {
		if !slashLetter(r) && !('0' <= r && r <= '9') && r != '-' {
			return false
		}
	}
	return true
}

// Run parses input as a slash command and runs it on the settings p, in
// the chat screen that env describes. An
// error (an unknown command, a misused or malformed argument) says what is
// allowed; the result then carries p unchanged, and p itself is never changed.
func Run(input string, p session.Params, env Env) (Result, error) {
	unchanged := Result{Params: p.Clone()}
	word, arg := splitSlash(input)
	if !strings.HasPrefix(word, "/") {
		return unchanged, errors.New("not a command: a command starts with /, try /help")
	}
	typed := strings.ToLower(word[1:])
	cmd := lookupSlash(typed)
	if cmd == nil {
		if s := slashSuggestion(typed); s != "" {
			return unchanged, fmt.Errorf("unknown command %s: did you mean %s? (try /help)", word, s)
		}
		return unchanged, fmt.Errorf("unknown command %s: try /help", word)
	}
	if cmd.args == "" && arg != "" {
		return unchanged, fmt.Errorf("/%s takes no arguments", typed)
	}
	if err := env.lacksImageParam(cmd); err != nil {
		return unchanged, err
	}
	res, err := cmd.run(arg, p)
	if err != nil {
		return unchanged, err
	}
	if cmd.name == "tool-choice" {
		if err := checkToolChoice(res.Params.ToolChoice, env.Tools); err != nil {
			return unchanged, err
		}
	}
	if res.Action == ActionSet {
		if err := checkConflicts(cmd.name, res.Params); err != nil {
			return unchanged, err
		}
	}
	return res, nil
}

// forcesTool says whether a tool_choice makes the model call a tool: any,
// or a tool's name.
func forcesTool(choice string) bool {
	switch choice {
	case "", "auto", "none":
		return false
	}
	return true
}

// checkConflicts refuses settings the service would refuse together,
// naming the command that set them and the one it conflicts with, so the
// error comes when the setting is typed, not when a prompt is sent.
func checkConflicts(name string, q session.Params) error {
	thinking := q.ThinkingBudget > 0 || q.Thinking != ""
	switch {
	case thinking && name == "max-tokens" && q.MaxTokens <= q.ThinkingBudget:
		return fmt.Errorf("/max-tokens %d conflicts with /thinking %d: max_tokens must be above the thinking budget; raise it, or /thinking off first",
			q.MaxTokens, q.ThinkingBudget)
	case thinking && name == "thinking" && forcesTool(q.ToolChoice):
		return fmt.Errorf("/thinking %s conflicts with /tool-choice %s: the service refuses thinking while a tool is forced; /tool-choice auto first",
			thinkingName(q), q.ToolChoice)
	case thinking && name == "tool-choice" && forcesTool(q.ToolChoice):
		return fmt.Errorf("/tool-choice %s conflicts with /thinking %s: the service refuses a forced tool while thinking is on; /thinking off first, or /tool-choice auto",
			q.ToolChoice, thinkingName(q))
	}
	return nil
}

// checkToolChoice refuses a tool_choice that names a tool not configured.
func checkToolChoice(choice string, tools []string) error {
	switch choice {
	case "", "auto", "any", "none":
		return nil
	}
	for _, t := range tools {
		if t == choice {
			return nil
		}
	}
	if len(tools) == 0 {
		return fmt.Errorf("no tool named %q: no tools are configured (--tools FILE.json or the profile's [[tools]]); use auto, any, none or off", choice)
	}
	return fmt.Errorf("no tool named %q: the tools are %s; or use auto, any, none or off", choice, strings.Join(tools, ", "))
}

// Completions are the commands Tab offers for input: "/" and part of a
// name, with no space yet. Each is "/name " (a space follows, ready for an
// argument or for enter), in the order help lists them; several mean the
// name is ambiguous, and Tab cycles through them. Aliases are not offered.
// /model completes from models, the service's list (nil before it is
// known).
func Completions(input string, models *Models) []string {
	typed := strings.TrimLeftFunc(input, unicode.IsSpace)
	if out, ok := argCompletions(typed, models); ok {
		return out
	}
	if !strings.HasPrefix(typed, "/") || strings.IndexFunc(typed, unicode.IsSpace) >= 0 {
		return nil
	}
	var out []string
	for _, c := range slashPrefixMatches(strings.ToLower(typed[1:])) {
		out = append(out, "/"+c.name+" ")
	}
	return out
}

// slashHint is the line shown under the input while a command is typed. While
// the name is partial it lists the matching commands as "/name ARGS — help",
// joined by "  ·  ", as many as fit in width and then "…"; once a space follows
// the name it describes that command alone. It is "" when input is not a slash
// command (see isSlash) or no command matches. The hint is plain text, never
// wider than width runes.
func Hint(input string, width int) string {
	if width > 0 && strings.TrimSpace(input) == "/" {
		items := make([]string, 0, len(slashCommands))
		for _, c := range slashCommands {
			items = append(items, "/"+c.name)
		}
		return slashFitHint(items, width)
	}
	if width <= 0 || !Is(input) {
		return ""
	}
	trimmed := strings.TrimLeftFunc(input, unicode.IsSpace)
	word, _ := splitSlash(trimmed)
	typed := strings.ToLower(word[1:])
	var items []string
	if len(word) == len(trimmed) { // no space after the name yet: it may be partial
		for _, c := range slashPrefixMatches(typed) {
			items = append(items, slashHintItem(c.name, c))
		}
		if len(items) == 0 {
			if c := lookupSlash(typed); c != nil { // an alias typed in full
				items = append(items, slashHintItem(typed, *c))
			}
		}
	} else if c := lookupSlash(typed); c != nil {
		items = append(items, slashHintItem(typed, *c))
	}
	return slashFitHint(items, width)
}

// helpUsageWidth is the widest usage that sets the column of the help.
const helpUsageWidth = 34

// HelpLines is one line per command, "/name ARGS  help", with the help
// texts aligned, for the help screen; a usage wider than helpUsageWidth
// has its help two spaces after it.
func HelpLines() []string {
	usages := make([]string, len(slashCommands))
	widest := 0
	for i, c := range slashCommands {
		usages[i] = strings.TrimSpace("/" + c.name + " " + c.args)
		if n := utf8.RuneCountInString(usages[i]); n <= helpUsageWidth {
			widest = max(widest, n) // a longer one does not push every help aside
		}
	}
	lines := make([]string, len(slashCommands))
	for i, c := range slashCommands {
		help := c.help
		if len(c.aliases) > 0 {
			help += " (also /" + strings.Join(c.aliases, ", /") + ")"
		}
		pad := strings.Repeat(" ", max(widest-utf8.RuneCountInString(usages[i]), 0))
		lines[i] = usages[i] + pad + "  " + help
	}
	return lines
}

// slashModel sets the model: one word, no spaces.
// slashImageParams returns a copy of p whose image settings can be changed.
func slashImageParams(p session.Params) session.Params {
	q := p.Clone()
	if q.Image == nil {
		q.Image = &session.ImageParams{}
	}
	return q
}

func slashImage(arg string, p session.Params) (Result, error) {
	return Result{Action: ActionImage, Params: p.Clone(), Arg: strings.TrimSpace(arg)}, nil
}

func slashSize(arg string, p session.Params) (Result, error) {
	size := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(arg)), "x", "*")
	w, h, err := api.ParseSize(size)
	if err != nil || arg == "" || w > session.MaxImageSide || h > session.MaxImageSide || w*h > session.MaxImagePixels {
		return Result{Params: p.Clone()}, fmt.Errorf("size must be W*H (or WxH), each side a whole number from 1 to %d and at most %d megapixels in all, like 1024*1024; got %q",
			session.MaxImageSide, session.MaxImagePixels/1_000_000, arg)
	}
	q := slashImageParams(p)
	q.Image.Size = size
	return slashSet(q, "image size "+size), nil
}

func slashNegative(arg string, p session.Params) (Result, error) {
	q := slashImageParams(p)
	q.Image.NegativePrompt = strings.TrimSpace(arg)
	if q.Image.NegativePrompt == "" {
		return slashSet(q, "negative prompt cleared"), nil
	}
	return slashSet(q, "negative prompt set"), nil
}

func slashImageModel(arg string, p session.Params) (Result, error) {
	name := strings.TrimSpace(arg)
	if name == "" || strings.ContainsAny(name, " \t") {
		return Result{Params: p.Clone()}, errors.New("usage: /image-model NAME")
	}
	q := slashImageParams(p)
	q.Image.Model = name
	return slashSet(q, "image model "+name), nil
}

// slashOnOff sets a boolean image setting from "on" or "off".
func slashOnOff(field string, ref func(*session.ImageParams) **bool) func(string, session.Params) (Result, error) {
	return func(arg string, p session.Params) (Result, error) {
		var v bool
		switch strings.ToLower(strings.TrimSpace(arg)) {
		case "on", "true", "yes":
			v = true
		case "off", "false", "no":
		default:
			return Result{Params: p.Clone()}, fmt.Errorf("%s must be on or off, got %q", field, arg)
		}
		q := slashImageParams(p)
		*ref(q.Image) = &v
		state := "off"
		if v {
			state = "on"
		}
		return slashSet(q, field+" "+state), nil
	}
}

func slashOpen(arg string, p session.Params) (Result, error) {
	if strings.TrimSpace(arg) == "" {
		return Result{Action: ActionOpen, Params: p.Clone()}, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(arg))
	if err != nil || n < 1 {
		return Result{Params: p.Clone()}, fmt.Errorf("usage: /open [N], with N the image number from 1; got %q", arg)
	}
	return Result{Action: ActionOpen, Params: p.Clone(), N: n}, nil
}

// slashAttach reads /attach PATH, /attach image N and /attach clipboard.
func slashAttach(arg string, p session.Params) (Result, error) {
	arg = strings.TrimSpace(arg)
	res := Result{Action: ActionAttach, Params: p.Clone()}
	switch {
	case arg == "":
		return Result{Params: res.Params}, errors.New("usage: /attach PATH (tab completes it), /attach image N, or /attach clipboard")
	case arg == "clipboard":
		res.Arg = arg
		return res, nil
	}
	if rest, ok := strings.CutPrefix(arg, "image"); ok && (rest == "" || rest[0] == ' ') {
		rest = strings.TrimSpace(rest)
		if rest == "" {
			res.N = 0 // the last image saved
			res.Arg = "image"
			return res, nil
		}
		if n, err := strconv.Atoi(rest); err == nil && n >= 1 {
			res.N, res.Arg = n, "image"
			return res, nil
		}
		if _, err := strconv.Atoi(rest); err == nil {
			return Result{Params: res.Params}, fmt.Errorf("usage: /attach image N, with N the image number from 1; got %q", rest)
		}
	}
	// "/attach @notes.md" and "/attach @\"my notes.md\"" mean the file.
	res.Arg = unquote(strings.TrimPrefix(arg, "@"))
	return res, nil
}

// unquote removes the quotes around a path typed "like this" or 'this'.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// slashDetach reads /detach [N].
func slashDetach(arg string, p session.Params) (Result, error) {
	res := Result{Action: ActionDetach, Params: p.Clone()}
	if strings.TrimSpace(arg) == "" {
		return res, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(arg))
	if err != nil || n < 1 {
		return Result{Params: res.Params}, fmt.Errorf("usage: /detach [N], with N the attachment's number from 1; got %q", arg)
	}
	res.N = n
	return res, nil
}

// slashCopy reads /copy, /copy N and /copy code [N].
func slashCopy(arg string, p session.Params) (Result, error) {
	res := Result{Action: ActionCopy, Params: p.Clone()}
	f := strings.Fields(strings.ToLower(arg))
	if len(f) > 0 && f[0] == "code" {
		res.Arg, f = "code", f[1:]
	}
	bad := fmt.Errorf("usage: /copy (the last reply), /copy N (message N from the end, 1 the last), /copy code [N] (code block N of the last reply, its last by default); got %q", arg)
	switch len(f) {
	case 0:
	case 1:
		n, err := strconv.Atoi(f[0])
		if err != nil || n < 1 {
			return Result{Params: p.Clone()}, bad
		}
		res.N = n
	default:
		return Result{Params: p.Clone()}, bad
	}
	return res, nil
}

// slashCite reads /cite on and /cite off.
func slashCite(arg string, p session.Params) (Result, error) {
	q := p.Clone()
	switch strings.ToLower(strings.TrimSpace(arg)) {
	case "on", "true", "yes":
		q.Cite = true
		return slashSet(q, "citations on: documents are sent asking for them"), nil
	case "off", "false", "no":
		q.Cite = false
		return slashSet(q, "citations off"), nil
	}
	return Result{Params: p.Clone()}, fmt.Errorf("usage: /cite on|off, got %q", arg)
}

func slashToolChoice(arg string, p session.Params) (Result, error) {
	arg = strings.TrimSpace(arg)
	if arg == "" || strings.ContainsAny(arg, " \t") {
		return Result{Params: p.Clone()}, errors.New("usage: /tool-choice auto|any|none|NAME (or off)")
	}
	q := p.Clone()
	if strings.EqualFold(arg, "off") || strings.EqualFold(arg, "default") {
		q.ToolChoice = ""
		return slashSet(q, "tool_choice off (server default)"), nil
	}
	q.ToolChoice = arg
	return slashSet(q, "tool_choice "+arg), nil
}

// thinkingName is the thinking setting as /thinking takes it: "adaptive
// high", "adaptive" or the budget.
func thinkingName(q session.Params) string {
	if q.Thinking != "" {
		return strings.TrimSpace(q.Thinking + " " + q.Effort)
	}
	return strconv.Itoa(q.ThinkingBudget)
}

func slashThinking(arg string, p session.Params) (Result, error) {
	arg = strings.TrimSpace(arg)
	q := p.Clone()
	if slashOff(arg) {
		q.ThinkingBudget, q.Thinking, q.Effort = 0, "", ""
		return slashSet(q, "thinking off"), nil
	}
	if f := strings.Fields(strings.ToLower(arg)); len(f) > 0 && f[0] == api.ThinkingAdaptive {
		if len(f) > 2 || len(f) == 2 && !slices.Contains(api.Efforts, f[1]) {
			return Result{Params: p.Clone()}, fmt.Errorf("usage: /thinking adaptive [%s]; got %q", strings.Join(api.Efforts, "|"), arg)
		}
		q.ThinkingBudget, q.Thinking, q.Effort = 0, api.ThinkingAdaptive, ""
		if len(f) == 2 {
			q.Effort = f[1]
		}
		return slashSet(q, "thinking "+thinkingName(q)), nil
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1024 {
		return Result{Params: p.Clone()}, fmt.Errorf("/thinking takes adaptive [%s], a budget from 1024 to below max_tokens (%d), or off; got %q", strings.Join(api.Efforts, "|"), p.MaxTokens, arg)
	}
	if p.MaxTokens > 0 && n >= p.MaxTokens {
		return Result{Params: p.Clone()}, fmt.Errorf("/thinking %d conflicts with /max-tokens %d: the thinking budget must be below max_tokens; /max-tokens %d or more first",
			n, p.MaxTokens, n+1)
	}
	q.ThinkingBudget, q.Thinking, q.Effort = n, "", ""
	return slashSet(q, fmt.Sprintf("thinking budget %d", n)), nil
}

func slashRename(arg string, p session.Params) (Result, error) {
	title := strings.Join(strings.Fields(arg), " ")
	if title == "" {
		return Result{Params: p.Clone()}, errors.New("usage: /rename TITLE")
	}
	if n := utf8.RuneCountInString(title); n > 200 {
		return Result{Params: p.Clone()}, fmt.Errorf("a title has at most 200 characters, this one has %d", n)
	}
	return Result{Action: ActionRename, Params: p.Clone(), Arg: title}, nil
}

func slashExport(arg string, p session.Params) (Result, error) {
	return Result{Action: ActionExport, Params: p.Clone(), Arg: strings.TrimSpace(arg)}, nil
}

func slashMCP(arg string, p session.Params) (Result, error) {
	f := strings.Fields(arg)
	if len(f) != 0 && (len(f) != 2 || f[0] != "on" && f[0] != "off") {
		return Result{}, errors.New("usage: /mcp (list the servers), /mcp on NAME or /mcp off NAME")
	}
	return Result{Action: ActionMCP, Params: p.Clone(), Arg: strings.Join(f, " ")}, nil
}

func slashModel(arg string, p session.Params) (Result, error) {
	if arg == "" {
		return Result{}, errors.New("usage: /model NAME")
	}
	if strings.IndexFunc(arg, unicode.IsSpace) >= 0 {
		return Result{}, fmt.Errorf("usage: /model NAME: a model name has no spaces, got %q", arg)
	}
	q := p.Clone()
	q.Model = arg
	return slashSet(q, "model "+arg), nil
}

// slashSystem sets the system prompt to the rest of the line, clears it with
// "off", or asks for the editor when given nothing.
func slashSystem(arg string, p session.Params) (Result, error) {
	q := p.Clone()
	switch {
	case arg == "":
		return Result{Action: ActionEditSystem, Params: q}, nil
	case strings.EqualFold(arg, "off"):
		q.System = ""
		return slashSet(q, "system prompt off"), nil
	}
	q.System = arg
	return slashSet(q, "system prompt "+strconv.Quote(slashShorten(strings.Join(strings.Fields(arg), " "), 40))), nil
}

// slashUnitFloat makes the run of a setting that is a number from 0 to 1 or off;
// field is its name in notices and errors, and ref points at it in the settings.
func slashUnitFloat(field string, ref func(*session.Params) **float64) func(string, session.Params) (Result, error) {
	return func(arg string, p session.Params) (Result, error) {
		q := p.Clone()
		if slashOff(arg) {
			*ref(&q) = nil
			return slashSet(q, field+" off (server default)"), nil
		}
		v, err := strconv.ParseFloat(arg, 64)
		if err != nil || math.IsNaN(v) || v < 0 || v > 1 {
			return Result{}, fmt.Errorf("%s must be a number from 0 to 1 (or off), got %q", field, arg)
		}
		v += 0 // turn -0 into 0
		*ref(&q) = &v
		return slashSet(q, field+" "+strconv.FormatFloat(v, 'g', -1, 64)), nil
	}
}

// slashMaxTokensRun sets max_tokens, a whole number from 1 to
// slashMaxTokens; off (or default) sets muse's default, since the service
// needs one.
func slashMaxTokensRun(arg string, p session.Params) (Result, error) {
	n, err := strconv.Atoi(arg)
	if slashOff(arg) {
		n, err = api.DefaultMaxTokens, nil
	}
	if err != nil || n < 1 || n > slashMaxTokens {
		return Result{}, fmt.Errorf("max_tokens must be a whole number from 1 to %d (or off for %d), got %q", slashMaxTokens, api.DefaultMaxTokens, arg)
	}
	q := p.Clone()
	q.MaxTokens = n
	return slashSet(q, "max_tokens "+strconv.Itoa(n)), nil
}

// slashTopK sets top_k, a whole number of at least 1, or unsets it with off.
func slashTopK(arg string, p session.Params) (Result, error) {
	q := p.Clone()
	if slashOff(arg) {
		q.TopK = nil
		return slashSet(q, "top_k off (server default)"), nil
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1 {
		return Result{}, fmt.Errorf("top_k must be a whole number of 1 or more (or off), got %q", arg)
	}
	q.TopK = &n
	return slashSet(q, "top_k "+strconv.Itoa(n)), nil
}

// slashStop sets the stop sequences, or clears them when given nothing or off.
func slashStop(arg string, p session.Params) (Result, error) {
	q := p.Clone()
	if arg == "" || strings.EqualFold(arg, "off") {
		q.StopSequences = nil
		return slashSet(q, "stop sequences off"), nil
	}
	seqs, err := slashSplitStop(arg)
	if err != nil {
		return Result{}, err
	}
	q.StopSequences = seqs
	quoted := make([]string, len(seqs))
	for i, s := range seqs {
		quoted[i] = strconv.Quote(slashShorten(s, 20))
	}
	return slashSet(q, "stop sequences "+slashShorten(strings.Join(quoted, ", "), 60)), nil
}

// slashSplitStop splits the argument of /stop into sequences: words separated by
// whitespace, or double-quoted text that may hold spaces and the escapes
// \" \\ \n and \t. Repeated sequences are kept once.
func slashSplitStop(arg string) ([]string, error) {
	const form = `stop sequences are words or "quoted text" with \" \\ \n \t escapes`
	var seqs []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			seqs = append(seqs, s)
		}
	}
	rs := []rune(arg)
	for i := 0; i < len(rs); {
		if unicode.IsSpace(rs[i]) {
			i++
			continue
		}
		if rs[i] != '"' {
			start := i
			for i < len(rs) && !unicode.IsSpace(rs[i]) {
				i++
			}
			add(string(rs[start:i]))
			continue
		}
		var b strings.Builder
		closed := false
		for i++; i < len(rs); i++ {
			r := rs[i]
			if r == '"' {
				closed = true
				i++
				break
			}
			if r != '\\' {
				b.WriteRune(r)
				continue
			}
			if i+1 == len(rs) {
				break
			}
			i++
			switch rs[i] {
			case '"', '\\':
				b.WriteRune(rs[i])
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				return nil, fmt.Errorf(`unknown escape \%c in /stop: %s`, rs[i], form)
			}
		}
		switch {
		case !closed:
			return nil, fmt.Errorf("unterminated quote in /stop: %s", form)
		case i < len(rs) && !unicode.IsSpace(rs[i]):
			return nil, fmt.Errorf("text right after a closing quote in /stop: %s", form)
		case b.Len() == 0:
			return nil, fmt.Errorf(`empty stop sequence "" in /stop: %s`, form)
		}
		add(b.String())
	}
	return seqs, nil
}

// slashJust makes the run of a command that takes no arguments and only asks for action.
func slashJust(action Action) func(string, session.Params) (Result, error) {
	return func(_ string, p session.Params) (Result, error) {
		return Result{Action: action, Params: p.Clone()}, nil
	}
}

// slashSet is the result of a settings command: the new settings q and a notice
// saying what changed and when it takes effect.
func slashSet(q session.Params, what string) Result {
	return Result{Action: ActionSet, Params: q, Notice: what + FromNext}
}

// slashOff reports whether arg asks to unset an optional setting.
func slashOff(arg string) bool {
	return strings.EqualFold(arg, "off") || strings.EqualFold(arg, "default")
}

// splitSlash splits input, without its surrounding whitespace, into its first
// word and the rest, trimmed.
func splitSlash(input string) (word, rest string) {
	s := strings.TrimSpace(input)
	i := strings.IndexFunc(s, unicode.IsSpace)
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimSpace(s[i:])
}

// lookupSlash finds the command called name (lower case, without the slash),
// by its name or an alias; nil when there is none.
func lookupSlash(name string) *slashCommand {
	name = strings.ToLower(name)
	for i, c := range slashCommands {
		if c.name == name {
			return &slashCommands[i]
		}
		for _, a := range c.aliases {
			if a == name {
				return &slashCommands[i]
			}
		}
	}
	return nil
}

// slashPrefixMatches lists the commands whose name (not alias) starts with partial.
func slashPrefixMatches(partial string) []slashCommand {
	var out []slashCommand
	for _, c := range slashCommands {
		if strings.HasPrefix(c.name, partial) {
			out = append(out, c)
		}
	}
	return out
}

// slashSuggestion names the commands an unknown name was probably meant to
// be, as "/a", "/a or /b" or "/a, /b or /c": the names it begins, when there
// are one to three, or else the names nearest to it within an edit distance of
// 2 (and less than its length). It is "" when none is near.
func slashSuggestion(typed string) string {
	if typed == "" {
		return ""
	}
	var names []string
	for _, c := range slashCommands {
		names = append(names, c.name)
		names = append(names, c.aliases...)
	}
	var found []string
	for _, n := range names {
		if strings.HasPrefix(n, typed) {
			found = append(found, n)
		}
	}
	if len(found) == 0 || len(found) > 3 {
		found = nil
		best := 3
		for _, n := range names {
			d := slashEditDistance(typed, n)
			if d >= utf8.RuneCountInString(typed) || d > best {
				continue
			}
			if d < best {
				best, found = d, nil
			}
			found = append(found, n)
		}
	}
	if len(found) == 0 {
		return ""
	}
	for i := range found {
		found[i] = "/" + found[i]
	}
	if len(found) == 1 {
		return found[0]
	}
	return strings.Join(found[:len(found)-1], ", ") + " or " + found[len(found)-1]
}

// slashEditDistance is the number of single-rune insertions, deletions,
// substitutions and swaps of neighbours that turn a into b.
func slashEditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// d[i][j] is the distance between ra[:i] and rb[:j].
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// slashHintItem describes command c, called by name, as "/name ARGS — help".
func slashHintItem(name string, c slashCommand) string {
	usage := "/" + name
	if c.args != "" {
		usage += " " + c.args
	}
	return usage + " — " + c.help
}

// slashFitHint joins items by "  ·  " within width runes; when they do not all fit
// it keeps as many as fit and ends with "…", cutting the first if need be.
func slashFitHint(items []string, width int) string {
	const sep, more = "  ·  ", "…"
	if len(items) == 0 || width <= 0 {
		return ""
	}
	if all := strings.Join(items, sep); utf8.RuneCountInString(all) <= width {
		return all
	}
	for k := len(items) - 1; k > 0; k-- {
		s := strings.Join(items[:k], sep) + sep + more
		if utf8.RuneCountInString(s) <= width {
			return s
		}
	}
	// Not even one item and the "…" fit: cut the first item.
	if first := []rune(items[0]); len(first) <= width-2 {
		return items[0] + " " + more
	}
	return string([]rune(items[0])[:width-1]) + more
}

// slashShorten cuts s to at most n runes, ending it with "…" when it was cut.
func slashShorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// slashLetter reports whether r is a letter from a to z, either case.
func slashLetter(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
}
