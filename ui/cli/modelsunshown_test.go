package cli

import (
	"strings"
	"testing"

	"muse/api/standin"
)

// A service whose only model's id holds an escape sequence: muse models
// and doctor --models both say that it lists no model muse can show, and
// why, instead of printing nothing or "0:".
func TestModelsNoneShown(t *testing.T) {
	srv := standin.Start(standin.Rules{Name: "anthropic", Auth: standin.AuthAPIKey, Version: "anthropic-version",
		Models: standin.ModelsAnthropic, ModelIDs: []string{"m1\x1b[31m"}}, "k")
	defer srv.Close()
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_CACHE_HOME": t.TempDir(), "XDG_STATE_HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir(),
		"ANTHROPIC_BASE_URL": srv.URL, "ANTHROPIC_API_KEY": "k", "ANTHROPIC_MODEL": "m1"}
	r := runMain(t, env, "", "models")
	if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "lists no model muse can show") || !strings.Contains(r.stderr, "control characters") || strings.Contains(r.stderr, "\x1b") {
		t.Errorf("muse models: %+v", r)
	}
	r = runMain(t, env, "", "doctor", "--models")
	if !strings.Contains(r.stdout, "lists no model muse can show") || strings.Contains(r.stdout, "service models   0:") || strings.Contains(r.stdout, "\x1b") {
		t.Errorf("muse doctor --models: %+v", r)
	}
}
