package demo

import (
	"net/http"
	"strings"
	"testing"

	"muse/api"
)

// The demo answers as the real service does in the cases a reviewer found
// it different.

var offeredTool = []any{map[string]any{"name": "lookup", "input_schema": map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}}}}

func TestForcedToolChoiceCallsATool(t *testing.T) {
	srv := newTestServer(t, Options{})
	for _, tc := range []map[string]any{{"type": "any"}, {"type": "tool", "name": "lookup"}} {
		var m api.Message
		decodeOK(t, post(t, srv.URL+messagesPath, chat("hello there", map[string]any{"tools": offeredTool, "tool_choice": tc}), messageHeaders()), &m)
		if m.StopReason != api.StopToolUse || len(toolUses(m)) != 1 || toolUses(m)[0].Name != "lookup" {
			t.Errorf("tool_choice %v: stop %q, content %+v", tc, m.StopReason, m.Content)
		}
	}
	var m api.Message
	decodeOK(t, post(t, srv.URL+messagesPath, chat("demo:tool please", map[string]any{"tools": offeredTool, "tool_choice": map[string]any{"type": "none"}}), messageHeaders()), &m)
	if m.StopReason != api.StopEndTurn || len(toolUses(m)) != 0 {
		t.Errorf("tool_choice none called a tool: %+v", m)
	}
}

func TestThinkingWithForcedToolIsRefused(t *testing.T) {
	srv := newTestServer(t, Options{})
	body := chat("hi", map[string]any{"tools": offeredTool, "tool_choice": map[string]any{"type": "any"}, "thinking": map[string]any{"type": "enabled", "budget_tokens": 1024}})
	if msg := expectError(t, post(t, srv.URL+messagesPath, body, messageHeaders()), http.StatusBadRequest, errInvalidRequest); !strings.Contains(msg, "tool_choice forces tool use") {
		t.Errorf("message %q", msg)
	}
}

func TestEmptyTextBlockIsRefused(t *testing.T) {
	srv := newTestServer(t, Options{})
	body := chat("", map[string]any{"messages": []any{map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": ""}, map[string]any{"type": "text", "text": "hi"}}}}})
	if msg := expectError(t, post(t, srv.URL+messagesPath, body, messageHeaders()), http.StatusBadRequest, errInvalidRequest); !strings.Contains(msg, "messages.0.content.0.text") {
		t.Errorf("message %q", msg)
	}
}

func TestPrefillIsContinued(t *testing.T) {
	srv := newTestServer(t, Options{})
	body := chat("", map[string]any{"messages": []any{
		map[string]any{"role": "user", "content": "tell me a story"},
		map[string]any{"role": "assistant", "content": "Once upon a time"},
	}})
	var m api.Message
	decodeOK(t, post(t, srv.URL+messagesPath, body, messageHeaders()), &m)
	if text := m.Text(); !strings.HasPrefix(text, " ") || strings.Contains(text, "tell me a story") || strings.HasPrefix(strings.TrimSpace(text), "Once") {
		t.Errorf("the prefill was not continued: %q", text)
	}
}

func TestOverloadedSaysShouldRetry(t *testing.T) {
	srv := newTestServer(t, Options{})
	resp := post(t, srv.URL+messagesPath, chat("demo:overloaded", nil), messageHeaders())
	if got := resp.Header.Get("x-should-retry"); got != "true" {
		t.Errorf("x-should-retry = %q", got)
	}
	expectError(t, resp, statusOverloaded, errOverloaded)
}

func toolUses(m api.Message) []api.ContentBlock {
	var out []api.ContentBlock
	for _, b := range m.Content {
		if b.Type == api.BlockToolUse {
			out = append(out, b)
		}
	}
	return out
}
