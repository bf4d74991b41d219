package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// With no version header chosen, the version goes under both names, so
// the interface's services and Anthropic's API each find theirs.
func TestVersionUnderBothHeadersByDefault(t *testing.T) {
	rec := newRecorder(t, jsonReply(200, okMessage))
	c := New(rec.URL, WithAPIKey("key"))
	if _, err := c.CreateMessage(context.Background(), testRequest()); err != nil {
		t.Fatal(err)
	}
	h := rec.reqs[0].Header
	if h.Get("provider-version") != DefaultVersion || h.Get("anthropic-version") != DefaultVersion {
		t.Errorf("version headers: %v", h)
	}
}

// A base URL with or without /v1 or a trailing slash posts to the same
// address, never /v1/v1/messages; a path before /v1 is kept.
func TestBaseURLWithOrWithoutV1(t *testing.T) {
	for _, suffix := range []string{"", "/", "/v1", "/v1/", "/api/anthropic", "/api/anthropic/v1/"} {
		rec := newRecorder(t, jsonReply(200, okMessage))
		c := New(rec.URL+suffix, WithAPIKey("key"))
		if _, err := c.CreateMessage(context.Background(), testRequest()); err != nil {
			t.Fatalf("%q: %v", suffix, err)
		}
		want := "/v1/messages"
		if strings.HasPrefix(suffix, "/api") {
			want = "/api/anthropic/v1/messages"
		}
		if got := rec.reqs[0].URL.Path; got != want {
			t.Errorf("base %q: posted to %s, want %s", suffix, got, want)
		}
	}
}

// A 404 names the address that was tried and the setting to change.
func TestNotFoundNamesTheURLAndTheFix(t *testing.T) {
	rec := newRecorder(t, jsonReply(404, `404 page not found`))
	c := New(rec.URL+"/wrong?key=secret", WithAPIKey("key"), WithMaxRetries(0))
	_, err := c.CreateMessage(context.Background(), testRequest())
	var ae *APIError
	if !errors.As(err, &ae) {
		t.Fatalf("err %v", err)
	}
	want := rec.URL + "/wrong/v1/messages"
	if ae.URL != want || !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not name %s", err, want)
	}
	if h := ae.Hint(); !strings.Contains(h, want) || !strings.Contains(h, "ANTHROPIC_BASE_URL") {
		t.Errorf("hint %q", h)
	}
	if strings.Contains(err.Error()+ae.Hint(), "secret") {
		t.Errorf("the query leaked: %v", err)
	}
}

// A credential over plain http to another host is refused before anything
// is sent, saying how to allow it; loopback, https, no credential, or the
// allowance on purpose all go.
func TestCredentialOverPlainHTTP(t *testing.T) {
	c := New("http://llm.example.com", WithAPIKey("key"))
	_, err := c.CreateMessage(context.Background(), testRequest())
	if !errors.Is(err, ErrInvalidRequest) || !strings.Contains(err.Error(), "MUSE_ALLOW_INSECURE_HTTP") || !strings.Contains(err.Error(), "allow_insecure_http") {
		t.Errorf("err %v", err)
	}
	for _, c := range []*Client{
		New("http://llm.example.com"),
		New("https://llm.example.com", WithAccessToken("t")),
		New("http://llm.example.com", WithAccessToken("t"), WithInsecureHTTP(true)),
		New("http://localhost:11434", WithAccessToken("t")),
		New("http://[::1]:8080", WithAccessToken("t")),
		New("http://127.0.0.2:8080", WithAccessToken("t")),
	} {
		if c.configErr != nil {
			t.Errorf("%s: %v", c.shown, c.configErr)
		}
	}
}

// Loopback is what Go's proxy handling never proxies: a credential that
// goes over plain http to "a.localhost" or "localhost." may pass through
// HTTP_PROXY, so they do not count (found in the attack review).
func TestIsLoopback(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST": true, "127.0.0.1": true, "127.9.9.9": true, "::1": true,
		"LOCALHOST.": false, "ollama.localhost": false,
		"example.com": false, "10.0.0.1": false, "localhost.example.com": false, "": false, "128.0.0.1": false,
	} {
		if IsLoopback(host) != want {
			t.Errorf("IsLoopback(%q) = %v", host, !want)
		}
	}
}

// A 400 that names a refused parameter gets a hint naming muse's setting
// and how to turn it off.
func TestRefusedParameterHints(t *testing.T) {
	for msg, want := range map[string]string{
		"thinking.type.enabled is not supported for this model. Use thinking.type.adaptive and output_config.effort": "/thinking adaptive",
		"temperature: Extra inputs are not permitted":                                                                "/temperature off",
		"`temperature` is deprecated for this model.":                                                                "/temperature off",
		"top_p: not supported":   "/top-p off",
		"top_k is not supported": "/top-k off",
		"thinking.type: Input tag 'adaptive' found using 'type' does not match any of the expected tags": "/thinking off, or a budget",
		"max_tokens: 200000 > 128000, which is the maximum allowed number of output tokens for claude-x": "lower /max-tokens",
		"messages: at least one message is required":                                                     "check the settings it names",
	} {
		e := newAPIError(400, []byte(`{"type":"error","error":{"type":"invalid_request_error","message":`+quoteJSON(msg)+`}}`), "")
		if h := e.Hint(); !strings.Contains(h, want) {
			t.Errorf("%q: hint %q, want %q", msg, h, want)
		}
	}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Anthropic's paged list is followed page by page; the OpenAI-style list
// is read too; the key and the version go with the request.
func TestListModelsBothShapes(t *testing.T) {
	rec := newRecorder(t,
		jsonReply(200, `{"data":[{"type":"model","id":"claude-a","display_name":"Claude A","created_at":"2025-01-01T00:00:00Z"}],"has_more":true,"first_id":"claude-a","last_id":"claude-a"}`),
		jsonReply(200, `{"data":[{"type":"model","id":"claude-b","display_name":"Claude B","created_at":"2025-02-01T00:00:00Z"}],"has_more":false,"last_id":"claude-b"}`))
	c := New(rec.URL+"/v1?k=v", WithAPIKey("key"))
	ms, err := c.ListModels(context.Background())
	if err != nil || len(ms) != 2 || ms[0].ID != "claude-a" || ms[1].DisplayName != "Claude B" {
		t.Fatalf("%v %+v", err, ms)
	}
	if q := rec.reqs[1].URL.Query(); q.Get("after_id") != "claude-a" || q.Get("k") != "v" || rec.reqs[1].URL.Path != "/v1/models" {
		t.Errorf("second page asked as %s", rec.reqs[1].URL)
	}
	if h := rec.reqs[0].Header; h.Get("x-api-key") != "key" || h.Get("anthropic-version") == "" {
		t.Errorf("headers %v", h)
	}
	rec = newRecorder(t, jsonReply(200, `{"object":"list","data":[{"id":"qwen3","object":"model","created":1700000000,"owned_by":"library"},{"id":"gpt-oss:20b","object":"model","created":1700000001}]}`))
	ms, err = New(rec.URL).ListModels(context.Background())
	if err != nil || len(ms) != 2 || ms[1].ID != "gpt-oss:20b" || ms[0].Created != "1700000000" {
		t.Fatalf("openai shape: %v %+v", err, ms)
	}
}

// The context window is read where a service gives it: OpenRouter's
// context_length (or its top_provider's), vLLM's max_model_len; none stays 0.
func TestListModelsContextWindow(t *testing.T) {
	rec := newRecorder(t, jsonReply(200, `{"data":[{"id":"a","context_length":200000},{"id":"b","top_provider":{"context_length":64000}},{"id":"c","max_model_len":32768},{"id":"d"}]}`))
	ms, err := New(rec.URL).ListModels(context.Background())
	if err != nil || len(ms) != 4 {
		t.Fatalf("%v %+v", err, ms)
	}
	for i, want := range []int{200000, 64000, 32768, 0} {
		if ms[i].ContextWindow != want {
			t.Errorf("%s: window %d, want %d", ms[i].ID, ms[i].ContextWindow, want)
		}
	}
}

// A huge, hostile or malformed list is bounded and cleaned: at most
// MaxModels entries, ids with control characters dropped, a list that
// pages forever stopped, one larger than MaxModelsSize refused.
func TestListModelsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"data":[`)
	for i := range MaxModels + 50 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"m%d"}`, i)
	}
	b.WriteString(`,{"id":"evil\u001b[2J"},{"id":""}],"has_more":true,"last_id":"m1"}`)
	rec := newRecorder(t, jsonReply(200, b.String()))
	ms, err := New(rec.URL).ListModels(context.Background())
	if err != nil || len(ms) != MaxModels {
		t.Fatalf("%v: %d models", err, len(ms))
	}
	if len(rec.reqs) != 1 {
		t.Errorf("%d pages asked for a full list", len(rec.reqs))
	}
	rec = newRecorder(t, jsonReply(200, `{"data":[{"id":"ok"},{"id":"evil\u001b[2J"},{"id":"`+strings.Repeat("x", 300)+`"}],"has_more":true,"last_id":"ok"}`))
	ms, err = New(rec.URL).ListModels(context.Background())
	if err != nil || len(ms) != 1 || ms[0].ID != "ok" || len(rec.reqs) != 2 {
		t.Errorf("%v %+v after %d pages", err, ms, len(rec.reqs))
	}
	rec = newRecorder(t, jsonReply(200, `{"data":[{"id":"`+strings.Repeat("x", MaxModelsSize)+`"}]}`))
	if _, err := New(rec.URL).ListModels(context.Background()); err == nil || !strings.Contains(err.Error(), "larger than 4 MiB") {
		t.Errorf("huge list: %v", err)
	}
	rec = newRecorder(t, jsonReply(200, `<html>nope</html>`))
	if _, err := New(rec.URL).ListModels(context.Background()); err == nil || !strings.Contains(err.Error(), "not a models list") {
		t.Errorf("malformed: %v", err)
	}
	rec = newRecorder(t, jsonReply(404, `404 page not found`))
	var ae *APIError
	if _, err := New(rec.URL, WithMaxRetries(0)).ListModels(context.Background()); !errors.As(err, &ae) || ae.Status != 404 {
		t.Errorf("no endpoint: %v", err)
	}
}

// A server that quotes the credential it was given back in an error, in
// the response or in a stream's error event, never gets it onto the screen
// or into a session: the client masks its own credentials (attack review).
func TestEchoedCredentialIsMasked(t *testing.T) {
	const token = "sekrit-token-0123456789"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		quoted := r.Header.Get("Authorization")
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), `"stream":true`) {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"bad: "+quoted+"\"}}\n\n")
			return
		}
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"type":"error","error":{"type":"invalid_request_error","message":"bad token: `+quoted+`"}}`)
	}))
	defer srv.Close()
	c := New(srv.URL, WithAccessToken(token), WithMaxRetries(0))
	_, err := c.CreateMessage(context.Background(), MessageRequest{Model: "m", MaxTokens: 10, Messages: []MessageParam{TextMessage(RoleUser, "hi")}})
	if err == nil || strings.Contains(err.Error(), token) || !strings.Contains(err.Error(), "credential hidden") {
		t.Errorf("the error: %v", err)
	}
	s, err := c.StreamMessage(context.Background(), MessageRequest{Model: "m", MaxTokens: 10, Messages: []MessageParam{TextMessage(RoleUser, "hi")}})
	if err != nil {
		t.Fatal(err)
	}
	for s.Next() {
	}
	if err := s.Err(); err == nil || strings.Contains(err.Error(), token) {
		t.Errorf("the stream's error: %v", err)
	}
}
