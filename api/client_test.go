package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func testRequest() MessageRequest {
	return MessageRequest{Model: "m", MaxTokens: 100, Messages: []MessageParam{TextMessage(RoleUser, "hi")}}
}

const okMessage = `{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"Hi!"}],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":2}}`

// recorder is an httptest server that answers with a list of handlers in
// turn and records each request.
type recorder struct {
	*httptest.Server
	mu       sync.Mutex
	reqs     []*http.Request
	bodies   []string
	handlers []http.HandlerFunc
}

func newRecorder(t *testing.T, handlers ...http.HandlerFunc) *recorder {
	rec := &recorder{handlers: handlers}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		n := len(rec.reqs)
		rec.reqs = append(rec.reqs, r)
		rec.bodies = append(rec.bodies, string(body))
		rec.mu.Unlock()
		rec.handlers[min(n, len(rec.handlers)-1)](w, r)
	}))
	t.Cleanup(rec.Close)
	return rec
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reqs)
}

func jsonReply(status int, body string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// noSleep records retry waits instead of sleeping.
func noSleep(waits *[]time.Duration) Option {
	var mu sync.Mutex
	return withSleep(func(d time.Duration) { mu.Lock(); *waits = append(*waits, d); mu.Unlock() })
}

func TestHeaders(t *testing.T) {
	rec := newRecorder(t, jsonReply(200, okMessage))
	c := New(rec.URL, WithAccessToken("tok"), WithAPIKey("key"))
	if _, err := c.CreateMessage(context.Background(), testRequest()); err != nil {
		t.Fatal(err)
	}
	h := rec.reqs[0].Header
	if h.Get("Authorization") != "Bearer tok" || h.Get("x-api-key") != "" {
		t.Errorf("auth headers: %q %q", h.Get("Authorization"), h.Get("x-api-key"))
	}
	if h.Get("provider-version") != "2023-06-01" || h.Get("Content-Type") != "application/json" || !strings.HasPrefix(h.Get("User-Agent"), "muse/") {
		t.Errorf("headers: %v", h)
	}
	if rec.reqs[0].URL.Path != "/v1/messages" {
		t.Errorf("path %s", rec.reqs[0].URL.Path)
	}

	// Only a key: x-api-key on messages, nothing on images; custom version header.
	rec = newRecorder(t, jsonReply(200, okMessage), jsonReply(200, `{"created":1,"data":[]}`))
	c = New(rec.URL+"/", WithAPIKey("key"), WithProviderVersion("2024-01-01"), WithVersionHeader("anthropic-version"))
	if _, err := c.CreateMessage(context.Background(), testRequest()); err != nil {
		t.Fatal(err)
	}
	h = rec.reqs[0].Header
	if h.Get("x-api-key") != "key" || h.Get("Authorization") != "" || h.Get("anthropic-version") != "2024-01-01" || h.Get("provider-version") != "" {
		t.Errorf("key headers: %v", h)
	}
	if _, err := c.GenerateImage(context.Background(), NewImageRequest("img", "a fox", nil)); err != nil {
		t.Fatal(err)
	}
	h = rec.reqs[1].Header
	if h.Get("x-api-key") != "" || h.Get("anthropic-version") != "" || rec.reqs[1].URL.Path != "/v1/images/generations" {
		t.Errorf("image headers: %v %s", h, rec.reqs[1].URL.Path)
	}
}

func TestRequestBodyOmitsUnsetKeepsExplicitZero(t *testing.T) {
	rec := newRecorder(t, jsonReply(200, okMessage), jsonReply(200, `{"created":1,"data":[]}`))
	c := New(rec.URL, WithAccessToken("t"))
	req := testRequest()
	req.Temperature = Float(0)
	if _, err := c.CreateMessage(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	json.Unmarshal([]byte(rec.bodies[0]), &body)
	if v, ok := body["temperature"]; !ok || v != 0.0 {
		t.Errorf("temperature 0 not sent: %s", rec.bodies[0])
	}
	for _, k := range []string{"top_p", "top_k", "system", "tools", "tool_choice", "thinking", "metadata", "stop_sequences"} {
		if _, ok := body[k]; ok {
			t.Errorf("unset %s sent: %s", k, rec.bodies[0])
		}
	}
	if body["stream"] != false || body["messages"].([]any)[0].(map[string]any)["content"] != "hi" {
		t.Errorf("body: %s", rec.bodies[0])
	}

	ir := NewImageRequest("img", "a fox", &ImageParameters{Watermark: Bool(false), Size: "64*32"})
	if _, err := c.GenerateImage(context.Background(), ir); err != nil {
		t.Fatal(err)
	}
	want := `{"model":"img","input":{"messages":[{"role":"user","content":[{"text":"a fox"}]}]},"parameters":{"watermark":false,"size":"64*32"}}`
	if rec.bodies[1] != want {
		t.Errorf("image body\n got %s\nwant %s", rec.bodies[1], want)
	}
}

func TestFullRequestFields(t *testing.T) {
	req := MessageRequest{
		Model: "m", MaxTokens: 2000, System: "be brief",
		Messages: []MessageParam{
			TextMessage(RoleUser, "hi"),
			{Role: RoleAssistant, Blocks: []ContentBlock{{Type: BlockThinking, Thinking: "t", Signature: "s"}, {Type: BlockToolUse, ID: "x", Name: "f", Input: json.RawMessage(`{"a":1}`)}}},
			{Role: RoleUser, Blocks: []ContentBlock{{Type: BlockToolResult, ToolUseID: "x", ResultContent: json.RawMessage(`"42"`)}}},
		},
		Temperature: Float(1), TopP: Float(0.9), TopK: Int(5), StopSequences: []string{"END"},
		Tools:      []Tool{{Name: "f", Description: "d", InputSchema: json.RawMessage(`{"type":"object"}`)}},
		ToolChoice: &ToolChoice{Type: "auto"}, Thinking: &Thinking{Type: "enabled", BudgetTokens: 1024},
		Metadata: &Metadata{UserID: "u1"},
	}
	data, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	for _, frag := range []string{`"system":"be brief"`, `"top_p":0.9`, `"top_k":5`, `"stop_sequences":["END"]`,
		`"tool_choice":{"type":"auto"}`, `"thinking":{"type":"enabled","budget_tokens":1024}`, `"metadata":{"user_id":"u1"}`,
		`{"type":"thinking","thinking":"t","signature":"s"}`, `{"type":"tool_use","id":"x","name":"f","input":{"a":1}}`,
		`{"type":"tool_result","tool_use_id":"x","content":"42"}`, `"input_schema":{"type":"object"}`} {
		if !strings.Contains(string(data), frag) {
			t.Errorf("missing %s in %s", frag, data)
		}
	}
	var back MessageRequest
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Messages[1].Blocks) != 2 || back.Messages[0].Text != "hi" {
		t.Errorf("round trip: %+v", back.Messages)
	}
}

func TestValidation(t *testing.T) {
	rec := newRecorder(t, jsonReply(200, okMessage))
	c := New(rec.URL, WithAccessToken("t"))
	mod := func(f func(*MessageRequest)) MessageRequest { r := testRequest(); f(&r); return r }
	cases := map[string]MessageRequest{
		"max_tokens":  mod(func(r *MessageRequest) { r.MaxTokens = 0 }),
		"temperature": mod(func(r *MessageRequest) { r.Temperature = Float(1.5) }),
		"messages":    mod(func(r *MessageRequest) { r.Messages = nil }),
		"empty":       mod(func(r *MessageRequest) { r.Messages[0].Text = "" }),
		"model":       mod(func(r *MessageRequest) { r.Model = "" }),
		"top_p":       mod(func(r *MessageRequest) { r.TopP = Float(-1) }),
		"budget":      mod(func(r *MessageRequest) { r.Thinking = &Thinking{Type: "enabled", BudgetTokens: 100} }),
	}
	for name, req := range cases {
		_, err := c.CreateMessage(context.Background(), req)
		if !errors.Is(err, ErrInvalidRequest) {
			t.Errorf("%s: err = %v", name, err)
		}
		if _, err := c.StreamMessage(context.Background(), req); !errors.Is(err, ErrInvalidRequest) {
			t.Errorf("%s (stream): err = %v", name, err)
		}
	}
	for _, size := range []string{"1024x1024", "0*5", "-1*5", "5*", "*5", "a*b", "+5*5", "1*2*3"} {
		_, err := c.GenerateImage(context.Background(), NewImageRequest("img", "fox", &ImageParameters{Size: size}))
		if !errors.Is(err, ErrInvalidRequest) || !strings.Contains(err.Error(), "<width>*<height>") {
			t.Errorf("size %q: err = %v", size, err)
		}
	}
	if _, err := c.GenerateImage(context.Background(), NewImageRequest("img", "  ", nil)); !errors.Is(err, ErrInvalidRequest) {
		t.Errorf("empty prompt: %v", err)
	}
	if rec.count() != 0 {
		t.Errorf("invalid requests reached the server %d times", rec.count())
	}
	if w, h, err := ParseSize("1024*768"); err != nil || w != 1024 || h != 768 {
		t.Errorf("ParseSize: %d %d %v", w, h, err)
	}
}

func TestAPIErrorFromBody(t *testing.T) {
	rec := newRecorder(t, jsonReply(400, `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: too big"}}`, "request-id", "req_42"))
	_, err := New(rec.URL, WithAccessToken("t")).CreateMessage(context.Background(), testRequest())
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v", err)
	}
	want := APIError{Status: 400, Type: "invalid_request_error", Message: "max_tokens: too big", RequestID: "req_42"}
	if *apiErr != want {
		t.Errorf("got %+v", *apiErr)
	}
	if err.Error() != "400 invalid_request_error: max_tokens: too big" {
		t.Errorf("Error() = %q", err.Error())
	}
	if rec.count() != 1 {
		t.Errorf("400 was retried: %d requests", rec.count())
	}
}

func TestNonJSONErrorBodies(t *testing.T) {
	cases := []struct {
		name, ctype, body string
		status            int
		want              string
	}{
		{"html", "text/html", "<html><body><h1>502 Bad Gateway</h1>\r\n</body></html>", 502, "Bad Gateway"},
		{"nginx", "text/html", "<html>\r\n<head><title>504 Gateway Time-out</title></head>\r\n<body>\r\n<center><h1>504 Gateway Time-out</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n", 504, "Gateway Time-out"},
		// The server's text is kept as received, escapes included; the front end sanitizes it.
		{"text", "text/plain", "upstream connect error\x1b]52;c;aGk=\x07 \x1b[2Jreset", 503, "upstream connect error\x1b]52;c;aGk=\x07 \x1b[2Jreset"},
		{"lines", "text/plain", "upstream\r\n\tconnect  error\n", 503, "upstream connect error"},
		{"problem", "application/problem+json", `{"type":"about:blank","title":"Forbidden","status":403,"detail":"no"}`, 403, `{"type":"about:blank","title":"Forbidden","status":403,"detail":"no"}`},
		{"long", "text/plain", strings.Repeat("é", 150), 500, strings.Repeat("é", 100) + "…"},
		{"empty", "text/plain", "", 404, "empty response body"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := newRecorder(t, jsonReply(tc.status, tc.body, "Content-Type", tc.ctype))
			_, err := New(rec.URL, WithAccessToken("t"), WithMaxRetries(0)).CreateMessage(context.Background(), testRequest())
			var apiErr *APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("err = %v", err)
			}
			if apiErr.Status != tc.status || apiErr.Message != tc.want || apiErr.Type != "" {
				t.Errorf("got %+v, want message %q", *apiErr, tc.want)
			}
		})
	}
}

// TestAPIErrorKeepsServerText checks that the error type, message and request
// id of a JSON error body come back as the server sent them, escapes included.
func TestAPIErrorKeepsServerText(t *testing.T) {
	body := `{"type":"error","error":{"type":"weird\u001b[31m_error","message":"bad \u001b]0;title\u0007 thing\nsecond line"}}`
	rec := newRecorder(t, jsonReply(400, body, "request-id", "req_\u009b1m42"))
	_, err := New(rec.URL, WithAccessToken("t")).CreateMessage(context.Background(), testRequest())
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v", err)
	}
	want := APIError{Status: 400, Type: "weird\x1b[31m_error", Message: "bad \x1b]0;title\x07 thing second line", RequestID: "req_\u009b1m42"}
	if *apiErr != want {
		t.Errorf("got %#v,\nwant %#v", *apiErr, want)
	}
}

func TestRetry429WithRetryAfter(t *testing.T) {
	rec := newRecorder(t,
		jsonReply(429, `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`, "retry-after", "3"),
		jsonReply(529, `{"type":"error","error":{"type":"overloaded_error","message":"busy"}}`, "retry-after-ms", "250"),
		jsonReply(200, okMessage))
	var waits []time.Duration
	var infos []RetryInfo
	c := New(rec.URL, WithAccessToken("t"), noSleep(&waits))
	m, err := c.CreateMessage(context.Background(), testRequest(), OnRetry(func(r RetryInfo) { infos = append(infos, r) }))
	if err != nil {
		t.Fatal(err)
	}
	if m.Text() != "Hi!" || rec.count() != 3 {
		t.Errorf("text %q after %d requests", m.Text(), rec.count())
	}
	if len(waits) != 2 || waits[0] != 3*time.Second || waits[1] != 250*time.Millisecond {
		t.Errorf("waits %v", waits)
	}
	var apiErr *APIError
	if len(infos) != 2 || infos[0].Attempt != 1 || infos[1].Attempt != 2 || !errors.As(infos[0].Err, &apiErr) || apiErr.Status != 429 {
		t.Errorf("retry infos %+v", infos)
	}
}

func TestRetryExhaustedAndShouldRetry(t *testing.T) {
	var waits []time.Duration
	rec := newRecorder(t, jsonReply(500, `{"type":"error","error":{"type":"api_error","message":"boom"}}`))
	_, err := New(rec.URL, WithAccessToken("t"), noSleep(&waits)).CreateMessage(context.Background(), testRequest())
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 500 || rec.count() != 3 {
		t.Errorf("err %v after %d requests, want 500 after 3", err, rec.count())
	}
	for i, w := range waits {
		hi := 500 * time.Millisecond << i
		if w > hi || w < hi*3/4 {
			t.Errorf("backoff %d = %v, want in [%v, %v]", i, w, hi*3/4, hi)
		}
	}

	rec = newRecorder(t, jsonReply(500, `{}`, "x-should-retry", "false"))
	New(rec.URL, WithAccessToken("t"), noSleep(&waits)).CreateMessage(context.Background(), testRequest())
	if rec.count() != 1 {
		t.Errorf("x-should-retry: false was retried (%d requests)", rec.count())
	}
	rec = newRecorder(t, jsonReply(400, `{}`, "x-should-retry", "true"), jsonReply(200, okMessage))
	if _, err := New(rec.URL, WithAccessToken("t"), noSleep(&waits)).CreateMessage(context.Background(), testRequest()); err != nil || rec.count() != 2 {
		t.Errorf("x-should-retry: true not retried: %v, %d requests", err, rec.count())
	}
	for _, status := range []int{408, 409} {
		rec = newRecorder(t, jsonReply(status, `{}`), jsonReply(200, okMessage))
		if _, err := New(rec.URL, WithAccessToken("t"), noSleep(&waits)).CreateMessage(context.Background(), testRequest()); err != nil || rec.count() != 2 {
			t.Errorf("%d not retried: %v", status, err)
		}
	}
}

func TestRetryWaitHeaders(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	h := http.Header{}
	h.Set("retry-after", now.Add(4*time.Second).Format(http.TimeFormat))
	if d := retryWait(h, 0, now); d != 4*time.Second {
		t.Errorf("http date: %v", d)
	}
	h.Set("retry-after", "3600") // unreasonable: fall back to backoff
	if d := retryWait(h, 0, now); d > 500*time.Millisecond {
		t.Errorf("huge retry-after honoured: %v", d)
	}
	for n := 0; n < 10; n++ {
		d := backoff(n)
		hi := min(500*time.Millisecond<<n, 8*time.Second)
		if d > hi || d < hi*3/4 {
			t.Errorf("backoff(%d) = %v", n, d)
		}
	}
}

func TestRetryConnectionDropped(t *testing.T) {
	rec := newRecorder(t,
		func(w http.ResponseWriter, r *http.Request) {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close() // drop before the first byte
			}
		},
		jsonReply(200, okMessage))
	var waits []time.Duration
	m, err := New(rec.URL, WithAccessToken("t"), noSleep(&waits)).CreateMessage(context.Background(), testRequest())
	if err != nil || m.Text() != "Hi!" || rec.count() != 2 || len(waits) != 1 {
		t.Errorf("err %v, %d requests, waits %v", err, rec.count(), waits)
	}

	// Nothing listening at all: a clear connection error after the retries.
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	_, err = New(url, WithAccessToken("t"), noSleep(&waits)).CreateMessage(context.Background(), testRequest())
	if err == nil || !strings.Contains(err.Error(), "connect to "+url) {
		t.Errorf("err = %v", err)
	}
}

func TestNoRetryAfterStreamContent(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, sse("message_start", evStart,
			"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"half"}}`))
		w.(http.Flusher).Flush()
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
	})
	var waits []time.Duration
	s, err := New(rec.URL, WithAccessToken("t"), noSleep(&waits)).StreamMessage(context.Background(), testRequest())
	if err != nil {
		t.Fatal(err)
	}
	msg, _, err := drain(s)
	if err == nil || msg.Text() != "half" {
		t.Errorf("err %v, text %q", err, msg.Text())
	}
	if rec.count() != 1 || len(waits) != 0 {
		t.Errorf("retried after content: %d requests", rec.count())
	}
}

func TestStreamAnsweredWithJSON(t *testing.T) {
	rec := newRecorder(t, jsonReply(200, okMessage, "request-id", "req_j"))
	s, err := New(rec.URL, WithAccessToken("t")).StreamMessage(context.Background(), testRequest())
	if err != nil {
		t.Fatal(err)
	}
	msg, types, err := drain(s)
	if err != nil || msg.Text() != "Hi!" || msg.StopReason != "end_turn" || msg.Usage.OutputTokens != 2 || msg.ID != "msg_1" {
		t.Errorf("err %v msg %+v", err, msg)
	}
	if types[0] != EventMessageStart || types[len(types)-1] != EventMessageStop || s.RequestID() != "req_j" {
		t.Errorf("events %v, request id %q", types, s.RequestID())
	}
	if !strings.Contains(rec.bodies[0], `"stream":true`) {
		t.Errorf("stream not requested: %s", rec.bodies[0])
	}
}

// countingClient is a client whose transport counts in n the requests it
// sends: each is counted before the call that made it returns, whether or
// not the server got to it (a 50 ms timeout on a loaded machine can end an
// attempt before the server's handler runs, which then counts it late or
// never).
func countingClient(n *atomic.Int32) *http.Client {
	rt := http.DefaultTransport.(*http.Transport).Clone()
	return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		n.Add(1)
		return rt.RoundTrip(r)
	}), CheckRedirect: CheckRedirect}
}

func TestHeaderTimeout(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // so the server notices when the client hangs up
		select {
		case <-time.After(2 * time.Second):
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	var waits []time.Duration
	// A stream that sends no headers in time is retried.
	var sent atomic.Int32
	c := New(srv.URL, WithAccessToken("t"), WithHeaderTimeout(50*time.Millisecond), WithMaxRetries(1), noSleep(&waits), WithHTTPClient(countingClient(&sent)))
	defer c.Close()
	_, err := c.StreamMessage(context.Background(), testRequest())
	if !errors.Is(err, ErrHeaderTimeout) || !strings.Contains(err.Error(), "50ms") {
		t.Errorf("err = %v", err)
	}
	if n := sent.Load(); n != 2 {
		t.Errorf("timeout not retried: %d requests", n)
	}

	// A reply that is not streamed waits for the response timeout instead,
	// and is not retried: the server may have generated and billed it.
	sent.Store(0) // the first client has returned: it sends no more
	c = New(srv.URL, WithAccessToken("t"), WithHeaderTimeout(time.Nanosecond), WithResponseTimeout(50*time.Millisecond),
		WithMaxRetries(1), noSleep(&waits), WithHTTPClient(countingClient(&sent)))
	defer c.Close()
	_, err = c.CreateMessage(context.Background(), testRequest())
	if !errors.Is(err, ErrHeaderTimeout) || !strings.Contains(err.Error(), "50ms") || !strings.Contains(err.Error(), "not retried") {
		t.Errorf("CreateMessage err = %v", err)
	}
	_, err = c.GenerateImage(context.Background(), NewImageRequest("img", "fox", nil))
	if !errors.Is(err, ErrHeaderTimeout) || !strings.Contains(err.Error(), "50ms") {
		t.Errorf("GenerateImage err = %v", err)
	}
	if n := sent.Load(); n != 2 {
		t.Errorf("non-streaming timeouts: %d requests, want 2 (no retry)", n)
	}
}

func TestContextCancelsRetryWait(t *testing.T) {
	rec := newRecorder(t, jsonReply(429, `{}`, "retry-after", "30"))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	// The deadline, not the 30 s the server asked for, ends the wait.
	if _, err := New(rec.URL, WithAccessToken("t")).CreateMessage(ctx, testRequest()); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err %v, want the deadline", err)
	}
}

func TestImageResult(t *testing.T) {
	rec := newRecorder(t, jsonReply(200, `{"created":1700000000,"data":[{"url":"http://x/a.png","revised_prompt":"a red fox"},{"b64_json":"iVBO"}]}`))
	r, err := New(rec.URL, WithAccessToken("t")).GenerateImage(context.Background(), NewImageRequest("img", "fox", nil))
	if err != nil {
		t.Fatal(err)
	}
	if r.Created != 1700000000 || len(r.Data) != 2 || r.Data[0].URL != "http://x/a.png" || r.Data[0].RevisedPrompt != "a red fox" || r.Data[1].B64JSON != "iVBO" {
		t.Errorf("result %+v", r)
	}
	rec = newRecorder(t, jsonReply(200, `<html>oops</html>`))
	if _, err := New(rec.URL, WithAccessToken("t")).GenerateImage(context.Background(), NewImageRequest("img", "fox", nil)); err == nil || !strings.Contains(err.Error(), "oops") {
		t.Errorf("non-JSON success body: %v", err)
	}
}
