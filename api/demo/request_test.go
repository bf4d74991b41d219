package demo

import (
	"net/http"
	"strings"
	"testing"
)

// TestSystemAsTextBlocks checks that a system prompt sent as text blocks, as
// the official SDKs send it, gives the same reply as the same string.
func TestSystemAsTextBlocks(t *testing.T) {
	srv := newTestServer(t, Options{})
	asString := getMessage(t, srv, chat("Compare channels and mutexes", map[string]any{"system": "You are terse."}))
	asBlocks := getMessage(t, srv, chat("Compare channels and mutexes", map[string]any{
		"system": []any{map[string]any{"type": "text", "text": "You are terse.", "cache_control": map[string]any{"type": "ephemeral"}}},
	}))
	if asBlocks.ID != asString.ID || asBlocks.Text() != asString.Text() || asBlocks.Usage.InputTokens != asString.Usage.InputTokens {
		t.Errorf("blocks gave %s %d, string gave %s %d", asBlocks.ID, asBlocks.Usage.InputTokens, asString.ID, asString.Usage.InputTokens)
	}
	two := getMessage(t, srv, chat("hi", map[string]any{
		"system": []any{map[string]any{"type": "text", "text": "one two"}, map[string]any{"type": "text", "text": "three"}},
	}))
	if plain := getMessage(t, srv, chat("hi", nil)); two.Usage.InputTokens != plain.Usage.InputTokens+3 {
		t.Errorf("input tokens %d, want %d", two.Usage.InputTokens, plain.Usage.InputTokens+3)
	}
	getMessage(t, srv, chat("hi", map[string]any{"system": []any{}}))
	getMessage(t, srv, chat("hi", map[string]any{"system": nil}))

	for _, c := range []struct {
		system any
		want   string
	}{
		{42, "system: must be a string or an array of text blocks"},
		{map[string]any{"type": "text", "text": "x"}, "system: must be a string or an array of text blocks"},
		{[]any{map[string]any{"type": "image", "text": "x"}}, "system.0.type"},
		{[]any{map[string]any{"type": "text", "text": "x"}, map[string]any{"type": "text"}}, "system.1.text: required"},
	} {
		msg := expectError(t, postMessage(t, srv, chat("hi", map[string]any{"system": c.system})), http.StatusBadRequest, errInvalidRequest)
		if !strings.Contains(msg, c.want) {
			t.Errorf("system %v: message %q, want %q", c.system, msg, c.want)
		}
	}
}

// TestUnknownFieldRefused checks that an unknown top-level field is refused
// in Anthropic's error shape, as the real service does, naming the field.
func TestUnknownFieldRefused(t *testing.T) {
	srv := newTestServer(t, Options{})
	for _, field := range []string{"foo", "Model", "top_n"} {
		for _, stream := range []bool{false, true} {
			body := chat("hi", map[string]any{field: 1, "stream": stream})
			msg := expectError(t, postMessage(t, srv, body), http.StatusBadRequest, errInvalidRequest)
			if msg != field+": Extra inputs are not permitted" {
				t.Errorf("%s: message %q", field, msg)
			}
		}
	}
	// Every field of the interface is accepted.
	getMessage(t, srv, chat("hi", map[string]any{
		"system": "s", "temperature": 0.5, "top_p": 0.9, "top_k": 5, "stream": false, "stop_sequences": []string{"zzz"},
		"tools":       []any{map[string]any{"name": "t", "description": "d", "input_schema": map[string]any{"type": "object"}}},
		"tool_choice": map[string]any{"type": "auto"}, "thinking": map[string]any{"type": "disabled"},
		"metadata": map[string]any{"user_id": "u"}, "service_tier": "auto",
	}))
}

func TestTopKZeroAndThinkingTypes(t *testing.T) {
	srv := newTestServer(t, Options{})
	getMessage(t, srv, chat("hi", map[string]any{"top_k": 0}))
	for _, th := range []map[string]any{
		{"type": "disabled"},
		{"type": "adaptive"},
		{"type": "something_new", "budget_tokens": 0},
		{"type": "enabled", "budget_tokens": 1024},
	} {
		m := getMessage(t, srv, chat("Plan a trip", map[string]any{"thinking": th}))
		thinks := th["type"] == "enabled" || th["type"] == "adaptive"
		if got := m.Content[0].Type == "thinking"; got != thinks {
			t.Errorf("thinking %v: first block %q", th, m.Content[0].Type)
		}
	}
	for _, c := range []struct {
		thinking map[string]any
		want     string
	}{
		{map[string]any{"type": "enabled"}, "thinking.budget_tokens: must be >= 1"},
		{map[string]any{"budget_tokens": 10}, "thinking.type: required"},
	} {
		msg := expectError(t, postMessage(t, srv, chat("hi", map[string]any{"thinking": c.thinking})), http.StatusBadRequest, errInvalidRequest)
		if !strings.Contains(msg, c.want) {
			t.Errorf("thinking %v: message %q, want %q", c.thinking, msg, c.want)
		}
	}
}
