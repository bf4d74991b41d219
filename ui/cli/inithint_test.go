package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// The hint config init prints works when pasted: with --config FILE, the
// command it names reads FILE, not the default file; without, it is the
// plain command.
func TestConfigInitHintNamesTheFile(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir()}
	file := filepath.Join(t.TempDir(), "my.toml")
	r := runMain(t, env, "", "config", "init", "--config", file)
	want := "then muse --config " + file + " config show"
	if r.code != 0 || !strings.Contains(r.stdout, want) {
		t.Fatalf("config init --config says %q; want it to say %q", r.stdout, want)
	}
	// The hint, run: it shows FILE.
	if r := runMain(t, env, "", "--config", file, "config", "show"); r.code != 0 || !strings.Contains(r.stdout, file) {
		t.Errorf("the hint, run: %+v", r)
	}
	svc := filepath.Join(t.TempDir(), "svc.toml")
	r = runMain(t, env, "", "config", "init", "--service", "ollama", "--config", svc)
	if want := "muse --config " + svc + " doctor --profile ollama"; r.code != 0 || !strings.Contains(r.stdout, want) {
		t.Errorf("config init --service --config says %q; want %q", r.stdout, want)
	}
	if r := runMain(t, env, "", "config", "init"); r.code != 0 || !strings.Contains(r.stdout, "then muse config show") {
		t.Errorf("config init without --config: %+v", r)
	}
}

// A mistyped flag is named with the flag it is closest to, among those of
// its command: muse --modle, muse sessions list --jsn.
func TestUnknownFlagSuggests(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir()}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--modle", "x"}, `unknown flag: --modle (did you mean "--model"?) (see muse --help)`},
		{[]string{"sessions", "list", "--jsn"}, `unknown flag: --jsn (did you mean "--json"?)`},
		{[]string{"--zzzzzzzz"}, `unknown flag: --zzzzzzzz (see muse --help)`},
	} {
		if r := runMain(t, env, "", tc.args...); r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("muse %q: %+v; want status 2 and %q", tc.args, r, tc.want)
		}
	}
}

// A mistyped command names the one it is closest to, on one line.
func TestUnknownCommandSuggests(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sessions", "lst"}, `unknown command "lst" (did you mean "list"?): use list, show`},
		{[]string{"config", "shwo"}, `unknown command "shwo" (did you mean "show"?): use path, show or init`},
		{[]string{"sesions"}, `unknown command "sesions" (did you mean muse sessions?); a prompt goes in -p "..."`},
		{[]string{"sessions", "zzzzzz"}, `unknown command "zzzzzz": use list`},
	} {
		r := runMain(t, nil, "", tc.args...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Errorf("muse %q: %+v; want status 2 and one line with %q", tc.args, r, tc.want)
		}
	}
}
