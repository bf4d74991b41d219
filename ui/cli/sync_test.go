package cli

import (
	"os"
	"os/exec"
	"path/filepath"
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

// On a machine given the key in MUSE_SYNC_KEY, which keeps none, muse sync
// init does not end with "Run muse sync", which would then find no key: it
// says each sync needs the key, and how to give it. The first machine,
// which keeps the key it made, is told to run muse sync, and that works.
func TestSyncInitSaysWhereTheNextSyncFindsTheKey(t *testing.T) {
	needGit(t)
	remote := filepath.Join(t.TempDir(), "remote.git")
	if out, err := exec.Command("git", "init", "--quiet", "--bare", remote).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	machine := func() map[string]string {
		return map[string]string{"XDG_STATE_HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir(), "XDG_CONFIG_HOME": t.TempDir()}
	}
	first := machine()
	if r := runMain(t, first, "", "sync", "init", remote); r.code != 0 || !strings.Contains(r.stdout, "Run muse sync to sync now") {
		t.Fatalf("first machine's init: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := runMain(t, first, "", "sync"); r.code != 0 {
		t.Fatalf("muse sync after the first init: code %d stderr %q", r.code, r.stderr)
	}
	key := runMain(t, first, "", "sync", "key")
	if key.code != 0 || !strings.HasPrefix(key.stdout, "AGE-SECRET-KEY-") {
		t.Fatalf("sync key: code %d stdout %q stderr %q", key.code, key.stdout, key.stderr)
	}

	other := machine()
	withKey := map[string]string{"MUSE_SYNC_KEY": strings.TrimSpace(key.stdout)}
	for k, v := range other {
		withKey[k] = v
	}
	r := runMain(t, withKey, "", "sync", "init", remote)
	if r.code != 0 {
		t.Fatalf("other machine's init: code %d stderr %q", r.code, r.stderr)
	}
	if strings.Contains(r.stdout, "Run muse sync to sync now") {
		t.Errorf("init says to run muse sync, which finds no key on this machine:\n%s", r.stdout)
	}
	for _, want := range []string{"every muse sync here needs it", "sync_key_cmd", "MUSE_SYNC_KEY"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("init does not say %q:\n%s", want, r.stdout)
		}
	}
	if r := runMain(t, other, "", "sync"); r.code == 0 || !strings.Contains(r.stderr, "MUSE_SYNC_KEY") {
		t.Errorf("muse sync without the key: code %d stderr %q; want a failure naming MUSE_SYNC_KEY", r.code, r.stderr)
	}
	if r := runMain(t, withKey, "", "sync"); r.code != 0 || !strings.Contains(r.stdout, "synced: 0 files sent") {
		t.Errorf("muse sync with the key: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
}

// needGit returns git's path; without git it skips, and fails under CI,
// whose machines have it.
func needGit(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is missing")
		}
		t.Skip("git is missing")
	}
	return p
}
