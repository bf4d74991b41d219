package cli

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"muse/api/demo"
)

// readLog returns the debug log under state, checking its permissions.
func readLog(t *testing.T, state string) string {
	t.Helper()
	path := filepath.Join(state, "muse", "muse.log")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
			t.Errorf("log mode %v, want 0600", fi.Mode().Perm())
		}
		if fi, _ := os.Stat(filepath.Dir(path)); fi.Mode().Perm() != 0o700 {
			t.Errorf("log folder mode %v, want 0700", fi.Mode().Perm())
		}
	}
	return string(data)
}

// TestDebugLogFailedAndRetried runs a failed and a retried demo request
// with --debug and with MUSE_DEBUG=1: the log holds each request's method,
// path, status, request id, attempt and the stream's event counts, and
// neither the token nor the prompt; nothing reaches stdout or stderr but
// the usual.
func TestDebugLogFailedAndRetried(t *testing.T) {
	state := t.TempDir()
	env := map[string]string{"XDG_STATE_HOME": state}
	r := runMain(t, env, "", "--demo", "-p", "demo:error tell me a secret plan", "--debug")
	if r.code != 1 || strings.Contains(r.stderr, "debug") {
		t.Fatalf("demo:error: %+v", r)
	}
	env["MUSE_DEBUG"] = "1"
	r = runMain(t, env, "", "--demo", "-p", "demo:ratelimit tell me a secret plan")
	if r.code != 0 || !strings.Contains(r.stderr, "retrying") || strings.Contains(r.stderr, "debug") {
		t.Fatalf("demo:ratelimit: %+v", r)
	}
	log := readLog(t, state)
	for _, re := range []string{
		`msg=start version=".*" .*mode=print`,
		`msg=request n=1 method=POST host=127\.0\.0\.1:\d+ path=/v1/messages attempt=1 ms=\d+ request_bytes=\d+ status=200 request_id=req_demo_\d+`,
		`msg=stream n=1 ended=\w+ events=\d+ .*content_block_delta=\d+ .*error=1 bytes=\d+ ms=\d+`,
		`level=WARN msg=request n=1 method=POST .* attempt=1 .*status=429 request_id=\S+ retry_after=1`,
		`msg=request n=2 method=POST .* attempt=2 .*status=200`,
		`msg=stream n=2 ended=end events=\d+ message_start=1 .*message_stop=1 .*bytes=\d+`,
	} {
		if !regexp.MustCompile(re).MatchString(log) {
			t.Errorf("log lacks /%s/:\n%s", re, log)
		}
	}
	for _, secret := range []string{demo.DefaultToken, "secret plan", "demo:error", "demo:ratelimit"} {
		if strings.Contains(log, secret) {
			t.Errorf("log holds %q:\n%s", secret, log)
		}
	}
}

// TestDebugLogNeverHoldsSecrets sends a request with a token, a key in the
// query string and a hostile request id to a local server: none of them
// reaches the log raw.
func TestDebugLogNeverHoldsSecrets(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("request-id", "req_1 msg=forged \u009b")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"m","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"the sekrit answer"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`)
	}))
	defer srv.Close()
	state := t.TempDir()
	env := map[string]string{"XDG_STATE_HOME": state, "MUSE_BASE_URL": srv.URL + "/?key=sekrit-query", "MUSE_MODEL": "m", "MUSE_ACCESS_TOKEN": "sekrit-token", "MUSE_DEBUG": "true"}
	r := runMain(t, env, "", "-p", "sekrit prompt", "--no-stream")
	if r.code != 0 || calls.Load() != 1 {
		t.Fatalf("%+v", r)
	}
	log := readLog(t, state)
	if strings.Contains(log, "sekrit") {
		t.Errorf("a secret reached the log:\n%s", log)
	}
	if strings.Count(log, "\n") != 2 || strings.ContainsAny(log, "\x1b") {
		t.Errorf("the request id forged a line or an escape:\n%q", log)
	}
	if !strings.Contains(log, `request_id="req_1 msg=forged \u009b"`) {
		t.Errorf("the request id is not quoted:\n%s", log)
	}
	if !strings.Contains(log, "status=200") {
		t.Errorf("no status:\n%s", log)
	}
}

// TestDebugLogRefusesALink checks that the log is not written through a
// symbolic link, and that muse goes on, saying so.
func TestDebugLogRefusesALink(t *testing.T) {
	if runtime.GOOS == "windows" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI runs on Linux, which has symbolic links")
		}
		t.Skip("symbolic links")
	}
	state := t.TempDir()
	os.MkdirAll(filepath.Join(state, "muse"), 0o700)
	target := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Symlink(target, filepath.Join(state, "muse", "muse.log")); err != nil {
		t.Fatal(err)
	}
	r := runMain(t, map[string]string{"XDG_STATE_HOME": state}, "", "--demo", "-p", "hi", "--debug")
	if r.code != 0 || !strings.Contains(r.stderr, "not a regular file") {
		t.Errorf("%+v", r)
	}
	if _, err := os.Stat(target); err == nil {
		t.Error("the log was written through the link")
	}
	if r := runMain(t, map[string]string{"XDG_STATE_HOME": state}, "", "--demo", "-p", "hi", "--debug", "--quiet"); r.code != 0 || r.stderr != "" {
		t.Errorf("--quiet: %+v", r)
	}
}

// TestDebugClientRedirects checks the debug client's redirect policy: the
// same host only.
func TestDebugClientRedirects(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the redirect to another host was followed, with %q", r.Header.Get("Authorization"))
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/same" {
			io.WriteString(w, "ok")
			return
		}
		target := other.URL
		if r.URL.Path == "/toself" {
			target = "/same"
		}
		http.Redirect(w, r, target, http.StatusFound)
	}))
	defer srv.Close()
	c := newDebugLogTo(nil, time.Now).httpClient()
	if resp, err := c.Get(srv.URL + "/toself"); err != nil || resp.StatusCode != 200 {
		t.Errorf("same host: %v", err)
	}
	req, _ := http.NewRequest("GET", srv.URL+"/away", nil)
	req.Header.Set("Authorization", "Bearer x")
	if _, err := c.Do(req); err == nil || !strings.Contains(err.Error(), "another host") {
		t.Errorf("another host: %v", err)
	}
}
