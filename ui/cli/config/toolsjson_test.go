package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeTools(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tools.json")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadTools(t *testing.T) {
	path := writeTools(t, `[
  {
    "name": "get_time",
    "description": "The time.",
    "input_schema": {"type": "object", "properties": {"tz": {"type": "string"}}},
    "command": ["date", "-u"]
  },
  {"name": "search", "input_schema": {"type": "object"}}
]
`)
	got, err := LoadTools(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []Tool{
		{Name: "get_time", Description: "The time.", InputSchema: json.RawMessage(`{"type":"object","properties":{"tz":{"type":"string"}}}`), Command: []string{"date", "-u"}},
		{Name: "search", InputSchema: json.RawMessage(`{"type":"object"}`)},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tools:\n got %+v\nwant %+v", got, want)
	}
	// The command never goes to the server.
	b, err := json.Marshal(got[0])
	if err != nil || strings.Contains(string(b), "date") || !strings.Contains(string(b), `"input_schema":{"type":"object"`) {
		t.Errorf("marshalled tool = %s, %v", b, err)
	}
}

func TestLoadToolsEmpty(t *testing.T) {
	got, err := LoadTools(writeTools(t, " [ ] \n"))
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("LoadTools([]) = %#v, %v", got, err)
	}
}

func TestLoadToolsMissing(t *testing.T) {
	_, err := LoadTools(filepath.Join(t.TempDir(), "nope.json"))
	if err == nil || !strings.Contains(err.Error(), "read tools") || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("LoadTools = %v", err)
	}
}

func TestLoadToolsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		line, col  int
		msg        string
	}{
		{"not an array", `{"name": "x"}`, 1, 1, `expected a JSON array of tools`},
		{"syntax", "[\n  {\"name\": \"x\",}\n]", 2, 16, `invalid JSON: invalid character '}'`},
		{"truncated", "[\n  {\"name\": \"x\"", 2, 15, `invalid JSON: unexpected end of file`},
		{"no name", "[\n  {\"input_schema\": {\"type\": \"object\"}}\n]", 2, 3, `tool 1 has no name: add "name": "get_time"`},
		{"bad name", `[{"name": "a b", "input_schema": {"type": "object"}}]`, 1, 3, `tool 1: name must be 1 to 64 letters`},
		{"control character in name", `[{"name": "a\u0007b", "input_schema": {"type": "object"}}]`, 1, 3, `tool 1: name must be 1 to 64 letters, digits, _ or -, got "a\ab"`},
		{"long name", `[{"name": "` + strings.Repeat("a", 65) + `", "input_schema": {"type": "object"}}]`, 1, 3, `tool 1: name must be 1 to 64`},
		{"empty name", `[{"name": "", "input_schema": {"type": "object"}}]`, 1, 3, `tool 1 has no name: add "name": "get_time"`},
		{"schema without type", `[{"name": "a", "input_schema": {}}]`, 1, 16, `tool 1: input_schema must have type "object", got no type`},
		{"no schema", "[\n{\"name\": \"a\", \"input_schema\": {\"type\": \"object\"}},\n  {\"name\": \"b\"}]", 3, 4,
			`tool 2 needs an input_schema such as {"type": "object"}`},
		{"schema not an object", `[{"name": "a", "input_schema": []}]`, 1, 16, `tool 1: input_schema must be a JSON object schema such as {"type": "object"}, got array`},
		{"schema type", `[{"name": "a", "input_schema": {"type": "string"}}]`, 1, 16, `tool 1: input_schema must have type "object", got string "string"`},
		{"schema null", `[{"name": "a", "input_schema": null}]`, 1, 16, `tool 1: input_schema must be a JSON object schema such as {"type": "object"}, got null`},
		{"empty command", `[{"name": "a", "input_schema": {"type": "object"}, "command": []}]`, 1, 52, `tool 1: command must name the program`},
		{"empty argument", `[{"name": "a", "input_schema": {"type": "object"}, "command": ["ls", ""]}]`, 1, 52, `tool 1: command item 2 is empty`},
		{"command item type", `[{"name": "a", "input_schema": {"type": "object"}, "command": ["ls", 3]}]`, 1, 52, `tool 1: command must be a list of strings such as ["date", "-u"], got number 3 as item 2`},
		{"description type", `[{"name": "a", "input_schema": {"type": "object"}, "description": ["x"]}]`, 1, 52, `tool 1: description must be a string, got array`},
		{"key twice", "[{\"name\": \"a\", \"input_schema\": {\"type\": \"object\"},\n  \"name\": \"b\"}]", 2, 3, `tool 1: "name" is given twice: keep one`},
		{"command type", `[{"name": "a", "input_schema": {"type": "object"}, "command": "date"}]`, 1, 52,
			`tool 1: command must be a list of strings such as ["date", "-u"], got string "date"`},
		{"name type", `[{"name": 3, "input_schema": {"type": "object"}}]`, 1, 3, `tool 1: name must be a string, got number 3`},
		{"element type", `[{"name": "a", "input_schema": {"type": "object"}}, 3]`, 1, 53, `tool 2 must be an object`},
		{"unknown key", `[{"name": "a", "input_schema": {"type": "object"}, "cmd": ["x"]}]`, 1, 52, `tool 1: unknown key "cmd" (did you mean "command"?)`},
		{"duplicate", "[\n{\"name\": \"a\", \"input_schema\": {\"type\": \"object\"}},\n{\"name\": \"a\", \"input_schema\": {\"type\": \"object\"}}\n]", 3, 2,
			`tool 2: name "a" is used by two tools (first at line 2)`},
		{"trailing", `[] []`, 1, 4, `invalid JSON: invalid character '[' after top-level value`},
		{"empty file", ``, 1, 1, `invalid JSON: unexpected end of file`},
		{"control character", "[\"a\x01\"]", 1, 4, `invalid JSON: invalid character '\x01' in string literal`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTools(t, tc.text)
			_, err := LoadTools(path)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("LoadTools = %v, want an *Error", err)
			}
			if e.Path != path || e.Line != tc.line || e.Col != tc.col || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("error = %q\nwant %d:%d and %q", err, tc.line, tc.col, tc.msg)
			}
		})
	}
}
