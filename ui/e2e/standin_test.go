//go:build linux

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"muse/api/demo"
)

// textReplyServer is the demo service, but for a message request whose
// last message asks for ask (matched anywhere in the body, the next
// turn's history would ask again): that reply starts a text block and
// reply streams it, through send, which writes and flushes one event. The
// server closes when the test ends.
func textReplyServer(t *testing.T, ask string, reply func(r *http.Request, send func(event string, data any))) *httptest.Server {
	demoService := demo.NewHandler(demo.Options{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if r.URL.Path != "/v1/messages" || !lastMessageAsks(body, ask) {
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
			w.(http.Flusher).Flush()
		}
		send("message_start", map[string]any{"type": "message_start", "message": map[string]any{
			"id": "msg_standin", "type": "message", "role": "assistant", "model": "demo-chat",
			"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
			"usage": map[string]int{"input_tokens": 10, "output_tokens": 0},
		}})
		send("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]string{"type": "text", "text": ""}})
		reply(r, send)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// sendText streams text as text deltas of at most n bytes.
func sendText(send func(event string, data any), text string, n int) {
	for i := 0; i < len(text); i += n {
		send("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]string{"type": "text_delta", "text": text[i:min(i+n, len(text))]}})
	}
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
