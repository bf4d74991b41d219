package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoctorShowsWhatMuseSees checks muse doctor with a profile whose
// token comes from a variable: it names the file, the profile, the base
// URL and where the token comes from, never the token, and the folders
// with their permissions.
func TestDoctorShowsWhatMuseSees(t *testing.T) {
	env := map[string]string{"WORK_TOKEN": "sekrit-token-value", "TERM": "xterm-256color", "TMUX": "/tmp/tmux-1/default,1,0", "XDG_STATE_HOME": t.TempDir()}
	path := writeConfig(t, env, "default_profile = \"work\"\n[profiles.work]\nbase_url = \"https://llm.example.com\"\nmodel = \"m1\"\naccess_token_env = \"WORK_TOKEN\"\n")
	r := runTTY(t, env, 90, "doctor", "--offline")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	for _, want := range []string{
		"config file", path, "0600",
		"profile          work (from default_profile)",
		"base URL         https://llm.example.com (from the profile's base_url)",
		"model            m1",
		"access token from $WORK_TOKEN", "****", "(18 characters)",
		"a terminal, 90 columns", "TERM             xterm-256color, TMUX set",
		"kitty graphics", "clipboard        OSC 52 through tmux",
		"sessions", filepath.Join(env["XDG_DATA_HOME"], "muse", "sessions"),
		"search index", "muse-cache", "derived from the sessions",
		"session locks", filepath.Join("muse", "locks"),
		"debug log", "muse.log",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout+r.stderr, "sekrit") {
		t.Errorf("doctor showed the token:\n%s", r.stdout)
	}
	// --profile and the environment beat the file's default.
	if r := runTTY(t, env, 90, "doctor", "--profile", "nope"); r.code != 1 || !strings.Contains(r.stdout, `✗ profile`) {
		t.Errorf("unknown profile: %+v", r)
	}
	env["MUSE_BASE_URL"] = "http://127.0.0.1:9"
	if r := runTTY(t, env, 90, "doctor", "--offline"); !strings.Contains(r.stdout, "http://127.0.0.1:9 (from MUSE_BASE_URL)") {
		t.Errorf("MUSE_BASE_URL: %s", r.stdout)
	}
	// A user, a password or a query value in the address may be a secret.
	env["MUSE_BASE_URL"] = "http://user:PASS@127.0.0.1:9/v?key=K3Y&x=1#frag"
	r = runTTY(t, env, 90, "doctor", "--offline")
	if !strings.Contains(r.stdout, "http://xxxxx:xxxxx@127.0.0.1:9/v?key=xxxxx&x=xxxxx (from MUSE_BASE_URL)") || strings.Contains(r.stdout, "PASS") || strings.Contains(r.stdout, "user:") || strings.Contains(r.stdout, "K3Y") {
		t.Errorf("the address is not masked: %s", r.stdout)
	}
}

// TestDoctorReportsWhatIsMissing checks that muse doctor with nothing set
// marks what a chat needs and exits 1, and flags an open sessions folder.
func TestDoctorReportsWhatIsMissing(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir()}
	dir := filepath.Join(env["XDG_DATA_HOME"], "muse", "sessions")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	r := runMain(t, env, "", "doctor")
	if r.code != 1 {
		t.Fatalf("%+v", r)
	}
	for _, want := range []string{"(none; it is optional", "✗ base URL", "✗ model", "✗ credentials", "set MUSE_ACCESS_TOKEN", "not a terminal", "✗ sessions", "chmod 700"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor lacks %q:\n%s", want, r.stdout)
		}
	}
	// With --demo, before or after the command, nothing is missing but
	// the folder's mode.
	os.Chmod(dir, 0o700)
	for _, args := range [][]string{{"doctor", "--demo"}, {"--demo", "doctor"}} {
		r := runMain(t, env, "", args...)
		if r.code != 0 || !strings.Contains(r.stdout, "the embedded demo server (--demo)") || strings.Contains(r.stdout, "✗") {
			t.Errorf("%q: %+v", args, r)
		}
	}
}

// A base URL that does not parse is refused without showing its password
// or query values.
func TestBadBaseURLErrorIsMasked(t *testing.T) {
	for _, u := range []string{"https://alice:s3cr%t@127.0.0.1:18181/", "ftp://bob:PW@host/?api_key=K3Y%zz"} {
		r := runMain(t, map[string]string{"MUSE_BASE_URL": u, "MUSE_MODEL": "m", "MUSE_ACCESS_TOKEN": "t"}, "", "-p", "hi")
		if r.code != 2 || !strings.Contains(r.stderr, "is not an http(s) address") || strings.Contains(r.stderr, "s3cr") || strings.Contains(r.stderr, "PW") || strings.Contains(r.stderr, "K3Y") {
			t.Errorf("%s: %+v", u, r)
		}
	}
}

// A conflict copy that could not be merged whole is left beside its
// session and listed by muse doctor, with what to do.
func TestDoctorListsSyncNotes(t *testing.T) {
	env := map[string]string{"XDG_STATE_HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir(), "TERM": "xterm-256color"}
	writeConfig(t, env, "model = \"m1\"\nbase_url = \"https://llm.example.com\"\n")
	dir := filepath.Join(env["XDG_DATA_HOME"], "muse", "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	id := "20250301-090000-0102030405060708"
	header := `{"v":2,"type":"header","time":"2025-03-01T09:00:00Z","id":"` + id + `","params":{}}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), []byte(header), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, id+".sync-conflict-20250301-101010-ABC.jsonl"), []byte(header+"not json\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runTTY(t, env, 200, "doctor")
	for _, want := range []string{"Sync", "sync notes", id + ".sync-conflict-20250301-101010-ABC.jsonl.unmerged", "look at it, then delete it"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor lacks %q:\n%s", want, r.stdout)
		}
	}
}

// Before sync is set up, the Sync section says so on one "sync" line; the
// sync engines' conflict copies have a line of their own, which does not
// read as if a sync had run.
func TestDoctorSyncSectionBeforeSetUp(t *testing.T) {
	env := map[string]string{"XDG_STATE_HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir(), "TERM": "xterm-256color"}
	env["XDG_CONFIG_HOME"] = t.TempDir()
	r := runTTY(t, env, 200, "doctor", "--offline")
	var syncLines []string
	for _, l := range strings.Split(r.stdout, "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] == "sync" {
			syncLines = append(syncLines, l)
		}
	}
	if len(syncLines) != 1 || !strings.Contains(syncLines[0], "not set up (muse sync init REMOTE)") {
		t.Errorf("the Sync section's sync lines = %q; want one saying it is not set up:\n%s", syncLines, r.stdout)
	}
	if !strings.Contains(r.stdout, "conflict copies") {
		t.Errorf("doctor does not say whether conflict copies are left:\n%s", r.stdout)
	}
}
