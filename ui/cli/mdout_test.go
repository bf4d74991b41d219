package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"muse/api"
	"muse/theme"
)

// runTTY runs muse with standard output a terminal of width columns.
func runTTY(t *testing.T, env map[string]string, width int, args ...string) run {
	t.Helper()
	var out, errb bytes.Buffer
	if env == nil {
		env = map[string]string{}
	}
	if _, ok := env["XDG_DATA_HOME"]; !ok {
		env["XDG_DATA_HOME"] = t.TempDir()
	}
	e := Env{
		Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return env[k] }, StdoutTTY: true, Width: width,
	}
	code := Main(args, e)
	return run{code, out.String(), errb.String()}
}

// visible strips SGR sequences.
func visible(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// TestPrintRendersMarkdownOnATerminal checks -p on a terminal: the reply
// is rendered (bullets, a table with rules, no trailing padding) and
// wrapped at the width; piped or with --raw, it is the raw text.
func TestPrintRendersMarkdownOnATerminal(t *testing.T) {
	env := map[string]string{"TERM": "xterm-256color", "COLORTERM": "truecolor"}
	r := runTTY(t, env, 60, "--demo", "-p", "hello")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	if !strings.Contains(r.stdout, "\x1b[") {
		t.Error("no colour on a colour terminal")
	}
	plain := visible(r.stdout)
	for _, want := range []string{"• ", "│", "─┼─", "package main"} {
		if !strings.Contains(plain, want) {
			t.Errorf("rendered reply lacks %q:\n%s", want, plain)
		}
	}
	if strings.Contains(plain, "| ---") || strings.Contains(plain, "```") {
		t.Errorf("markdown syntax left in:\n%s", plain)
	}
	for i, l := range strings.Split(strings.TrimSuffix(plain, "\n"), "\n") {
		if len([]rune(l)) > 60 {
			t.Errorf("line %d is %d columns wide: %q", i, len([]rune(l)), l)
		}
		if strings.HasSuffix(l, " ") {
			t.Errorf("line %d has trailing spaces: %q", i, l)
		}
	}
	if !strings.HasSuffix(r.stdout, "\n") {
		t.Error("no final newline")
	}
	// --width beats the terminal; --raw gives the text as it came.
	wide := visible(runTTY(t, env, 60, "--demo", "-p", "hello", "--width", "100").stdout)
	if longest(wide) <= 60 {
		t.Errorf("--width 100 ignored: longest line %d", longest(wide))
	}
	raw := runTTY(t, env, 60, "--demo", "-p", "hello", "--raw")
	if raw.code != 0 || !strings.Contains(raw.stdout, "## hello") || !strings.Contains(raw.stdout, "```") {
		t.Errorf("--raw: %+v", raw)
	}
	piped := runMain(t, nil, "", "--demo", "-p", "hello")
	if strings.Contains(piped.stdout, "• ") || !strings.Contains(piped.stdout, "- ") {
		t.Errorf("piped output was rendered:\n%s", piped.stdout)
	}
	// NO_COLOR: rendered, without colour (bold stays).
	if r := runTTY(t, map[string]string{"TERM": "xterm-256color", "NO_COLOR": "1"}, 60, "--demo", "-p", "hello"); strings.Contains(r.stdout, "38;") || strings.Contains(r.stdout, "48;") || !strings.Contains(r.stdout, "• ") {
		t.Errorf("NO_COLOR: %q", r.stdout)
	}
}

func longest(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		n = max(n, len([]rune(l)))
	}
	return n
}

// TestPrintRenderedIsSanitized checks that the rendered hostile demo keeps
// only SGR sequences: glamour turns &#27; into ESC (the demo's heading
// repeats the prompt), and sanitize runs after.
func TestPrintRenderedIsSanitized(t *testing.T) {
	for _, tc := range []string{"demo:hostile", "x &#27;]0;pwned&#7; &#27;[2J &#155;2J y"} {
		r := runTTY(t, map[string]string{"TERM": "xterm-256color"}, 80, "--demo", "-p", tc)
		if r.code != 0 {
			t.Fatalf("%s: %+v", tc, r)
		}
		if strings.ContainsAny(visible(r.stdout), "\x1b\x07\u009b") {
			t.Errorf("%s: a control other than SGR got through: %q", tc, visible(r.stdout))
		}
	}
}

// TestPrintFlagsGoWithP checks the new -p flags' checks.
func TestPrintFlagsGoWithP(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--raw"}, "--raw goes with -p"},
		{[]string{"--quiet"}, "--quiet goes with -p"},
		{[]string{"--width", "80"}, "--width goes with -p"},
		{[]string{"-p", "x", "--width", "3"}, "--width must be between 10 and 1000"},
	} {
		if r := runMain(t, nil, "", tc.args...); r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%q: %+v", tc.args, r)
		}
	}
}

// TestQuietKeepsOnlyTheAnswer checks that --quiet drops the retry note of
// a rate-limited request but keeps the answer.
func TestQuietKeepsOnlyTheAnswer(t *testing.T) {
	r := runMain(t, nil, "", "--demo", "-p", "demo:ratelimit hi")
	if r.code != 0 || !strings.Contains(r.stderr, "retrying") {
		t.Fatalf("without --quiet: %+v", r)
	}
	r = runMain(t, nil, "", "--demo", "-p", "demo:ratelimit hi", "--quiet")
	if r.code != 0 || r.stderr != "" || !strings.Contains(r.stdout, "## demo:ratelimit hi") {
		t.Errorf("--quiet: %+v", r)
	}
	// Errors still go to stderr.
	if r := runMain(t, nil, "", "--demo", "-p", "demo:overloaded", "--quiet"); r.code != 1 || !strings.Contains(r.stderr, "overloaded") {
		t.Errorf("--quiet error: %+v", r)
	}
}

// feed streams text to o as deltas of n bytes and returns what o wrote
// after each delta.
func feed(t *testing.T, o *mdOut, buf *bytes.Buffer, text string, n int) []string {
	t.Helper()
	o.start()
	o.event(api.Event{Type: api.EventMessageStart, Message: &api.Message{Role: "assistant"}})
	o.event(api.Event{Type: api.EventContentBlockStart, Index: 0, Block: &api.ContentBlock{Type: "text"}})
	var seen []string
	for i := 0; i < len(text); i += n {
		o.event(api.Event{Type: api.EventContentBlockDelta, Index: 0, Delta: api.Delta{Type: "text_delta", Text: text[i:min(i+n, len(text))]}})
		seen = append(seen, buf.String())
	}
	o.event(api.Event{Type: api.EventContentBlockStop, Index: 0})
	o.end()
	return append(seen, buf.String())
}

// TestMDOutPrintsBlocksOnceAndEarly checks the progressive rendering: what
// is written only grows (nothing is rendered twice), a block is written as
// soon as the next one starts, a list or code block waits for its end, and
// the whole equals one rendering of the text.
func TestMDOutPrintsBlocksOnceAndEarly(t *testing.T) {
	th, _ := theme.New("dark", true)
	text := "# Title\n\nFirst paragraph.\n\n- one\n\n- two\n\n```go\nx := 1\n\ny := 2\n```\n\nLast line."
	var buf bytes.Buffer
	o, err := newMDOut(&buf, th.Markdown, termenv.Ascii, 40)
	if err != nil {
		t.Fatal(err)
	}
	seen := feed(t, o, &buf, text, 3)
	for i := 1; i < len(seen); i++ {
		if !strings.HasPrefix(seen[i], seen[i-1]) {
			t.Fatalf("output rewritten after delta %d:\n%q\nthen\n%q", i, seen[i-1], seen[i])
		}
	}
	// "First paragraph." is out once "- one" has begun.
	at := strings.Index(text, "- one") + 3
	if got := seen[at/3]; !strings.Contains(got, "First paragraph.") {
		t.Errorf("the paragraph waited: %q", got)
	}
	// The loose list is not cut between its items; the fence not inside.
	at = strings.Index(text, "- two") + 3
	if got := seen[at/3]; strings.Contains(got, "one") {
		t.Errorf("the list was cut before its end: %q", got)
	}
	at = strings.Index(text, "y := 2") + 3
	if got := seen[at/3]; strings.Contains(got, "x := 1") {
		t.Errorf("the code block was cut: %q", got)
	}
	final := seen[len(seen)-1]
	for _, want := range []string{"Title", "First paragraph.", "• one", "• two", "x := 1", "y := 2", "Last line."} {
		if strings.Count(final, want) != 1 {
			t.Errorf("%q appears %d times in:\n%s", want, strings.Count(final, want), final)
		}
	}
}

// TestBlockScan checks where a text can be cut, fed whole and fed a byte
// at a time with each cut taken off as mdOut does: the last cut is the
// same either way.
func TestBlockScan(t *testing.T) {
	for _, tc := range []struct {
		text string
		want string // the text before the last cut
	}{
		{"a\n\nb\n", "a\n\n"},
		{"a\n\nb", ""}, // b's line may still grow: no cut yet
		{"a\n\nb\n\nc\n", "a\n\nb\n\n"},
		{"- a\n\n- b\n\nc\n", ""},
		{"- a\n\nc\n\nd\n", "- a\n\nc\n\n"},
		{"```\na\n\nb\n```\n\nc\n", "```\na\n\nb\n```\n\n"},
		{"````\n```\n\nx\n````\n\nc\n", "````\n```\n\nx\n````\n\n"},
		{"| a |\n|---|\n\nx\n", ""},
		{"> q\n\nx\n", ""},
		{"1. a\n\nx\n", ""},
		{"    code\n\nx\n", ""},
	} {
		var s blockScan
		if got := tc.text[:s.next([]byte(tc.text))]; got != tc.want {
			t.Errorf("%q whole: cut after %q, want %q", tc.text, got, tc.want)
		}
		s = blockScan{}
		var pending []byte
		last, taken := 0, 0
		for i := range len(tc.text) {
			pending = append(pending, tc.text[i])
			if cut := s.next(pending); cut > 0 {
				taken += cut
				last = taken
				pending = pending[cut:]
				s.pos -= cut
			}
		}
		if got := tc.text[:last]; got != tc.want {
			t.Errorf("%q a byte at a time: last cut after %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestDarkFromEnv(t *testing.T) {
	for v, want := range map[string]bool{"": true, "15;0": true, "0;15": false, "0;default;7": false, "12;8": true, "x": true} {
		if got := darkFromEnv(func(string) string { return v }); got != want {
			t.Errorf("COLORFGBG=%q: dark %v, want %v", v, got, want)
		}
	}
}
