package demo

import (
	"net/http"
	"strings"
	"testing"

	"muse/api"
)

// The demo refuses a conversation the service would refuse, with a 400
// that names the message: a tool_use with no tool_result right after it
// (the request muse sent after a kill -9 mid-round), a result for a call
// the turn before did not make, results after text, two user turns in a
// row, an empty text block.
func TestTurnRulesEnforced(t *testing.T) {
	srv := newTestServer(t, Options{})
	user := func(content any) map[string]any { return map[string]any{"role": "user", "content": content} }
	asst := func(content any) map[string]any { return map[string]any{"role": "assistant", "content": content} }
	call := func(id string) map[string]any {
		return map[string]any{"type": "tool_use", "id": id, "name": "get_time", "input": map[string]any{}}
	}
	result := func(id string) map[string]any {
		return map[string]any{"type": "tool_result", "tool_use_id": id, "content": "12:00"}
	}
	text := func(s string) map[string]any { return map[string]any{"type": "text", "text": s} }
	cases := []struct {
		name string
		msgs []any
		want string
	}{
		{"call then text", []any{user("hi"), asst([]any{call("t1")}), user("go on")}, "without `tool_result`"},
		{"call of round 2 unanswered", []any{user("hi"), asst([]any{call("t1")}), user([]any{result("t1")}), asst([]any{call("t2")}), user([]any{text("next")})}, "t2"},
		{"one of two unanswered", []any{user("hi"), asst([]any{call("t1"), call("t2")}), user([]any{result("t1")})}, "t2"},
		{"wrong id", []any{user("hi"), asst([]any{call("t1")}), user([]any{result("t9")})}, "t1"},
		{"result without call", []any{user([]any{result("t1")})}, "unexpected `tool_use_id`"},
		{"result after text", []any{user("hi"), asst([]any{call("t1")}), user([]any{text("x"), result("t1")})}, "must come before"},
		{"two user turns", []any{user("hi"), user("again")}, "roles must alternate"},
		{"assistant first", []any{asst("hello"), user("hi")}, "first message"},
		{"empty text", []any{user([]any{text("")})}, "must be non-empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := expectError(t, postMessage(t, srv, chat("", map[string]any{"messages": c.msgs})), http.StatusBadRequest, errInvalidRequest)
			if !strings.Contains(msg, c.want) {
				t.Fatalf("message %q does not contain %q", msg, c.want)
			}
		})
	}
	// Answered, with the next prompt after the results: accepted.
	ok := []any{user("hi"), asst([]any{text("calling"), call("t1")}), user([]any{result("t1"), text("and now?")})}
	getMessage(t, srv, chat("", map[string]any{"messages": ok}))
}

// demo:rounds:N with demo:tool calls the tool again after each result,
// until N rounds are done, then ends the turn; each call has a new id.
func TestToolRounds(t *testing.T) {
	srv := newTestServer(t, Options{})
	tools := []any{map[string]any{"name": "get_time", "input_schema": map[string]any{"type": "object"}}}
	msgs := []any{map[string]any{"role": "user", "content": "demo:tool demo:rounds:3 what time?"}}
	ids := map[string]bool{}
	for round := 1; ; round++ {
		m := getMessage(t, srv, chat("", map[string]any{"messages": msgs, "tools": tools}))
		if m.StopReason != api.StopToolUse {
			if round != 4 || !strings.HasPrefix(m.Text(), "The tool returned: r3") {
				t.Fatalf("the turn ended at round %d with %q", round, m.Text())
			}
			return
		}
		if round > 3 {
			t.Fatalf("round %d called a tool again", round)
		}
		var id string
		for _, b := range m.Content {
			if b.Type == api.BlockToolUse {
				id = b.ID
			}
		}
		if id == "" || ids[id] {
			t.Fatalf("round %d: call id %q", round, id)
		}
		ids[id] = true
		msgs = append(msgs, map[string]any{"role": "assistant", "content": m.Content},
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": "r" + string(rune('0'+round))}}})
	}
}
