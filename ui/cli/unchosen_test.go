package cli

import (
	"strings"
	"testing"
)

// A configuration file with profiles but no default_profile (what muse
// config init writes, and where --service appends to it) is named with its
// profiles and how to pick one, by the error of a run without an address,
// by config show and by doctor: "set base_url in a profile" and "sets no
// profile" sent a new user to edit a file that already had one.
func TestUnchosenProfilesAreNamed(t *testing.T) {
	env := map[string]string{}
	path := writeConfig(t, env, "[profiles.work]\nbase_url = \"https://llm.example.com\"\nmodel = \"m\"\n[profiles.\"home lab\"]\nbase_url = \"http://localhost:11434\"\nmodel = \"q\"\n")
	want := path + ` has the profiles home lab, work but no default_profile: pick one with --profile 'home lab' (or MUSE_PROFILE), or set default_profile = "home lab"`
	r := runMain(t, env, "", "-p", "hi")
	if r.code != ExitUsage || !strings.Contains(r.stderr, "no service address: "+want) {
		t.Errorf("-p: code %d stderr %q; want %q", r.code, r.stderr, want)
	}
	if r := runMain(t, env, "", "config", "show"); r.code != 0 || !strings.Contains(r.stdout, want) {
		t.Errorf("config show: code %d stdout %q", r.code, r.stdout)
	}
	if r := runMain(t, env, "", "doctor", "--offline"); !strings.Contains(r.stdout, "none: "+want) {
		t.Errorf("doctor: stdout %q", r.stdout)
	}
	// The hint, pasted, works: the profile is taken.
	if r := runMain(t, env, "", "--profile", "home lab", "config", "show"); r.code != 0 || !strings.Contains(r.stdout, "profile home lab") {
		t.Errorf("config show --profile 'home lab': code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}

	// A file without profiles keeps the general message.
	bare := map[string]string{}
	writeConfig(t, bare, "# nothing yet\n")
	r = runMain(t, bare, "", "-p", "hi")
	if r.code != ExitUsage || strings.Contains(r.stderr, "default_profile") || !strings.Contains(r.stderr, "set MUSE_BASE_URL") {
		t.Errorf("no profiles: code %d stderr %q", r.code, r.stderr)
	}
}
