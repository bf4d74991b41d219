package cli

import (
	"strings"
	"testing"
)

// git runs without the sync key and muse's credentials in its environment.
func TestGitEnvHoldsNoSecret(t *testing.T) {
	t.Setenv("MUSE_SYNC_KEY", "AGE-SECRET-KEY-1SECRET")
	t.Setenv("MUSE_API_KEY", "sk-secret")
	t.Setenv("WORK_TOKEN", "tok-secret")
	t.Setenv("SSH_AUTH_SOCK", "/tmp/agent.sock")
	env := gitEnv(secretEnv([]string{"WORK_TOKEN"}))
	joined := strings.Join(env, "\n")
	for _, s := range []string{"SECRET", "sk-secret", "tok-secret"} {
		if strings.Contains(joined, s) {
			t.Errorf("git's environment holds %s", s)
		}
	}
	if !strings.Contains(joined, "SSH_AUTH_SOCK=/tmp/agent.sock") {
		t.Error("git's environment lost the ssh agent")
	}
}
