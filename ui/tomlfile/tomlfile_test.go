package tomlfile

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// settings is a file's shape for the tests: a table, a map of tables, an
// array of tables and a value read from text.
type settings struct {
	Name   string `toml:"name"`
	Chrome struct {
		Text  hex `toml:"text"`
		Muted hex `toml:"muted"`
	} `toml:"chrome"`
	Servers map[string]struct {
		Command string   `toml:"command"`
		Args    []string `toml:"args"`
	} `toml:"servers"`
	Tools []struct {
		Name string `toml:"name"`
	} `toml:"tools"`
	Extra any `toml:"extra"`
}

// hex is a colour such as "#5fafff": a struct, as the library hands a
// string type's text to no UnmarshalText.
type hex struct{ s string }

func (h *hex) UnmarshalText(b []byte) error {
	if !strings.HasPrefix(string(b), "#") {
		return errors.New("expected a colour such as \"#5fafff\"")
	}
	h.s = string(b)
	return nil
}

func (hex) Example() string { return `"#5fafff"` }

var limits = Options{Keys: 50, Depth: 8, What: "a test file"}

// A good file is decoded, and the places of its keys are known.
func TestDecode(t *testing.T) {
	src := "\uFEFFname = \"x\"\n[chrome]\ntext = \"#101010\"\n[servers.files]\ncommand = \"npx\"\nargs = [\"-y\"]\n[[tools]]\nname = \"a\"\n[[tools]]\nname = \"b\"\n"
	var s settings
	places, probs := Decode("f.toml", []byte(src), &s, limits)
	if err := probs.Err(); err != nil {
		t.Fatal(err)
	}
	if s.Name != "x" || s.Chrome.Text.s != "#101010" || s.Servers["files"].Command != "npx" || len(s.Tools) != 2 || s.Tools[1].Name != "b" {
		t.Errorf("decoded %+v", s)
	}
	if p := places.At("servers", "files", "command"); p != (Place{Line: 5, Col: 1}) {
		t.Errorf("servers.files.command at %+v", p)
	}
}

// Each problem is reported at its place, with what to do.
func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"[chrome]\ntxt = \"#1\"\n", `f.toml:2:1: unknown key chrome.txt: expected one of text, muted (did you mean "text"?)`},
		{"nmae = \"x\"\n", `f.toml:1:1: unknown key nmae: expected one of name, chrome, servers, tools, extra (did you mean "name"?)`},
		{"[servers.a]\ncmd = \"x\"\n", `f.toml:2:1: unknown key servers.a.cmd: expected one of command, args (did you mean "command"?)`},
		{"[[tools]]\nname = \"a\"\n[[tools]]\nnme = \"b\"\n", `f.toml:4:1: unknown key tools.1.nme: expected one of name`},
		{"servers = { a = { comand = \"x\" } }\n", `f.toml:1:19: unknown key servers.a.comand`},
		{"[chrome]\ntext = 75\n", `f.toml:2:8: chrome.text: expected a string, such as "#5fafff", got 75`},
		{"[chrome]\ntext = \"blue\"\n", `f.toml:2:8: chrome.text: expected a colour such as "#5fafff"`},
		{"[chrome.text.x]\n", `f.toml:1:14: unknown key chrome.text.x: chrome.text takes no table`},
		{"name = 1\n", `f.toml:1:8: name: expected a string, got 1`},
		{"name = \"x\"\nname = \"y\"\n", `f.toml:2:1:`},
		{strings.Repeat("[servers.a]\n", 60), `more than 50 keys: a test file is never that big`},
		{"[extra.a.b.c.d.e.f.g.h]\n", `f.toml:1:22: nested more than 8 levels deep`},
		{"extra = [[[[[[[[[1]]]]]]]]]\n", `nested more than 8 levels deep`},
	} {
		var s settings
		_, probs := Decode("f.toml", []byte(tc.src), &s, limits)
		err := probs.Err()
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v\nwant it to hold %q", tc.src, err, tc.want)
		}
	}
}

func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain é 😀":      "plain é 😀",
		"a\nb\tc\x1b[0m": `a\nb\tc\x1b[0m`,
		"\u0085\x7f":     `\u0085\x7f`,
		"bad \xff\xc3":   `bad \xff\xc3`,
	} {
		if got := oneLine(in); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSyntaxErrors checks that the library's syntax errors reach the user with
// the file, line and column, on one line.
func TestSyntaxErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line, col int
		msg       string
	}{
		{"no equals", "a = 1\nb 2\n", 2, 3, `expected '=' after key`},
		{"two equals", "a = = 1\n", 1, 5, `unexpected character U+003D '=' at start of value`},
		{"no value", "a =\n", 1, 4, `at start of value`},
		{"bare word", "a = yes\n", 1, 5, `unexpected character U+0079 'y' at start of value: text is written in quotes, as in model = "name"; true, false and numbers are not`},
		{"bare word of a profile", "default_profile = work\n", 1, 19, `'w' at start of value: text is written in quotes`},
		{"two values", "a = 1 2\n", 1, 7, `expected newline but got U+0032 '2'`},
		{"duplicate key", "a = 1\n\na = 2\n", 3, 1, `key a is already defined`},
		{"duplicate table", "[t]\n[t]\n", 2, 2, `table t already exists`},
		{"table over value", "t = 1\n[t]\n", 2, 2, `key t should be a table, not a value`},
		{"dotted over header", "[a.b]\nx = 1\n[a]\nb.y = 2\n", 4, 1, `key b is already defined`},
		{"header over dotted", "[a]\nb.c = 1\n[a.b]\n", 3, 2, `table b already exists as defined by a dotted key`},
		{"header into inline", "a = { b = 1 }\n[a.c]\n", 2, 2, `key a already exists as a value`},
		{"dotted into inline", "a = { b = 1 }\na.c = 2\n", 2, 1, `key a is already defined`},
		{"array of tables over array", "a = [1]\n[[a]]\n", 2, 3, `key a already exists as a value, but should be an array table`},
		{"header through value", "a = 1\n[a.b]\n", 2, 2, `key a already exists as a value`},
		{"header through array", "a = []\n[a.b]\n", 2, 2, `key a already exists as a value`},
		{"value over longer header", "[a.b.c]\n[a]\nb = 1\n", 3, 1, `key b is already defined`},
		{"unclosed header", "[a\n", 1, 3, `expected ']' to close table name`},
		{"unclosed array header", "[[a]\n", 1, 4, `expected ']]' to close array table name`},
		{"dotted in inline table", "a = { b = 1, b.c = 2 }\n", 1, 1, `key b is already defined`},
		{"unclosed string", "a = \"abc\nb = 1\n", 1, 9, `basic strings cannot have new lines`},
		{"unending string", "a = \"\"\"abc\n", 1, 11, `multiline basic string not terminated by """`},
		{"unclosed array", "a = [1,\n 2\nb = 3\n", 3, 1, `expected ',' or ']' after array value`},
		{"unclosed table", "a = { b = 1\n", 1, 12, `inline table is incomplete`},
		{"bad escape", `a = "\q"` + "\n", 1, 6, `invalid escape character U+0071 'q'`},
		{"escaped newline", "a = \"\\\n\"\n", 1, 6, `invalid escape character U+000A`},
		{"short unicode", `a = "\u12"` + "\n", 1, 10, `invalid hexadecimal digit in unicode escape sequence`},
		{"surrogate", `a = "\uD800"` + "\n", 1, 6, `escape sequence is not a valid unicode code point`},
		{"control character", "a = \"x\x01\"\n", 1, 7, `basic strings cannot have control characters`},
		{"control in comment", "a = 1 # x\x7f\n", 1, 10, `control characters are not allowed in comments`},
		{"lone carriage return", "a = 1\rb = 2\n", 1, 6, `expected newline but got U+000D`},
		{"leading zero", "a = 012\n", 1, 5, `integers cannot have leading zeroes`},
		{"double underscore", "a = 1__0\n", 1, 6, `number must have at least one digit between underscores`},
		{"too large", "a = 9223372036854775808\n", 1, 5, `decimal number is too large to fit in a 64-bit signed integer`},
		{"bad date", "a = 2023-02-29\n", 1, 13, `impossible date`},
		{"bad time", "a = 24:00:00\n", 1, 5, `hour cannot be greater 23`},
		{"multi-line key", "\"\"\"a\"\"\" = 1\n", 1, 3, `expected '=' after key`},
		{"empty key", " = 1\n", 1, 2, `invalid character at start of key: U+003D '='`},
		{"invalid UTF-8", "a = \"\xff\"\n", 1, 6, `invalid UTF-8 character in basic string`},
		{"invalid UTF-8 line", "a = 1\n# \xc3\n", 2, 3, `invalid UTF-8 character in comment`},
		// The library repeats the key it names: muse escapes what it holds.
		{"escape in key", "\"\\u001b[31m\" = 1\n\"\\u001b[31m\" = 2\n", 2, 1, `key \x1b[31m is already defined`},
		{"newline in key", "\"a\\nb\" = 1\n\"a\\nb\" = 2\n", 2, 1, `key a\nb is already defined`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v map[string]any
			_, probs := Decode("x.toml", []byte(tc.src), &v, limits)
			err := probs.Err()
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Decode = %v, want an *Error", err)
			}
			if e.Path != "x.toml" || e.Line != tc.line || e.Col != tc.col || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("error = %q\nwant %d:%d and %q", err, tc.line, tc.col, tc.msg)
			}
			if want := "x.toml:" + strconv.Itoa(tc.line) + ":" + strconv.Itoa(tc.col) + ": "; !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q does not start with %q", err, want)
			}
			if quoted := strings.Contains(e.Msg, "in quotes"); quoted != strings.HasPrefix(tc.name, "bare word") {
				t.Errorf("error %q: says to quote text %v, want %v", err, quoted, !quoted)
			}
			if strings.ContainsAny(err.Error(), "\n\x1b") || strings.HasPrefix(e.Msg, "toml:") {
				t.Errorf("error %q spans lines, holds an escape or names the library", err)
			}
		})
	}
}

// Every key and array item has its place: keys of headers, dotted keys and
// inline tables, the items of arrays of values and of arrays of tables.
func TestPlaces(t *testing.T) {
	src := "# comment\nname = \"x\"\n[servers.files]\nargs = [\n  \"-y\",\n  \"x\",\n]\n[[tools]]\nname = \"a\"\n[[tools]]\n\nname = \"b\"\n[chrome]\ntext = \"#101010\"\n"
	var s settings
	places, probs := Decode("f.toml", []byte(src), &s, limits)
	if err := probs.Err(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path []string
		want Place
	}{
		{[]string{"name"}, Place{Line: 2, Col: 1}},
		{[]string{"servers"}, Place{Line: 3, Col: 2}},
		{[]string{"servers", "files"}, Place{Line: 3, Col: 10}},
		{[]string{"servers", "files", "args"}, Place{Line: 4, Col: 1}},
		{[]string{"servers", "files", "args", "0"}, Place{Line: 5, Col: 3}},
		{[]string{"servers", "files", "args", "1"}, Place{Line: 6, Col: 3}},
		{[]string{"tools", "0"}, Place{Line: 8, Col: 3}},
		{[]string{"tools", "1"}, Place{Line: 10, Col: 3}},
		{[]string{"tools", "1", "name"}, Place{Line: 12, Col: 1}},
		{[]string{"chrome"}, Place{Line: 13, Col: 2}},
		{[]string{"chrome", "text"}, Place{Line: 14, Col: 1}},
		{[]string{"servers", "files", "args", "2"}, Place{}},
		{[]string{"nothing"}, Place{}},
	} {
		if got := places.At(tc.path...); got != tc.want {
			t.Errorf("place of %q = %+v, want %+v", tc.path, got, tc.want)
		}
	}
	if !places.Has("tools", "1", "name") || places.Has("tools", "2") {
		t.Error("Has disagrees with the file")
	}
}

// All the problems of a file are reported at once, in the order of the
// file; with unknown keys and values of the wrong kind, the rest of the
// file is decoded, the refused keys marked.
func TestDecodeReportsAll(t *testing.T) {
	src := "name = 1\nnmae = \"x\"\n[servers.a]\ncommand = \"npx\"\nargs = [\"-y\", 2]\n[chrome]\ntext = 75\nmuted = \"#202020\"\n"
	var s settings
	places, probs := Decode("f.toml", []byte(src), &s, limits)
	err := probs.Err()
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	want := []string{
		"f.toml:1:8: name: expected a string, got 1",
		"f.toml:2:1: unknown key nmae",
		"f.toml:5:15: servers.a.args.1: expected a string, got 2",
		"f.toml:7:8: chrome.text: expected a string",
	}
	if len(lines) != len(want) {
		t.Fatalf("errors:\n%s", err)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want %q", i+1, lines[i], w)
		}
	}
	if places == nil || s.Servers["a"].Command != "npx" || s.Chrome.Muted.s != "#202020" || s.Name != "" {
		t.Errorf("the rest is not decoded: %+v", s)
	}
	if !places.Refused("name") || !places.Refused("servers", "a", "args") || places.Refused("chrome", "muted") || places.Has("name") {
		t.Error("refused keys not marked")
	}
	// A header the library would refuse leaves nothing decoded.
	places, probs = Decode("f.toml", []byte("[name]\n"), &s, limits)
	if places != nil || probs.Err() == nil || !strings.Contains(probs.Err().Error(), "f.toml:1:2: name: expected a string, got table") {
		t.Errorf("header over a string: %v, %v", places, probs.Err())
	}
}

// Past MaxProblems, problems are counted, not worded, and the count ends
// the message.
func TestProblemsCap(t *testing.T) {
	var b strings.Builder
	for i := range 60 {
		b.WriteString("k" + strconv.Itoa(i) + " = 1\n")
	}
	var s settings
	_, probs := Decode("f.toml", []byte(b.String()), &s, Options{Keys: 100, Depth: 8})
	lines := strings.Split(probs.Err().Error(), "\n")
	if len(lines) != MaxProblems+1 || lines[MaxProblems] != "f.toml: … and 50 more problems" || !strings.HasPrefix(lines[0], "f.toml:1:1: unknown key k0") {
		t.Errorf("problems:\n%s", strings.Join(lines, "\n"))
	}
}
