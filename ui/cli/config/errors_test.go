package config

import (
	"encoding/json"
	"testing"
)

func TestErrorFormat(t *testing.T) {
	for _, tc := range []struct {
		e    Error
		want string
	}{
		{Error{Path: "c.toml", Line: 3, Col: 7, Msg: "m"}, "c.toml:3:7: m"},
		{Error{Path: "c.toml", Line: 3, Msg: "m"}, "c.toml:3: m"},
		{Error{Path: "c.toml", Msg: "m"}, "c.toml: m"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	known := []string{"temperature", "top_p", "top_k", "command", "model", "image_model"}
	for _, tc := range []struct{ in, want string }{
		{"temprature", ` (did you mean "temperature"?)`},
		{"Temperature", ` (did you mean "temperature"?)`},
		{"top-p", ` (did you mean "top_p"?)`},
		{"cmd", ` (did you mean "command"?)`},
		{"modle", ` (did you mean "model"?)`},
		{"zzzzzz", ""},
		{"x", ""},
	} {
		if got := suggest(tc.in, known); got != tc.want {
			t.Errorf("suggest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDescribe(t *testing.T) {
	long := "0123456789012345678901234567890123456789012345678901234567890123456789"
	for _, tc := range []struct {
		v    any
		want string
	}{
		{"lots", `string "lots"`},
		{"a\x1b[31m", `string "a\x1b[31m"`},
		{long, `string "` + long[:60] + `…"`},
		{true, "boolean true"},
		{json.Number("3"), "number 3"},
		{[]any{1}, "array"},
		{map[string]any{}, "object"},
		{nil, "null"},
	} {
		if got := describe(tc.v); got != tc.want {
			t.Errorf("describe(%#v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}
