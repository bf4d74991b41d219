package slash

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"muse/api"
	"muse/session"
)

// slashF64 and slashInt return pointers to their argument, for building settings.
func slashF64(v float64) *float64 { return &v }

func slashInt(v int) *int { return &v }

// slashBase is the settings the command tests start from; every field is set
// so a change to the wrong field shows.
func slashBase() session.Params {
	return session.Params{
		Model:         "base-model",
		MaxTokens:     1024,
		System:        "be brief",
		Temperature:   slashF64(0.5),
		TopP:          slashF64(0.9),
		TopK:          slashInt(40),
		StopSequences: []string{"STOP"},
	}
}

// slashWith returns slashBase changed by edit.
func slashWith(edit func(p *session.Params)) session.Params {
	p := slashBase()
	edit(&p)
	return p
}

func TestRunSlashCommands(t *testing.T) {
	tests := []struct {
		input  string
		action Action
		params session.Params // the settings expected in the result
		notice string         // a part the notice must contain; "" means the notice must be empty
	}{
		{"/model other-model", ActionSet, slashWith(func(p *session.Params) { p.Model = "other-model" }), "model other-model · from the next request"},
		{"  /MODEL   spaced-model  ", ActionSet, slashWith(func(p *session.Params) { p.Model = "spaced-model" }), "model spaced-model"},
		{"/system You are  a pirate. ", ActionSet, slashWith(func(p *session.Params) { p.System = "You are  a pirate." }), `system prompt "You are a pirate." · from the next request`},
		{"/system line one\nline two", ActionSet, slashWith(func(p *session.Params) { p.System = "line one\nline two" }), "system prompt"},
		{"/system", ActionEditSystem, slashBase(), ""},
		{"/system off", ActionSet, slashWith(func(p *session.Params) { p.System = "" }), "system prompt off"},
		{"/system OFF", ActionSet, slashWith(func(p *session.Params) { p.System = "" }), "system prompt off"},
		{"/temperature 0.7", ActionSet, slashWith(func(p *session.Params) { p.Temperature = slashF64(0.7) }), "temperature 0.7 · from the next request"},
		{"/temperature 0", ActionSet, slashWith(func(p *session.Params) { p.Temperature = slashF64(0) }), "temperature 0 "},
		{"/temperature -0", ActionSet, slashWith(func(p *session.Params) { p.Temperature = slashF64(0) }), "temperature 0 "},
		{"/temperature 1", ActionSet, slashWith(func(p *session.Params) { p.Temperature = slashF64(1) }), "temperature 1 "},
		{"/Temperature off", ActionSet, slashWith(func(p *session.Params) { p.Temperature = nil }), "temperature off"},
		{"/temperature default", ActionSet, slashWith(func(p *session.Params) { p.Temperature = nil }), "temperature off"},
		{"/max-tokens 2048", ActionSet, slashWith(func(p *session.Params) { p.MaxTokens = 2048 }), "max_tokens 2048 · from the next request"},
		{"/max-tokens 1", ActionSet, slashWith(func(p *session.Params) { p.MaxTokens = 1 }), "max_tokens 1 "},
		{"/max-tokens 1000000", ActionSet, slashWith(func(p *session.Params) { p.MaxTokens = 1000000 }), "max_tokens 1000000"},
		{"/top-p 0.25", ActionSet, slashWith(func(p *session.Params) { p.TopP = slashF64(0.25) }), "top_p 0.25 · from the next request"},
		{"/top-p off", ActionSet, slashWith(func(p *session.Params) { p.TopP = nil }), "top_p off"},
		{"/top-k 5", ActionSet, slashWith(func(p *session.Params) { p.TopK = slashInt(5) }), "top_k 5 · from the next request"},
		{"/top-k off", ActionSet, slashWith(func(p *session.Params) { p.TopK = nil }), "top_k off"},
		{"/stop ###", ActionSet, slashWith(func(p *session.Params) { p.StopSequences = []string{"###"} }), `stop sequences "###" · from the next request`},
		{`/stop "END OF" ###`, ActionSet, slashWith(func(p *session.Params) { p.StopSequences = []string{"END OF", "###"} }), `stop sequences "END OF", "###"`},
		{`/stop "say \"hi\"" "a\\b" "x\ny" "\t"`, ActionSet, slashWith(func(p *session.Params) { p.StopSequences = []string{`say "hi"`, `a\b`, "x\ny", "\t"} }), `"x\ny"`},
		{`/stop a\nb`, ActionSet, slashWith(func(p *session.Params) { p.StopSequences = []string{`a\nb`} }), "stop sequences"},
		{"/stop x  y x", ActionSet, slashWith(func(p *session.Params) { p.StopSequences = []string{"x", "y"} }), `"x", "y"`},
		{`/stop "off"`, ActionSet, slashWith(func(p *session.Params) { p.StopSequences = []string{"off"} }), `"off"`},
		{"/stop", ActionSet, slashWith(func(p *session.Params) { p.StopSequences = nil }), "stop sequences off"},
		{"/stop off", ActionSet, slashWith(func(p *session.Params) { p.StopSequences = nil }), "stop sequences off"},
		{"/retry", ActionRetry, slashBase(), ""},
		{"/continue", ActionContinue, slashBase(), ""},
		{"/copy", ActionCopy, slashBase(), ""},
		{"/info", ActionInfo, slashBase(), ""},
		{"/clear", ActionClear, slashBase(), ""},
		{"/help", ActionHelp, slashBase(), ""},
		{"/quit", ActionQuit, slashBase(), ""},
		{"/exit", ActionQuit, slashBase(), ""},
		{" /RETRY \n", ActionRetry, slashBase(), ""},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			in := slashBase()
			res, err := Run(tt.input, in, Env{})
			if err != nil {
				t.Fatalf("Run(%q): %v", tt.input, err)
			}
			if res.Action != tt.action {
				t.Errorf("action = %d, want %d", res.Action, tt.action)
			}
			if !reflect.DeepEqual(res.Params, tt.params) {
				t.Errorf("params = %+v, want %+v", res.Params, tt.params)
			}
			if tt.notice == "" && res.Notice != "" || !strings.Contains(res.Notice, tt.notice) {
				t.Errorf("notice = %q, want it to contain %q", res.Notice, tt.notice)
			}
			if !reflect.DeepEqual(in, slashBase()) {
				t.Errorf("runSlash changed its input settings to %+v", in)
			}
		})
	}
}

func TestRunSlashErrors(t *testing.T) {
	tests := []struct {
		input string
		want  []string // parts the error must contain
	}{
		{"/model", []string{"usage: /model NAME"}},
		{"/model   ", []string{"usage: /model NAME"}},
		{"/model two words", []string{"usage: /model NAME", `"two words"`}},
		{"/temperature 1.5", []string{`temperature must be a number from 0 to 1 (or off), got "1.5"`}},
		{"/temperature -0.1", []string{"from 0 to 1", `got "-0.1"`}},
		{"/temperature", []string{"from 0 to 1", `got ""`}},
		{"/temperature warm", []string{"from 0 to 1", `"warm"`}},
		{"/temperature NaN", []string{"from 0 to 1", `"NaN"`}},
		{"/temperature inf", []string{"from 0 to 1", `"inf"`}},
		{"/temperature 0.5 0.7", []string{"from 0 to 1", `"0.5 0.7"`}},
		{"/max-tokens 0", []string{"max_tokens must be a whole number from 1 to 1000000", `got "0"`}},
		{"/max-tokens 1000001", []string{"from 1 to 1000000", `"1000001"`}},
		{"/max-tokens 1.5", []string{"from 1 to 1000000", `"1.5"`}},
		{"/max-tokens", []string{"from 1 to 1000000"}},
		{"/top-p 2", []string{"top_p must be a number from 0 to 1 (or off)", `got "2"`}},
		{"/top-p -inf", []string{"top_p", "from 0 to 1"}},
		{"/top-k 0", []string{"top_k must be a whole number of 1 or more (or off)", `got "0"`}},
		{"/top-k -3", []string{"top_k", "1 or more", `"-3"`}},
		{"/top-k 2.5", []string{"top_k", "1 or more"}},
		{"/top-k 99999999999999999999", []string{"top_k", "1 or more"}},
		{`/stop "END OF`, []string{"unterminated quote", `"quoted text"`}},
		{`/stop ok "trailing\`, []string{"unterminated quote"}},
		{`/stop "bad \q escape"`, []string{`unknown escape \q`, `\" \\ \n \t`}},
		{`/stop "a"b`, []string{"after a closing quote"}},
		{`/stop ""`, []string{"empty stop sequence"}},
		{"/retry now", []string{"/retry takes no arguments"}},
		{"/continue please", []string{"/continue takes no arguments"}},
		{"/copy two", []string{"usage: /copy", "/copy code [N]"}},
		{"/copy 0", []string{"usage: /copy"}},
		{"/copy code 1 2", []string{"usage: /copy"}},
		{"/copy code -1", []string{"usage: /copy"}},
		{"/size 0*10", []string{"from 1 to 8192"}},
		{"/size 8193*10", []string{"from 1 to 8192", `"8193*10"`}},
		{"/size 8192*8192", []string{"at most 40 megapixels"}},
		{"/size 7000x7000", []string{"at most 40 megapixels"}},
		{"/size big", []string{"W*H"}},
		{"/open 0", []string{"usage: /open [N]"}},
		{"/tool-choice get_time", []string{`no tool named "get_time"`, "no tools are configured"}},
		{"/info x", []string{"/info takes no arguments"}},
		{"/clear all", []string{"/clear takes no arguments"}},
		{"/help me", []string{"/help takes no arguments"}},
		{"/QUIT now", []string{"/quit takes no arguments"}},
		{"/exit now", []string{"/exit takes no arguments"}},
		{"/foo", []string{"unknown command /foo: try /help"}},
		{"/temprature 1", []string{"unknown command /temprature", "did you mean /temperature?", "try /help"}},
		{"/tempreature 1", []string{"did you mean /temperature?"}},
		{"/rerty", []string{"did you mean /retry?"}},
		{"/temp 1", []string{"did you mean /temperature?"}},
		{"/maxtokens 9", []string{"did you mean /max-tokens?"}},
		{"/top 5", []string{"did you mean /top-p or /top-k?"}},
		{"/exi", []string{"did you mean /exit?"}},
		{"/to", []string{"did you mean /top-p, /top-k or /tool-choice?"}},
		{"/ret 1", []string{"did you mean /retry?"}},
		{"hello", []string{"not a command"}},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			in := slashBase()
			res, err := Run(tt.input, in, Env{})
			if err == nil {
				t.Fatalf("Run(%q) = %+v, want an error", tt.input, res)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if !reflect.DeepEqual(in, slashBase()) {
				t.Errorf("runSlash changed its input settings to %+v", in)
			}
			if !reflect.DeepEqual(res.Params, slashBase()) {
				t.Fatalf("error result carries changed settings %+v", res.Params)
			}
			res.Params.StopSequences[0] = "changed"
			*res.Params.Temperature = 0.1
			if !reflect.DeepEqual(in, slashBase()) {
				t.Errorf("changing the error result changed the input to %+v", in)
			}
		})
	}
}

// TestRunSlashUnknownWithoutSuggestion checks that a name near no command gets
// the plain error, with no suggestion.
func TestRunSlashUnknownWithoutSuggestion(t *testing.T) {
	for _, input := range []string{"/foo", "/xyzzy 3", "/zz", "/tx"} {
		_, err := Run(input, slashBase(), Env{})
		if err == nil || strings.Contains(err.Error(), "did you mean") || !strings.HasSuffix(err.Error(), ": try /help") {
			t.Errorf("Run(%q) error = %v, want a plain unknown-command error", input, err)
		}
	}
}

// TestRunSlashResultDoesNotAlias checks that the settings in a result share no
// memory with the settings given, so changing one never changes the other.
func TestRunSlashResultDoesNotAlias(t *testing.T) {
	for _, input := range []string{"/model m", "/retry", "/system", "/temperature 0.2", "/stop a b"} {
		in := slashBase()
		res, err := Run(input, in, Env{})
		if err != nil {
			t.Fatalf("Run(%q): %v", input, err)
		}
		*res.Params.TopP = 0.1
		*res.Params.TopK = 1
		res.Params.StopSequences[0] = "changed"
		if res.Params.Temperature != nil {
			*res.Params.Temperature = 0.3
		}
		if !reflect.DeepEqual(in, slashBase()) {
			t.Errorf("%s: changing the result changed the input to %+v", input, in)
		}
	}
}

func TestIsSlashCommand(t *testing.T) {
	tests := []struct {
		input string
		want  bool
	}{
		{"/temperature 0.5", true},
		{"  /temperature 0.5", true},
		{"/TEMPERATURE 0.5", true},
		{"/retry", true},
		{"/max-tokens 10", true},
		{"/unknowncmd", true},
		{"/unknown-cmd2 with args", true},
		{"/usr/bin/env is a path", false},
		{"/etc/hosts", false},
		{"/ hello", false},
		{"/", false},
		{"//", false},
		{"//x", false},
		{"/1", false},
		{"/1abc", false},
		{"/-x", false},
		{"/hello, world", false},
		{"/über", false},
		{"hello /retry", false},
		{"", false},
		{"   ", false},
	}
	for _, tt := range tests {
		if got := Is(tt.input); got != tt.want {
			t.Errorf("Is(%q) = %v, want %v", tt.input, got, tt.want)
		}
	}
}

func TestCompletions(t *testing.T) {
	tests := []struct {
		input string
		want  []string
	}{
		{"/te", []string{"/temperature "}},
		{"/TE", []string{"/temperature "}},
		{"  /te", []string{"/temperature "}},
		{"/temperature", []string{"/temperature "}},
		{"/ret", []string{"/retry "}}, // a unique completion always ends in a space
		{"/retry", []string{"/retry "}},
		{"/re", []string{"/retry ", "/rename "}},
		{"/q", []string{"/quit "}},
		{"/ma", []string{"/max-tokens "}},
		{"/top", []string{"/top-p ", "/top-k "}},
		{"/t", []string{"/temperature ", "/top-p ", "/top-k ", "/thinking ", "/tool-choice ", "/theme "}},
		{"/ex", []string{"/extend ", "/export "}},
		{"/co", []string{"/continue ", "/copy ", "/compact ", "/context "}},
		{"/", nil}, // every command: not offered by tab
		{"/zz", nil},
		{"/exi", nil}, // aliases are not offered
		{"/te ", nil},
		{"/temperature 0", nil},
		{"hello", nil},
		{"", nil},
	}
	for _, tt := range tests {
		got := Completions(tt.input, nil)
		if tt.input == "/" {
			if len(got) != len(slashCommands) {
				t.Errorf("Completions(%q) offers %d commands, want all %d", tt.input, len(got), len(slashCommands))
			}
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Completions(%q) = %q, want %q", tt.input, got, tt.want)
		}
	}
}

func TestSlashHint(t *testing.T) {
	tempLine := "/temperature X — sampling temperature, 0 to 1 (off: server default)"
	tests := []struct {
		input string
		width int
		want  string   // the exact hint, when not ""
		has   []string // parts the hint must contain
		lacks []string // parts the hint must not contain
	}{
		{input: "/temperature 0.5", width: 200, want: tempLine},
		{input: "/temperature ", width: 200, want: tempLine},
		{input: "/te", width: 200, want: tempLine},
		{input: "/TEMP", width: 200, want: tempLine},
		{input: "/temperature", width: 30, want: "/temperature X — sampling tem…"},
		{input: "/retry", width: 200, want: "/retry — regenerate the last reply"},
		{input: "/exit", width: 200, want: "/exit — quit muse"},
		{input: "/exit ", width: 200, want: "/exit — quit muse"},
		{input: "/t", width: 700, has: []string{"/temperature X", "/top-p X", "/top-k N", "  ·  "}, lacks: []string{"…", "/model", "/stop"}},
		{input: "/t", width: 100, has: []string{"/temperature X", "…"}, lacks: []string{"/top-k"}},
		{input: "/t", width: 20, want: "/temperature X — sa…"},
		{input: "/q", width: 200, want: "/quit — quit muse"},
		{input: "/exi", width: 200, want: ""}, // aliases are not offered
		{input: "/zz", width: 200, want: ""},
		{input: "/zz ", width: 200, want: ""},
		{input: "/temprature 1", width: 200, want: ""},
		{input: "/usr/bin/env", width: 200, want: ""},
		{input: "hello", width: 200, want: ""},
		{input: "/ hello", width: 200, want: ""},
		{input: "/te", width: 0, want: ""},
		{input: "/te", width: 1, want: "…"},
		{input: "/t", width: 67, want: "/temperature X — sampling temperature, 0 to 1 (off: server default…"},
		{input: "/t", width: 69, want: "/temperature X — sampling temperature, 0 to 1 (off: server default) …"},
	}
	for _, tt := range tests {
		got := Hint(tt.input, tt.width)
		if n := utf8.RuneCountInString(got); n > tt.width {
			t.Errorf("Hint(%q, %d) is %d runes wide: %q", tt.input, tt.width, n, got)
		}
		if strings.ContainsAny(got, "\n\x1b") {
			t.Errorf("Hint(%q, %d) = %q, want plain text on one line", tt.input, tt.width, got)
		}
		if tt.has == nil && got != tt.want {
			t.Errorf("Hint(%q, %d) = %q, want %q", tt.input, tt.width, got, tt.want)
		}
		for _, h := range tt.has {
			if !strings.Contains(got, h) {
				t.Errorf("Hint(%q, %d) = %q, want it to contain %q", tt.input, tt.width, got, h)
			}
		}
		for _, l := range tt.lacks {
			if strings.Contains(got, l) {
				t.Errorf("Hint(%q, %d) = %q, want it without %q", tt.input, tt.width, got, l)
			}
		}
	}
}

// TestSlashHintWidths checks every width for a few inputs: the hint always
// fits, is cut with "…" exactly when the full hint does not fit, and lists
// no aliases.
func TestSlashHintWidths(t *testing.T) {
	for _, input := range []string{"/", "/t", "/c", "/s", "/top-", "/stop \"x", "/quit"} {
		full := Hint(input, 10000)
		for width := 0; width <= utf8.RuneCountInString(full)+2; width++ {
			got := Hint(input, width)
			if n := utf8.RuneCountInString(got); n > width {
				t.Fatalf("Hint(%q, %d) is %d runes wide: %q", input, width, n, got)
			}
			cut := utf8.RuneCountInString(full) > width
			if cut != (got != full) || cut && width > 0 && !strings.HasSuffix(got, "…") {
				t.Fatalf("Hint(%q, %d) = %q; full hint %q", input, width, got, full)
			}
			if strings.Contains(got, "/exit") {
				t.Fatalf("Hint(%q, %d) = %q shows the alias /exit", input, width, got)
			}
		}
	}
}

func TestSlashHelpLines(t *testing.T) {
	lines := HelpLines()
	if len(lines) != len(slashCommands) {
		t.Fatalf("got %d help lines, want one for each of %d commands", len(lines), len(slashCommands))
	}
	col := -1
	for i, c := range slashCommands {
		line := lines[i]
		if !strings.HasPrefix(line, "/"+c.name) || !strings.HasSuffix(line, c.help) && !strings.Contains(line, c.help+" (also") {
			t.Errorf("line %d = %q, want /%s and its help %q", i, line, c.name, c.help)
		}
		at := strings.Index(line, c.help)
		if at < 0 {
			continue
		}
		if at = utf8.RuneCountInString(line[:at]); col < 0 {
			col = at
		} else if at != col && utf8.RuneCountInString("/"+c.name+" "+c.args) <= helpUsageWidth {
			t.Errorf("line %d = %q: help starts at column %d, want %d like the first line", i, line, at, col)
		}
	}
	want := map[string]bool{
		"/temperature X": true, "/max-tokens N|off": true, "/system [TEXT]": true, "/stop [SEQ…]": true, "/model NAME": true,
	}
	for _, line := range lines {
		for usage := range want {
			if strings.HasPrefix(line, usage+"  ") {
				delete(want, usage)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("help lines %q lack usages %v", lines, want)
	}
	last := lines[len(lines)-1]
	if !strings.Contains(last, "/exit") {
		t.Errorf("quit's help line %q does not mention its alias /exit", last)
	}
}

// TestSlashCommandTable checks the registry rows: names unique, lower case and
// valid command words (so isSlash accepts them), and every row complete.
func TestSlashCommandTable(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range slashCommands {
		for _, n := range append([]string{c.name}, c.aliases...) {
			if seen[n] {
				t.Errorf("command name %q is used twice", n)
			}
			seen[n] = true
			if n != strings.ToLower(n) || !Is("/"+n) {
				t.Errorf("command name %q must be lower case letters, digits and '-', starting with a letter", n)
			}
		}
		if c.help == "" || c.run == nil {
			t.Errorf("command %q lacks help or run", c.name)
		}
	}
}

func TestSlashEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"", "ab", 2},
		{"temprature", "temperature", 1},
		{"rerty", "retry", 1},
		{"kitten", "sitting", 3},
		{"top", "top-k", 2},
	}
	for _, tt := range tests {
		if got := slashEditDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("slashEditDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestCopyOpenAndToolChoiceArguments(t *testing.T) {
	tests := []struct {
		input  string
		tools  []string
		action Action
		arg    string
		n      int
	}{
		{"/copy", nil, ActionCopy, "", 0},
		{"/copy 2", nil, ActionCopy, "", 2},
		{"/copy code", nil, ActionCopy, "code", 0},
		{"/copy CODE 3", nil, ActionCopy, "code", 3},
		{"/open", nil, ActionOpen, "", 0},
		{"/open 2", nil, ActionOpen, "", 2},
		{"/tool-choice get_time", []string{"disk_usage", "get_time"}, ActionSet, "", 0},
		{"/tool-choice auto", nil, ActionSet, "", 0},
		{"/size 8192*4096", nil, ActionSet, "", 0},
		{"/size 1x1", nil, ActionSet, "", 0},
	}
	for _, tt := range tests {
		res, err := Run(tt.input, slashBase(), Env{Tools: tt.tools})
		if err != nil {
			t.Errorf("Run(%q): %v", tt.input, err)
			continue
		}
		if res.Action != tt.action || res.Arg != tt.arg || res.N != tt.n {
			t.Errorf("Run(%q) = action %d, arg %q, n %d; want %d, %q, %d", tt.input, res.Action, res.Arg, res.N, tt.action, tt.arg, tt.n)
		}
	}
	_, err := Run("/tool-choice rm_rf", slashBase(), Env{Tools: []string{"get_time"}})
	if err == nil || !strings.Contains(err.Error(), `no tool named "rm_rf": the tools are get_time`) {
		t.Errorf("an unknown tool was accepted or badly refused: %v", err)
	}
}

// /max-tokens off goes back to muse's default: the service needs a value.
func TestMaxTokensOff(t *testing.T) {
	r, err := slashMaxTokensRun("off", session.Params{MaxTokens: 20})
	if err != nil || r.Params.MaxTokens != api.DefaultMaxTokens {
		t.Errorf("/max-tokens off = %+v, %v", r.Params, err)
	}
}

func TestAttachTakesAMentionAsItsPath(t *testing.T) {
	for in, want := range map[string]string{
		"/attach @notes.md":      "notes.md",
		`/attach @"my notes.md"`: "my notes.md",
		"/attach 'a b.png'":      "a b.png",
		"/attach /tmp/x.png":     "/tmp/x.png",
		"/attach clipboard":      "clipboard",
		"/attach imagery/a.png":  "imagery/a.png",
	} {
		res, err := Run(in, slashBase(), Env{})
		if err != nil || res.Action != ActionAttach || res.Arg != want {
			t.Errorf("%s: %+v %v, want the path %q", in, res.Arg, err, want)
		}
	}
	if res, err := Run("/attach image 2", slashBase(), Env{}); err != nil || res.Arg != "image" || res.N != 2 {
		t.Errorf("/attach image 2: %+v %v", res, err)
	}
}

// Settings the service refuses together are refused at the command that
// sets the second, naming both commands; the settings stay as they were.
func TestConflictingSettingsRefused(t *testing.T) {
	thinking := slashWith(func(p *session.Params) { p.MaxTokens, p.ThinkingBudget = 4096, 2000 })
	forced := slashWith(func(p *session.Params) { p.MaxTokens, p.ToolChoice = 4096, "any" })
	cases := []struct {
		line  string
		p     session.Params
		names []string
	}{
		{"/max-tokens 20", thinking, []string{"/max-tokens 20", "/thinking 2000"}},
		{"/max-tokens 2000", thinking, []string{"/max-tokens 2000", "/thinking 2000"}},
		{"/thinking 5000", thinking, []string{"/thinking 5000", "/max-tokens 4096"}},
		{"/tool-choice any", thinking, []string{"/tool-choice any", "/thinking 2000"}},
		{"/tool-choice get_time", thinking, []string{"/tool-choice get_time", "/thinking 2000"}},
		{"/thinking 2000", forced, []string{"/thinking 2000", "/tool-choice any"}},
	}
	for _, c := range cases {
		res, err := Run(c.line, c.p, Env{Tools: []string{"get_time"}})
		if err == nil {
			t.Errorf("%s accepted: %+v", c.line, res.Params)
			continue
		}
		for _, n := range c.names {
			if !strings.Contains(err.Error(), n) {
				t.Errorf("%s: error %q does not name %s", c.line, err, n)
			}
		}
		if !reflect.DeepEqual(res.Params, c.p) {
			t.Errorf("%s changed the settings to %+v", c.line, res.Params)
		}
	}
	// What does not conflict goes through.
	for _, line := range []string{"/max-tokens 3000", "/tool-choice auto", "/tool-choice none", "/thinking off"} {
		if _, err := Run(line, thinking, Env{Tools: []string{"get_time"}}); err != nil {
			t.Errorf("%s refused: %v", line, err)
		}
	}
	if _, err := Run("/thinking off", forced, Env{}); err != nil {
		t.Errorf("/thinking off refused while a tool is forced: %v", err)
	}
}

// /cite on and off set whether documents ask for citations; anything else
// is refused with the usage and leaves the settings as they were.
func TestSlashCite(t *testing.T) {
	res, err := Run("/cite on", session.Params{}, Env{})
	if err != nil || !res.Params.Cite {
		t.Fatalf("/cite on: %+v, %v", res.Params, err)
	}
	res, err = Run("/cite off", res.Params, Env{})
	if err != nil || res.Params.Cite {
		t.Fatalf("/cite off: %+v, %v", res.Params, err)
	}
	res, err = Run("/cite maybe", session.Params{Cite: true}, Env{})
	if err == nil || !strings.Contains(err.Error(), "usage: /cite on|off") || !res.Params.Cite {
		t.Errorf("/cite maybe: %+v, %v", res.Params, err)
	}
}
