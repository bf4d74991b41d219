package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// recordServer answers every message request with a fixed reply and keeps
// the last request's body and headers.
func recordServer(t *testing.T) (*httptest.Server, func() (map[string]any, http.Header)) {
	var mu sync.Mutex
	var body map[string]any
	var hdr http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		mu.Lock()
		json.Unmarshal(data, &body)
		hdr = r.Header.Clone()
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"m","type":"message","role":"assistant","model":"x","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`)
	}))
	t.Cleanup(srv.Close)
	return srv, func() (map[string]any, http.Header) { mu.Lock(); defer mu.Unlock(); return body, hdr }
}

func writeConfig(t *testing.T, env map[string]string, text string) string {
	t.Helper()
	dir := t.TempDir()
	env["XDG_CONFIG_HOME"] = dir
	path := filepath.Join(dir, "muse", "config.toml")
	os.MkdirAll(filepath.Dir(path), 0o700)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestConfigPrecedence(t *testing.T) {
	srv, last := recordServer(t)
	env := map[string]string{"WORK_TOKEN": "s3cret-from-env-var"}
	writeConfig(t, env, `default_profile = "work"
[profiles.work]
base_url = "`+srv.URL+`"
access_token_env = "WORK_TOKEN"
version_header = "anthropic-version"
provider_version = "2024-10-22"
model = "profile-model"
max_tokens = 1000
temperature = 0.3
system = "from the profile"
user_id = "user-7"
[profiles.other]
base_url = "`+srv.URL+`"
access_token_cmd = "printf cmd-token"
model = "other-model"
`)
	r := runMain(t, env, "", "-p", "hi", "--no-stream", "--temperature", "0.9")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	body, hdr := last()
	// Flags beat the profile; the profile beats the defaults.
	if body["temperature"] != 0.9 || body["model"] != "profile-model" || body["max_tokens"] != 1000.0 || body["system"] != "from the profile" {
		t.Errorf("body %v", body)
	}
	if md, _ := body["metadata"].(map[string]any); md["user_id"] != "user-7" {
		t.Errorf("metadata %v", body["metadata"])
	}
	if hdr.Get("Authorization") != "Bearer s3cret-from-env-var" || hdr.Get("anthropic-version") != "2024-10-22" || hdr.Get("provider-version") != "" {
		t.Errorf("headers %v", hdr)
	}
	// The environment beats the profile.
	env["MUSE_MODEL"] = "env-model"
	runMain(t, env, "", "-p", "hi", "--no-stream")
	if body, _ := last(); body["model"] != "env-model" {
		t.Errorf("env did not beat the profile: %v", body["model"])
	}
	delete(env, "MUSE_MODEL")
	// --profile and MUSE_PROFILE pick another; its token comes from a command.
	runMain(t, env, "", "-p", "hi", "--no-stream", "--profile", "other")
	if body, hdr := last(); body["model"] != "other-model" || hdr.Get("Authorization") != "Bearer cmd-token" {
		t.Errorf("--profile other: %v %v", body["model"], hdr.Get("Authorization"))
	}
	env["MUSE_PROFILE"] = "other"
	runMain(t, env, "", "-p", "hi", "--no-stream")
	if body, _ := last(); body["model"] != "other-model" {
		t.Errorf("MUSE_PROFILE: %v", body["model"])
	}
	if r := runMain(t, env, "", "-p", "hi", "--profile", "nope"); r.code != 2 || !strings.Contains(r.stderr, "nope") {
		t.Errorf("unknown profile: %+v", r)
	}
	// Secrets never reach the output, not even in config show.
	r = runMain(t, env, "", "config", "show", "--profile", "work")
	if r.code != 0 || strings.Contains(r.stdout+r.stderr, "s3cret") || !strings.Contains(r.stdout, "WORK_TOKEN") {
		t.Errorf("config show: %+v", r)
	}
}

func TestConfigErrorsNameFileAndLine(t *testing.T) {
	cases := []struct{ text, want string }{
		{"[profiles.a]\nmodel = \"m\"\ntemprature = 0.5\n", `:3:1: unknown key "temprature"`},
		{"[profiles.a]\nmax_tokens = \"lots\"\n", ":2:14: max_tokens must be an integer"},
		{"[profiles.a]\n\ntemperature = 1.5\n", ":3:1: temperature must be between 0 and 1"},
		{"[profiles.a]\naccess_token = \"abc\"\n", "access_token_env or access_token_cmd"},
	}
	for _, tc := range cases {
		env := map[string]string{}
		path := writeConfig(t, env, tc.text)
		r := runMain(t, env, "", "--demo", "-p", "hi", "--profile", "a")
		if r.code != 2 || !strings.Contains(r.stderr, path) || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%q: %+v", tc.text, r)
		}
		if strings.Contains(r.stderr, "abc") {
			t.Errorf("a secret reached stderr: %q", r.stderr)
		}
	}
}

func TestConfigPathAndInit(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir()}
	r := runMain(t, env, "", "config", "path")
	want := filepath.Join(env["XDG_CONFIG_HOME"], "muse", "config.toml")
	if r.code != 0 || strings.TrimSpace(r.stdout) != want {
		t.Fatalf("path: %+v", r)
	}
	if r := runMain(t, env, "", "config", "init"); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	if st, err := os.Stat(want); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("init wrote %v %v", err, st)
	}
	if r := runMain(t, env, "", "config", "init"); r.code != 2 || !strings.Contains(r.stderr, "not overwritten") {
		t.Errorf("second init: %+v", r)
	}
	// The example loads.
	if r := runMain(t, env, "", "--demo", "-p", "hello"); r.code != 0 {
		t.Errorf("the example config does not load: %+v", r)
	}
}
