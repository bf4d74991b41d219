package api

import (
	"context"
	"errors"
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

func TestIsLoopback(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST.": true, "ollama.localhost": true, "127.0.0.1": true, "127.9.9.9": true, "::1": true,
		"example.com": false, "10.0.0.1": false, "localhost.example.com": false, "": false, "128.0.0.1": false,
	} {
		if IsLoopback(host) != want {
			t.Errorf("IsLoopback(%q) = %v", host, !want)
		}
	}
}
