//go:build linux

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"muse/api/demo"
)

// heavyList is 640 KB of a nested list, under the reply limit, and an item
// that ends it: glamour pads every item to the width once for each list
// around it, and muse ran out of memory streaming it (1.2 GB, then
// "fatal error: out of memory"), and again on muse -c.
var heavyList = strings.Repeat("- a\n  - b\n", 64_000) + "- the end of the list\n"

// heavyListServer is the demo service, but for the message request whose
// last message asks for "a heavy list": that reply streams heavyList in
// 200-byte deltas and ends its turn. (Matched anywhere in the body, the
// next turn's history asked again, and a second list scrolled the turn
// the test waits for off the screen.)
func heavyListServer(t *testing.T) *httptest.Server {
	demoService := demo.NewHandler(demo.Options{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if r.URL.Path != "/v1/messages" || !lastMessageAsks(body, "a heavy list") {
			demoService.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		send := func(event string, data any) {
			b, err := json.Marshal(data)
			if err != nil {
				panic(err)
			}
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		}
		send("message_start", map[string]any{"type": "message_start", "message": map[string]any{
			"id": "msg_heavy", "type": "message", "role": "assistant", "model": "demo-chat",
			"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
			"usage": map[string]int{"input_tokens": 10, "output_tokens": 0},
		}})
		send("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]string{"type": "text", "text": ""}})
		for i := 0; i < len(heavyList); i += 200 {
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
				"delta": map[string]string{"type": "text_delta", "text": heavyList[i:min(i+200, len(heavyList))]}})
			if i%(64<<10) == 0 {
				w.(http.Flusher).Flush()
			}
		}
		send("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
		send("message_delta", map[string]any{"type": "message_delta",
			"delta": map[string]any{"stop_reason": "end_turn", "stop_sequence": nil},
			"usage": map[string]int{"output_tokens": 128_000}})
		send("message_stop", map[string]any{"type": "message_stop"})
		w.(http.Flusher).Flush()
	}))
	t.Cleanup(srv.Close)
	return srv
}

// A reply of 640 KB of a nested list streams to its end on the chat
// screen, shown as plain text, a key typed shows within a second of
// muse's time, and the session opens again with muse -c, the list's end
// on the screen, and goes on.
func TestHeavyListReplyResumes(t *testing.T) {
	t.Parallel()
	srv := heavyListServer(t)
	h := newHome(t, "")
	h.env = append(h.env,
		"MUSE_BASE_URL="+srv.URL,
		"MUSE_ACCESS_TOKEN="+demo.DefaultToken,
		"MUSE_MODEL=demo-chat",
		"MUSE_IMAGE_MODEL=demo-image",
	)
	ended := func(s string) bool { return strings.Contains(s, "- the end of the list") && !busy(statusLine(s)) }
	tm := start(t, h, cols, rows)
	tm.waitFor("Ask anything")
	tm.typ("a heavy list please\r")
	tm.waitUntil("the reply's end shown, the turn over", waitDeadline, ended)
	tm.typAnswered("zq", "a key typed below the reply", func(s string) bool {
		return strings.HasSuffix(inputLine(s), "zq")
	})
	tm.typ("\x7f\x7f\x04")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}

	tm = start(t, h, cols, rows, "-c")
	defer tm.close()
	tm.waitUntil("the reply's end shown again by muse -c", waitDeadline, ended)
	tm.typAnswered("zq", "a key typed in the session opened again", func(s string) bool {
		return strings.HasSuffix(inputLine(s), "zq")
	})
	tm.typ("\x7f\x7fdemo:words:3 and after\r")
	tm.waitUntil("the next turn answered", waitDeadline, func(s string) bool {
		return strings.Contains(s, "and after") && !busy(statusLine(s))
	})
}

// lastMessageAsks reports whether the last message of the request body
// holds want.
func lastMessageAsks(body []byte, want string) bool {
	var req struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if json.Unmarshal(body, &req) != nil || len(req.Messages) == 0 {
		return false
	}
	return bytes.Contains(req.Messages[len(req.Messages)-1], []byte(want))
}
