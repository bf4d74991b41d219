package config

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"

	"muse/ui/keyaction"
	"muse/ui/tomlfile"
)

// checkErrorLines checks the invariants of an error from a loader: each
// problem on its own line, each line naming the file and valid UTF-8.
func checkErrorLines(t *testing.T, path string, err error) {
	t.Helper()
	msg := err.Error()
	if !utf8.ValidString(msg) {
		t.Fatalf("error is not valid UTF-8: %q", msg)
	}
	lines := strings.Split(msg, "\n")
	if len(lines) > maxErrors+1 {
		t.Fatalf("%d lines of errors, want at most %d:\n%s", len(lines), maxErrors+1, msg)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, path+":") || len(l) <= len(path)+2 {
			t.Fatalf("error line %q does not name %s and a problem", l, path)
		}
	}
}

// checkTool checks that a loaded tool is one checkTools lets through.
func checkTool(t *testing.T, tool Tool, seen map[string]bool) {
	t.Helper()
	if !toolNameRE.MatchString(tool.Name) || seen[tool.Name] {
		t.Fatalf("tool name %q accepted (seen before: %v)", tool.Name, seen[tool.Name])
	}
	seen[tool.Name] = true
	var schema map[string]any
	if err := json.Unmarshal(tool.InputSchema, &schema); err != nil || schema["type"] != "object" {
		t.Fatalf("tool %q: schema %s accepted (%v)", tool.Name, tool.InputSchema, err)
	}
	if tool.Command != nil && (len(tool.Command) == 0 || slices.Contains(tool.Command, "")) {
		t.Fatalf("tool %q: command %q accepted", tool.Name, tool.Command)
	}
}

func FuzzLoadConfig(f *testing.F) {
	noFiles := strings.NewReplacer("input_schema_file", "input_schema_fil")
	f.Add([]byte(noFiles.Replace(example)))
	f.Add([]byte(noFiles.Replace(full)))
	f.Add([]byte("[profiles.w]\ntop_k = 0\ntheme = \"x\"\n[profiles.a]\nmax_tokens = 0\n"))
	f.Add([]byte("a = [[[[[[[[1]]]]]]]]\nb = { c = { d = [{}, { e = 1979-05-27T07:32:00Z }] } }\n"))
	f.Add([]byte("[[profiles.w.tools]]\nname = \"a\"\ninput_schema = { type = \"object\", n = nan }\ncommand = [\"\", 1]\n"))
	f.Add([]byte("[profiles.w]\ntool_timeout = \"0s\"\ncredential_timeout = 3\nsave = \"no\"\nmouse = false\n"))
	f.Add([]byte("\uFEFFx = \"\"\"\\\r\n \"\"\"\"\"\ny.'z'.\"w\" = '''\n'''\n[t]\na.b = 1\n[t.a.c]\n"))
	f.Add([]byte("a.b = 1\n[a.c]\n[[d]]\ne = [1, 'x', {f = 1.5}]\n[d.g]\n[[d]]\nt = 07:32\n"))
	f.Add([]byte("[a.b.c]\n[a]\nb.d = 1\n[[e.f]]\n[e.f.g]\n[[e.f]]\nh = [[], [{}], [[1]]]\n"))
	f.Add([]byte("x = { a = 1, a.b = 2 }"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if strings.Contains(string(data), "input_schema_file") {
			return // it would read files named by the input: not this target's subject
		}
		const path = "fuzz/config.toml"
		file, err := parse(path, data)
		checkLibrary(t, data, err)
		if err != nil {
			checkErrorLines(t, path, err)
			return
		}
		if file.DefaultProfile != "" && file.Profiles[file.DefaultProfile] == nil {
			t.Fatalf("default_profile %q names no profile", file.DefaultProfile)
		}
		for name, p := range file.Profiles {
			if p == nil || p.Name != name {
				t.Fatalf("profile %q = %+v", name, p)
			}
			seen := map[string]bool{}
			for _, tool := range p.Tools {
				checkTool(t, tool, seen)
			}
			if p.ToolTimeout < 0 || p.ToolTimeout > MaxToolTimeout || p.CredentialTimeout < 0 || p.CredentialTimeout > maxCredentialTimeout {
				t.Fatalf("timeouts %v, %v accepted", p.ToolTimeout, p.CredentialTimeout)
			}
			checkKeys(t, p.Keys)
		}
	})
}

func FuzzToolsJSON(f *testing.F) {
	f.Add([]byte(`[{"name": "get_time", "description": "The time.", "input_schema": {"type": "object"}, "command": ["date", "-u"]}]`))
	f.Add([]byte(`[{"name": "a\u0007", "input_schema": {"type": "object"}}, {"name": "a", "name": "b"}, 3, [], null]`))
	f.Add([]byte(`[{"name": "a", "input_schema": {"type": "string"}, "command": [], "cmd": 1}, {"name": "a", "input_schema": []}]`))
	f.Add([]byte("[\n  {\"name\": \"x\",}\n]"))
	f.Add([]byte(`{"name": "x"}`))
	f.Add([]byte(``))
	f.Fuzz(func(t *testing.T, data []byte) {
		const path = "fuzz/tools.json"
		tools, err := parseTools(path, data)
		if err != nil {
			checkErrorLines(t, path, err)
			return
		}
		seen := map[string]bool{}
		for _, tool := range tools {
			checkTool(t, tool, seen)
		}
	})
}

// checkKeys checks key bindings that were accepted.
func checkKeys(t *testing.T, keys map[string][]string) {
	t.Helper()
	owner := map[string]string{}
	for action, list := range keys {
		if !slices.Contains(keyaction.Names(), action) || len(list) == 0 {
			t.Fatalf("action %q with keys %q accepted", action, list)
		}
		for _, k := range list {
			if strings.TrimSpace(k) == "" && k != " " {
				t.Fatalf("empty key %q accepted for %s", k, action)
			}
			if prev, ok := owner[k]; ok && prev != action {
				t.Fatalf("key %q bound to %s and %s", k, prev, action)
			}
			owner[k] = action
		}
	}
}

// FuzzKeys feeds the key-binding checks tables built from lines of
// "action:key,key,...".
func FuzzKeys(f *testing.F) {
	f.Add("send:enter\nnewline:alt+enter,ctrl+j")
	f.Add("send:enter\nnewline:enter")
	f.Add("sned:x\ncancel:\nquit: ,\t")
	f.Add("copy:ctrl+y,ctrl+y\nprev:\x00")
	f.Fuzz(func(t *testing.T, spec string) {
		tbl := map[string][]string{}
		for _, line := range strings.Split(spec, "\n") {
			action, list, _ := strings.Cut(line, ":")
			if _, ok := tbl[action]; ok {
				continue
			}
			keys := []string{}
			if list != "" {
				keys = strings.Split(list, ",")
			}
			tbl[action] = keys
		}
		l := &loader{path: "fuzz.toml", places: &tomlfile.Places{}, probs: &tomlfile.Problems{Path: "fuzz.toml"}}
		keys := l.keys("w", tbl)
		checkKeys(t, keys)
		if err := l.probs.Err(); err != nil {
			checkErrorLines(t, "fuzz.toml", err)
		} else if len(keys) != len(tbl) {
			t.Fatalf("no error, but %d of %d actions kept", len(keys), len(tbl))
		}
	})
}

// checkLibrary checks that muse accepts no document that the library
// refuses.
func checkLibrary(t *testing.T, data []byte, err error) {
	t.Helper()
	var lib map[string]any
	if libErr := toml.Unmarshal(bytes.TrimPrefix(data, []byte("\uFEFF")), &lib); err == nil && libErr != nil {
		t.Fatalf("library: %v, but muse accepts %q", libErr, data)
	}
}
