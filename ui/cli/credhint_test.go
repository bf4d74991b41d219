package cli

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A refused credential's hint under -p names where muse took it from, so
// the user fixes the right variable or profile key: the chat screen's
// "check MUSE_ACCESS_TOKEN or MUSE_API_KEY" was wrong for ANTHROPIC_API_KEY
// or a profile's variable, and -p said nothing.
func TestPrintNamesTheRefusedCredential(t *testing.T) {
	status := http.StatusUnauthorized
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		switch status {
		case http.StatusUnauthorized:
			w.Write([]byte(`{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`))
		case http.StatusForbidden:
			w.Write([]byte(`{"type":"error","error":{"type":"permission_error","message":"not allowed"}}`))
		default:
			w.Write([]byte(`{"type":"error","error":{"type":"not_found_error","message":"model: m"}}`))
		}
	}))
	t.Cleanup(srv.Close)
	cases := []struct {
		name    string
		env     map[string]string
		profile string
		want    string
	}{
		{"muse token", map[string]string{"MUSE_BASE_URL": srv.URL, "MUSE_MODEL": "m", "MUSE_ACCESS_TOKEN": "t"}, "", "credential from MUSE_ACCESS_TOKEN:"},
		{"muse key", map[string]string{"MUSE_BASE_URL": srv.URL, "MUSE_MODEL": "m", "MUSE_API_KEY": "k"}, "", "credential from MUSE_API_KEY:"},
		{"anthropic key", map[string]string{"ANTHROPIC_BASE_URL": srv.URL, "ANTHROPIC_MODEL": "m", "ANTHROPIC_API_KEY": "k"}, "", "credential from ANTHROPIC_API_KEY:"},
		{"anthropic token", map[string]string{"ANTHROPIC_BASE_URL": srv.URL, "ANTHROPIC_MODEL": "m", "ANTHROPIC_AUTH_TOKEN": "t"}, "", "credential from ANTHROPIC_AUTH_TOKEN:"},
		{"profile variable", map[string]string{"WORK_TOKEN": "t"}, "access_token_env = \"WORK_TOKEN\"\n", "credential from WORK_TOKEN (profile work's access_token_env):"},
		{"profile command", map[string]string{}, "api_key_cmd = \"echo k\"\n", "credential from profile work's api_key_cmd:"},
		{"no credential", map[string]string{"MUSE_BASE_URL": srv.URL, "MUSE_MODEL": "m"}, "", "wants a credential and none was sent: set MUSE_ACCESS_TOKEN or MUSE_API_KEY"},
	}
	for _, c := range cases {
		if c.profile != "" {
			writeConfig(t, c.env, "default_profile = \"work\"\n[profiles.work]\nbase_url = \""+srv.URL+"\"\nmodel = \"m\"\n"+c.profile)
		}
		r := runMain(t, c.env, "", "-p", "hi")
		// One hint: the credential's, in place of the service error's own.
		if r.code != ExitFailed || !strings.Contains(r.stderr, "401 authentication_error") || !strings.Contains(r.stderr, c.want) ||
			strings.Count(r.stderr, "\n") != 2 {
			t.Errorf("%s: code %d stderr %q; want 401 and %q", c.name, r.code, r.stderr, c.want)
		}
	}
	status = http.StatusForbidden
	r := runMain(t, map[string]string{"MUSE_BASE_URL": srv.URL, "MUSE_MODEL": "m", "MUSE_API_KEY": "k"}, "", "-p", "hi")
	if r.code != ExitFailed || !strings.Contains(r.stderr, "credential from MUSE_API_KEY may not use this model") ||
		!strings.Contains(r.stderr, "--model") || strings.Contains(r.stderr, "/model") {
		t.Errorf("403: code %d stderr %q", r.code, r.stderr)
	}
	status = http.StatusNotFound // not the credential's fault: no credential hint
	r = runMain(t, map[string]string{"MUSE_BASE_URL": srv.URL, "MUSE_MODEL": "m", "MUSE_API_KEY": "k"}, "", "-p", "hi")
	if r.code != ExitFailed || strings.Contains(r.stderr, "credential from") {
		t.Errorf("404: code %d stderr %q; want a failure without a credential hint", r.code, r.stderr)
	}
}
