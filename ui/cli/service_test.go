package cli

import (
	"strings"
	"testing"
)

// The providers' own ANTHROPIC_* variables give a chat with no MUSE_*
// setting and no file: the auth token as a bearer token, the key as
// x-api-key, the token winning when both are set.
func TestAnthropicVariablesAlone(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(),
		"ANTHROPIC_BASE_URL": "https://gw.example.com/v1", "ANTHROPIC_API_KEY": "k", "ANTHROPIC_MODEL": "claude-x"}
	c, err := resolveArgs(t, env)
	if err != nil {
		t.Fatal(err)
	}
	if c.baseURL != "https://gw.example.com/v1" || c.apiKey != "k" || c.token != "" || c.params.Model != "claude-x" || c.baseFrom != "ANTHROPIC_BASE_URL" {
		t.Errorf("config %+v", c)
	}
	env["ANTHROPIC_AUTH_TOKEN"] = "t"
	if c, err = resolveArgs(t, env); err != nil || c.token != "t" || c.apiKey != "" {
		t.Errorf("auth token: %v %+v", err, c)
	}
	// MUSE_* beat them.
	env["MUSE_MODEL"], env["MUSE_API_KEY"] = "mine", "mk"
	if c, err = resolveArgs(t, env); err != nil || c.params.Model != "mine" || c.apiKey != "mk" || c.token != "" {
		t.Errorf("MUSE_*: %v %+v", err, c)
	}
}

// A key alone goes to Anthropic's API.
func TestAnthropicKeyAloneGoesToAnthropic(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "ANTHROPIC_API_KEY": "k", "ANTHROPIC_MODEL": "m"}
	c, err := resolveArgs(t, env)
	if err != nil || c.baseURL != anthropicBaseURL || c.apiKey != "k" {
		t.Errorf("%v %+v", err, c)
	}
	// With the key alone, the model is the anthropic recipe's, as most
	// Claude Code set-ups hold just the key.
	delete(env, "ANTHROPIC_MODEL")
	if c, err = resolveArgs(t, env); err != nil || c.params.Model != "claude-opus-4-7" {
		t.Errorf("the key alone: %v %+v", err, c)
	}
	env["ANTHROPIC_BASE_URL"] = "http://127.0.0.1:9" // another address: no default model
	if c, err = resolveArgs(t, env); err == nil && c.params.Model != "" {
		t.Errorf("a model was made up for another address: %q", c.params.Model)
	}
}

// An ANTHROPIC_* credential never goes to an address muse's own settings
// gave: a key for one provider must not reach another.
func TestAnthropicKeyNotSentToAnotherAddress(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "ANTHROPIC_API_KEY": "k", "MUSE_BASE_URL": "https://other.example.com", "MUSE_MODEL": "m"}
	_, err := resolveArgs(t, env)
	if err == nil || !strings.Contains(err.Error(), "no credentials for https://other.example.com") {
		t.Errorf("err %v", err)
	}
}

// A server on this machine needs no credential, and gets none.
func TestLoopbackNeedsNoCredential(t *testing.T) {
	for _, base := range []string{"http://localhost:11434", "http://127.0.0.1:8080/v1", "http://[::1]:1234/"} {
		env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "ANTHROPIC_BASE_URL": base, "ANTHROPIC_MODEL": "qwen3"}
		c, err := resolveArgs(t, env)
		if err != nil || c.token != "" || c.apiKey != "" {
			t.Errorf("%s: %v %+v", base, err, c)
		}
	}
}

// A credential over plain http to another host is refused at start with
// how to allow it; the variable or the profile's key allows it.
func TestPlainHTTPCredentialRefused(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "MUSE_BASE_URL": "http://gpu.lan:8000", "MUSE_MODEL": "m", "MUSE_API_KEY": "secret-key"}
	_, err := resolveArgs(t, env)
	if err == nil || !strings.Contains(err.Error(), "plain http://") || !strings.Contains(err.Error(), "MUSE_ALLOW_INSECURE_HTTP=1") || strings.Contains(err.Error(), "secret-key") {
		t.Fatalf("err %v", err)
	}
	env["MUSE_ALLOW_INSECURE_HTTP"] = "1"
	if _, err := resolveArgs(t, env); err != nil {
		t.Errorf("allowed by the variable: %v", err)
	}
	delete(env, "MUSE_ALLOW_INSECURE_HTTP")
	writeConfig(t, env, "default_profile = \"lan\"\n[profiles.lan]\nallow_insecure_http = true\n")
	if _, err := resolveArgs(t, env); err != nil {
		t.Errorf("allowed by the profile: %v", err)
	}
}

// doctor and config show name the variable that gave each value, never
// the credential.
func TestDoctorAndConfigShowNameTheVariable(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_STATE_HOME": t.TempDir(),
		"ANTHROPIC_BASE_URL": "https://gw.example.com", "ANTHROPIC_API_KEY": "sekrit-key", "ANTHROPIC_MODEL": "claude-x"}
	r := runMain(t, env, "", "doctor", "--offline")
	for _, want := range []string{"https://gw.example.com (from ANTHROPIC_BASE_URL)", "claude-x (from ANTHROPIC_MODEL)", "API key (x-api-key) from ANTHROPIC_API_KEY"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor lacks %q:\n%s", want, r.stdout)
		}
	}
	r = runMain(t, env, "", "config", "show")
	for _, want := range []string{`# base_url = "https://gw.example.com" (from ANTHROPIC_BASE_URL)`, `# model = "claude-x" (from ANTHROPIC_MODEL)`, "# API key = **** (from ANTHROPIC_API_KEY, sent as x-api-key)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("config show lacks %q:\n%s", want, r.stdout)
		}
	}
	env["MUSE_BASE_URL"] = "http://gpu.lan:8000"
	env["MUSE_API_KEY"] = "k"
	r = runMain(t, env, "", "doctor")
	if !strings.Contains(r.stdout, "plain http://") || r.code != 1 {
		t.Errorf("doctor passes a credential over plain http:\n%s", r.stdout)
	}
	if strings.Contains(r.stdout+r.stderr, "sekrit") {
		t.Error("a credential was shown")
	}
}
