package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"muse/api"
)

const testVersion = "2023-06-01"

// hangLimit is how long a test waits for an event that comes at once when
// the handler works: a watchdog that turns a hang into a failure that says
// so. No test measures it.
const hangLimit = time.Minute

// pauses records the delays a handler asks to wait (Options.pause), and
// ends each at once, as the timer would once it fired.
type pauses struct {
	mu  sync.Mutex
	got []time.Duration
}

func (p *pauses) pause(ctx context.Context, d time.Duration) bool {
	p.mu.Lock()
	p.got = append(p.got, d)
	p.mu.Unlock()
	return ctx.Err() == nil
}

// total is the sum of the delays asked for.
func (p *pauses) total() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	var sum time.Duration
	for _, d := range p.got {
		sum += d
	}
	return sum
}

// held is an Options.pause that says on asked which delay it was asked to
// wait, and then waits only for ctx to end, as a timer that has not yet
// fired when the client goes away.
func held(asked chan<- time.Duration) func(context.Context, time.Duration) bool {
	return func(ctx context.Context, d time.Duration) bool {
		asked <- d
		<-ctx.Done()
		return false
	}
}

func newTestServer(t *testing.T, opts Options) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(NewHandler(opts))
	t.Cleanup(srv.Close)
	return srv
}

// chat is a message request body for one user prompt; extra fields override.
func chat(prompt string, extra map[string]any) map[string]any {
	b := map[string]any{
		"model":      "demo-model",
		"max_tokens": 4096,
		"messages":   []any{map[string]any{"role": "user", "content": prompt}},
	}
	maps.Copy(b, extra)
	return b
}

// imageBody is an image request body for prompt with optional parameters.
func imageBody(prompt string, params map[string]any) map[string]any {
	b := map[string]any{
		"model": "demo-image",
		"input": map[string]any{"messages": []any{map[string]any{
			"role":    "user",
			"content": []any{map[string]any{"text": prompt}},
		}}},
	}
	if params != nil {
		b["parameters"] = params
	}
	return b
}

func messageHeaders() map[string]string {
	return map[string]string{"Authorization": "Bearer " + DefaultToken, "provider-version": testVersion}
}

func imageHeaders() map[string]string {
	return map[string]string{"Authorization": "Bearer " + DefaultToken}
}

// post sends body (JSON-encoded unless it is a string) with hdr; a header
// with an empty value is left out.
func post(t *testing.T, url string, body any, hdr map[string]string) *http.Response {
	t.Helper()
	var data []byte
	if s, ok := body.(string); ok {
		data = []byte(s)
	} else {
		var err error
		if data, err = json.Marshal(body); err != nil {
			t.Fatal(err)
		}
	}
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range hdr {
		if v != "" {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func postMessage(t *testing.T, srv *httptest.Server, body any) *http.Response {
	t.Helper()
	return post(t, srv.URL+messagesPath, body, messageHeaders())
}

func postImage(t *testing.T, srv *httptest.Server, body any) *http.Response {
	t.Helper()
	return post(t, srv.URL+imagesPath, body, imageHeaders())
}

func readAll(t *testing.T, r io.Reader) []byte {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decodeOK checks a 200 JSON answer and decodes it into v.
func decodeOK(t *testing.T, resp *http.Response, v any) {
	t.Helper()
	body := readAll(t, resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d, want 200; body %s", resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q", ct)
	}
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("decoding %s: %v", body, err)
	}
}

func getMessage(t *testing.T, srv *httptest.Server, body any) api.Message {
	t.Helper()
	var m api.Message
	decodeOK(t, postMessage(t, srv, body), &m)
	return m
}

// expectError checks status and Anthropic's error body, and returns its message.
func expectError(t *testing.T, resp *http.Response, status int, typ string) string {
	t.Helper()
	body := readAll(t, resp.Body)
	if resp.StatusCode != status {
		t.Fatalf("status %d, want %d; body %s", resp.StatusCode, status, body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q, want application/json", ct)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		t.Fatalf("error body %s: %v", body, err)
	}
	if len(raw) != 2 || string(raw["type"]) != `"error"` {
		t.Fatalf("error body shape: %s", body)
	}
	var detail map[string]string
	if err := json.Unmarshal(raw["error"], &detail); err != nil || len(detail) != 2 {
		t.Fatalf("error detail shape: %s (%v)", raw["error"], err)
	}
	if detail["type"] != typ {
		t.Fatalf("error type %q, want %q (%s)", detail["type"], typ, detail["message"])
	}
	if detail["message"] == "" {
		t.Fatal("empty error message")
	}
	return detail["message"]
}

// event is one server-sent event, with its data decoded loosely.
type event struct {
	name string
	raw  string
	data eventData
}

type eventData struct {
	Type         string            `json:"type"`
	Index        *int              `json:"index"`
	Message      *api.Message      `json:"message"`
	ContentBlock *api.ContentBlock `json:"content_block"`
	Delta        struct {
		Type         string  `json:"type"`
		Text         string  `json:"text"`
		Thinking     string  `json:"thinking"`
		Signature    string  `json:"signature"`
		PartialJSON  string  `json:"partial_json"`
		StopReason   string  `json:"stop_reason"`
		StopSequence *string `json:"stop_sequence"`
	} `json:"delta"`
	Usage *struct {
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
	Error *errorDetail `json:"error"`
}

// parseEvents splits a whole event-stream body, checking the exact framing
// "event: <type>\ndata: <json>\n\n" and that data's type names the event.
func parseEvents(t *testing.T, body string) []event {
	t.Helper()
	if !strings.HasSuffix(body, "\n\n") {
		t.Fatalf("stream does not end with a blank line: %q", body[max(0, len(body)-80):])
	}
	var out []event
	for _, chunk := range strings.Split(strings.TrimSuffix(body, "\n\n"), "\n\n") {
		head, data, ok := strings.Cut(chunk, "\n")
		name, ok1 := strings.CutPrefix(head, "event: ")
		payload, ok2 := strings.CutPrefix(data, "data: ")
		if !ok || !ok1 || !ok2 || strings.Contains(payload, "\n") {
			t.Fatalf("bad event framing: %q", chunk)
		}
		var d eventData
		if err := json.Unmarshal([]byte(payload), &d); err != nil {
			t.Fatalf("event data %s: %v", payload, err)
		}
		if d.Type != name {
			t.Fatalf("event %q carries data of type %q", name, d.Type)
		}
		out = append(out, event{name: name, raw: payload, data: d})
	}
	return out
}

// streamEvents posts a streaming request and returns its events.
func streamEvents(t *testing.T, srv *httptest.Server, body map[string]any) []event {
	t.Helper()
	body = maps.Clone(body)
	body["stream"] = true
	resp := postMessage(t, srv, body)
	data := readAll(t, resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, data)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "no-cache" {
		t.Fatalf("Cache-Control %q", cc)
	}
	return parseEvents(t, string(data))
}

// deltaText joins the text deltas of the events.
func deltaText(events []event) string {
	var b strings.Builder
	for _, e := range events {
		if e.name == "content_block_delta" && e.data.Delta.Type == "text_delta" {
			b.WriteString(e.data.Delta.Text)
		}
	}
	return b.String()
}

func countDeltas(events []event, typ string) int {
	n := 0
	for _, e := range events {
		if e.name == "content_block_delta" && e.data.Delta.Type == typ {
			n++
		}
	}
	return n
}

func last(events []event, name string) *event {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].name == name {
			return &events[i]
		}
	}
	return nil
}
