package tomlfile

import (
	"errors"
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

var limits = Limits{Keys: 50, Depth: 8, What: "a test file"}

// A good file is decoded, and the places of its keys are known.
func TestDecode(t *testing.T) {
	src := "\uFEFFname = \"x\"\n[chrome]\ntext = \"#101010\"\n[servers.files]\ncommand = \"npx\"\nargs = [\"-y\"]\n[[tools]]\nname = \"a\"\n[[tools]]\nname = \"b\"\n"
	var s settings
	places, err := Decode("f.toml", []byte(src), &s, limits)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "x" || s.Chrome.Text.s != "#101010" || s.Servers["files"].Command != "npx" || len(s.Tools) != 2 || s.Tools[1].Name != "b" {
		t.Errorf("decoded %+v", s)
	}
	if p := places["servers.files.command"]; p != (Place{Line: 5, Col: 1}) {
		t.Errorf("servers.files.command at %+v", p)
	}
}

// Each problem is reported at its place, with what to do.
func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"[chrome]\ntxt = \"#1\"\n", `f.toml:2:1: unknown key chrome.txt: expected one of text, muted (did you mean "text"?)`},
		{"nmae = \"x\"\n", `f.toml:1:1: unknown key nmae: expected one of name, chrome, servers, tools, extra (did you mean "name"?)`},
		{"[servers.a]\ncmd = \"x\"\n", `f.toml:2:1: unknown key servers.a.cmd: expected one of command, args (did you mean "command"?)`},
		{"[[tools]]\nname = \"a\"\n[[tools]]\nnme = \"b\"\n", `f.toml:4:1: unknown key tools.nme: expected one of name`},
		{"servers = { a = { comand = \"x\" } }\n", `f.toml:1:19: unknown key servers.a.comand`},
		{"[chrome]\ntext = 75\n", `f.toml:2:8: chrome.text: expected a string, such as "#5fafff", got 75`},
		{"[chrome]\ntext = \"blue\"\n", `f.toml:2:8: chrome.text: expected a colour such as "#5fafff"`},
		{"[chrome.text.x]\n", `f.toml:1:14: unknown key chrome.text.x: chrome.text takes no table`},
		{"name = 1\n", `f.toml:1:8: name: cannot decode TOML integer into struct field`},
		{"name = \"x\"\nname = \"y\"\n", `f.toml:2:1:`},
		{strings.Repeat("[servers.a]\n", 60), `more than 50 keys: a test file is never that big`},
		{"[extra.a.b.c.d.e.f.g.h]\n", `f.toml:1:22: nested more than 8 levels deep`},
		{"extra = [[[[[[[[[1]]]]]]]]]\n", `nested more than 8 levels deep`},
	} {
		var s settings
		_, err := Decode("f.toml", []byte(tc.src), &s, limits)
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
