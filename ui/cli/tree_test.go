package cli

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"muse/api"
	"muse/session"
)

// TestGlobalFlagsEitherSide checks that --profile and --config work before
// a command's name as well as after it.
func TestGlobalFlagsEitherSide(t *testing.T) {
	env := map[string]string{}
	writeConfig(t, env, "[profiles.work]\nmodel = \"m-work\"\n[profiles.home]\nmodel = \"m-home\"\n")
	for _, args := range [][]string{
		{"--profile", "work", "config", "show"},
		{"config", "show", "--profile", "work"},
		{"config", "--profile", "work", "show"},
		{"--profile=work", "config", "show"},
	} {
		r := runMain(t, env, "", args...)
		if r.code != 0 || !strings.Contains(r.stdout, `# profile "work"`) || !strings.Contains(r.stdout, "m-work") {
			t.Errorf("%q: %+v", args, r)
		}
	}
	other := filepath.Join(t.TempDir(), "other.toml")
	if err := os.WriteFile(other, []byte("[profiles.x]\nmodel = \"m-x\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--config", other, "--profile", "x", "config", "show"},
		{"config", "show", "--config", other, "--profile", "x"},
	} {
		if r := runMain(t, env, "", args...); r.code != 0 || !strings.Contains(r.stdout, "m-x") || !strings.Contains(r.stdout, other) {
			t.Errorf("%q: %+v", args, r)
		}
	}
	// A global flag before a command that reads sessions.
	if r := runMain(t, env, "", "--profile", "work", "sessions", "list", "--json"); r.code != 0 || strings.TrimSpace(r.stdout) != "[]" {
		t.Errorf("--profile before sessions list: %+v", r)
	}
	// The root's own flags stay the root's.
	if r := runMain(t, env, "", "sessions", "list", "--model", "m"); r.code != 2 || !strings.Contains(r.stderr, "unknown flag: --model") || !strings.Contains(r.stderr, "muse sessions list --help") {
		t.Errorf("a root flag after sessions list: %+v", r)
	}
}

// commandPaths lists every command of the tree, as the words that run it.
func commandPaths(c *cobra.Command, prefix []string) [][]string {
	var out [][]string
	for _, sub := range c.Commands() {
		path := append(append([]string(nil), prefix...), sub.Name())
		out = append(out, path)
		out = append(out, commandPaths(sub, path)...)
	}
	return out
}

// TestHelpOnEveryCommand runs --help and -h on each command of the tree:
// each prints its own help on stdout and exits 0.
func TestHelpOnEveryCommand(t *testing.T) {
	a := &app{env: Env{Getenv: func(string) string { return "" }}}
	root := a.newRoot()
	paths := commandPaths(root, nil)
	if len(paths) < 14 { // sessions ×7, config ×3, doctor, man, help, completion ×4
		t.Fatalf("only %d commands: %q", len(paths), paths)
	}
	for _, path := range paths {
		for _, h := range []string{"--help", "-h"} {
			r := runMain(t, nil, "", append(path, h)...)
			name := strings.Join(path, " ")
			if r.code != 0 || r.stderr != "" {
				t.Errorf("muse %s %s: %+v", name, h, r)
				continue
			}
			if !strings.Contains(r.stdout, "muse "+name) {
				t.Errorf("muse %s %s: help does not name the command:\n%s", name, h, r.stdout)
			}
		}
	}
	// muse help COMMAND works too, and so does the root's.
	if r := runMain(t, nil, "", "help", "sessions", "export"); r.code != 0 || !strings.Contains(r.stdout, "--format") {
		t.Errorf("help sessions export: %+v", r)
	}
	// An unknown topic is a usage error that names the commands.
	for _, args := range [][]string{{"help", "nosuch"}, {"help", "sessions", "nosuch"}} {
		if r := runMain(t, nil, "", args...); r.code != 2 || !strings.Contains(r.stderr, "no help on") || !strings.Contains(r.stderr, "sessions") || r.stdout != "" {
			t.Errorf("%v: %+v, want exit 2 and the commands on stderr", args, r)
		}
	}
	if r := runMain(t, nil, "", "help"); r.code != 0 || !strings.Contains(r.stdout, "Global flags") {
		t.Errorf("help: %+v", r)
	}
	if r := runMain(t, nil, "", "-h"); r.code != 0 || !strings.Contains(r.stdout, "Global flags") || !strings.Contains(r.stdout, "doctor") {
		t.Errorf("-h: %+v", r)
	}
}

// TestGroupsWithoutCommand checks muse sessions and muse config alone
// (help, exit 2) and with an unknown command (exit 2).
func TestGroupsWithoutCommand(t *testing.T) {
	for _, group := range []string{"sessions", "config"} {
		if r := runMain(t, nil, "", group); r.code != 2 || !strings.Contains(r.stdout, "muse "+group) {
			t.Errorf("%s alone: %+v", group, r)
		}
		if r := runMain(t, nil, "", group, "help"); r.code != 0 || !strings.Contains(r.stdout, "muse "+group) {
			t.Errorf("%s help: %+v", group, r)
		}
		if r := runMain(t, nil, "", group, "nope"); r.code != 2 || !strings.Contains(r.stderr, `unknown command "nope"`) {
			t.Errorf("%s nope: %+v", group, r)
		}
	}
	if r := runMain(t, nil, "", "sesions"); r.code != 2 || !strings.Contains(r.stderr, "did you mean muse sessions?") {
		t.Errorf("a typo: %+v", r)
	}
}

// complete runs the shell completion protocol for args, the last being
// the word to complete, and returns the candidates (without their
// descriptions) and the directive line.
func complete(t *testing.T, env map[string]string, args ...string) (cands []string, full []string, directive string) {
	t.Helper()
	r := runMain(t, env, "", append([]string{cobra.ShellCompRequestCmd}, args...)...)
	if r.code != 0 {
		t.Fatalf("__complete %q: %+v", args, r)
	}
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		if strings.HasPrefix(l, ":") {
			directive = l
			continue
		}
		full = append(full, l)
		c, _, _ := strings.Cut(l, "\t")
		cands = append(cands, c)
	}
	return cands, full, directive
}

// TestCompletionOfSessionIDs drives the completion protocol (the hidden
// __complete command the shell scripts call) for the session ids of -r
// and of the sessions commands.
func TestCompletionOfSessionIDs(t *testing.T) {
	env, _, ids := seed(t)
	for _, args := range [][]string{
		{"sessions", "show", ""},
		{"sessions", "export", ""},
		{"sessions", "rename", ""},
		{"sessions", "delete", ""},
		{"-r", ""},
		{"--resume", ""},
		{"--resume="},
	} {
		cands, full, dir := complete(t, env, args...)
		if len(cands) != 2 || !strings.Contains(strings.Join(cands, " "), ids[0]) || !strings.Contains(strings.Join(cands, " "), ids[1]) {
			t.Errorf("%q: candidates %q, want both ids", args, cands)
			continue
		}
		// The title is the description, made safe: no escape, no tab in it.
		if !strings.Contains(strings.Join(full, "\n"), ids[0]+"\tGo channels") {
			t.Errorf("%q: no title beside %s: %q", args, ids[0], full)
		}
		for _, l := range full {
			if strings.ContainsAny(l, "\x1b\x07") || strings.Count(l, "\t") != 1 {
				t.Errorf("%q: unsafe line %q", args, l)
			}
		}
		if dir != ":4" { // ShellCompDirectiveNoFileComp
			t.Errorf("%q: directive %s", args, dir)
		}
	}
	// A prefix narrows to one id; a title prefix completes the title.
	if cands, _, _ := complete(t, env, "sessions", "show", ids[0][:len(ids[0])-2]); len(cands) != 1 || cands[0] != ids[0] {
		t.Errorf("prefix: %q", cands)
	}
	if cands, _, _ := complete(t, env, "-r", "go ch"); len(cands) != 1 || cands[0] != "Go channels" {
		t.Errorf("title: %q", cands)
	}
	// Only the first argument is a session.
	if cands, _, dir := complete(t, env, "sessions", "rename", ids[0], ""); dir == ":1" || len(cands) != 0 {
		t.Errorf("second argument: %q (directive %s)", cands, dir)
	}
	// No sessions folder: nothing, and nothing created.
	empty := map[string]string{"XDG_DATA_HOME": filepath.Join(t.TempDir(), "none")}
	if cands, _, dir := complete(t, empty, "sessions", "show", ""); dir == ":1" || len(cands) != 0 {
		t.Errorf("no folder: %q (directive %s)", cands, dir)
	}
	if _, err := os.Stat(empty["XDG_DATA_HOME"]); err == nil {
		t.Error("completion created the data folder")
	}
}

// TestCompletionOfValues checks the fixed and configured values: themes,
// export formats and profile names.
func TestCompletionOfValues(t *testing.T) {
	env := map[string]string{}
	writeConfig(t, env, "[profiles.work]\nmodel = \"m\"\n[profiles.home]\nmodel = \"m\"\n[profiles.wild]\nmodel = \"m\"\n")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--theme", ""}, "dark light auto high-contrast nord solarized-light"},
		{[]string{"sessions", "export", "x", "--format", ""}, "md json html"},
		{[]string{"--profile", ""}, "home wild work"},
		{[]string{"--profile", "w"}, "wild work"},
		{[]string{"config", "show", "--profile", ""}, "home wild work"},
	}
	for _, tc := range cases {
		if cands, _, _ := complete(t, env, tc.args...); strings.Join(cands, " ") != tc.want {
			t.Errorf("%q: %q, want %s", tc.args, cands, tc.want)
		}
	}
}

// TestCompletionScripts checks that each shell gets its script.
func TestCompletionScripts(t *testing.T) {
	for shell, want := range map[string]string{"bash": "__start_muse", "zsh": "#compdef muse", "fish": "complete -c muse", "powershell": "Register-ArgumentCompleter"} {
		if r := runMain(t, nil, "", "completion", shell); r.code != 0 || !strings.Contains(r.stdout, want) {
			t.Errorf("completion %s: code %d, %d bytes, lacks %q", shell, r.code, len(r.stdout), want)
		}
	}
}

// TestManPage checks the roff page: a title, every command, the flags and
// the extra sections.
func TestManPage(t *testing.T) {
	r := runMain(t, nil, "", "man")
	if r.code != 0 || !strings.HasPrefix(r.stdout, ".TH MUSE 1") {
		t.Fatalf("man: code %d, starts %.40q", r.code, r.stdout)
	}
	text := strings.ReplaceAll(r.stdout, `\&`, "") // roff's zero-width escapes
	for _, want := range []string{"sessions", "doctor", "--print", "--profile", ".SH KEYS", "ctrl+x $EDITOR", "ctrl+s sessions", ".SH ENVIRONMENT", "MUSE_DEBUG", ".SH FILES", "muse.log", "EXIT STATUS"} {
		if !strings.Contains(text, want) {
			t.Errorf("man page lacks %q", want)
		}
	}
	if strings.Contains(r.stdout, "`") {
		t.Error("man page holds pflag's backquotes")
	}
	if strings.Contains(r.stdout, "%!") || !strings.Contains(text, "%LOCALAPPDATA%") {
		t.Error("a % in a section was taken for a format verb")
	}
}

// TestVersionFromBuildInfo checks the version line of a module build and
// of a build from a dirty checkout.
func TestVersionFromBuildInfo(t *testing.T) {
	mod := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "muse", Version: "v1.4.0"}}
	if got := versionFrom(mod); got != "muse v1.4.0, built with go1.26.8" {
		t.Errorf("module build: %q", got)
	}
	dev := &debug.BuildInfo{Main: debug.Module{Path: "muse", Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-11-22T04:15:00Z"}, {Key: "vcs.modified", Value: "true"},
	}}
	if got := versionFrom(dev); got != "muse "+api.Version+" (devel) commit 0123456789ab-dirty (2026-11-22T04:15:00Z)" {
		t.Errorf("checkout build: %q", got)
	}
	dev.Settings[2].Value = "false"
	if got := versionFrom(dev); strings.Contains(got, "dirty") {
		t.Errorf("clean checkout: %q", got)
	}
}

// TestWindowsStyleEnvironment runs muse with only USERPROFILE, APPDATA and
// LOCALAPPDATA set, as on Windows: sessions go to %LOCALAPPDATA%\muse,
// and the configuration file is found there too.
func TestWindowsStyleEnvironment(t *testing.T) {
	profile := t.TempDir()
	env := map[string]string{
		"USERPROFILE":  profile,
		"APPDATA":      filepath.Join(profile, "AppData", "Roaming"),
		"LOCALAPPDATA": filepath.Join(profile, "AppData", "Local"),
	}
	run := func(goos string, args ...string) run {
		var out, errb strings.Builder
		e := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return env[k] }, goos: goos}
		code := Main(args, e)
		return run{code, out.String(), errb.String()}
	}
	if r := run("windows", "sessions", "list"); r.code != 0 || !strings.Contains(r.stderr, "no sessions yet") {
		t.Fatalf("sessions list: %+v", r)
	}
	if r := run("windows", "--demo", "-p", "hello"); r.code != 0 {
		t.Fatalf("-p: %+v", r)
	}
	dir := filepath.Join(env["LOCALAPPDATA"], "muse", "sessions")
	store, err := session.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if infos, err := store.List(); err != nil || len(infos) != 1 {
		t.Fatalf("sessions in %s: %v, %v", dir, infos, err)
	}
	if r := run("windows", "sessions", "list"); r.code != 0 || !strings.Contains(r.stdout, "hello") {
		t.Errorf("sessions list after -p: %+v", r)
	}
	if r := run("windows", "config", "path"); r.code != 0 || strings.TrimSpace(r.stdout) != filepath.Join(env["LOCALAPPDATA"], "muse", "config.toml") {
		t.Errorf("config path: %+v", r)
	}
	// On Linux, with only USERPROFILE, that is the home.
	if r := run("linux", "config", "path"); r.code != 0 || strings.TrimSpace(r.stdout) != filepath.Join(profile, ".config", "muse", "config.toml") {
		t.Errorf("config path on Linux: %+v", r)
	}
	// macOS puts all three in Application Support.
	env = map[string]string{"HOME": profile}
	if r := run("darwin", "config", "path"); r.code != 0 || strings.TrimSpace(r.stdout) != filepath.Join(profile, "Library", "Application Support", "muse", "config.toml") {
		t.Errorf("config path on macOS: %+v", r)
	}
	// Nothing at all: an error that says what to set, exit 2.
	env = map[string]string{}
	if r := run("windows", "sessions", "list"); r.code != 2 || !strings.Contains(r.stderr, "USERPROFILE") {
		t.Errorf("no home: %+v", r)
	}
}
