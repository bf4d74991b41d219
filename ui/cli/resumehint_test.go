package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The hint printed when the chat screen ends must work when pasted: the
// flags that chose the service and the configuration come along.
func TestResumeHintWorksWhenPasted(t *testing.T) {
	cases := []struct {
		f    flags
		want string
	}{
		{flags{}, "muse -r 01J"},
		{flags{demo: true}, "muse --demo -r 01J"},
		{flags{profile: "work", configPath: "/tmp/my config.toml"}, "muse --config '/tmp/my config.toml' --profile work -r 01J"},
		{flags{baseURL: "http://127.0.0.1:11434"}, "muse --base-url http://127.0.0.1:11434 -r 01J"},
		{flags{profile: "a\x1b[31mb"}, "muse --profile ab -r 01J"},
	}
	for _, c := range cases {
		if got := resumeHint("muse", &c.f, "01J"); got != c.want {
			t.Errorf("resumeHint(%+v) = %q, want %q", c.f, got, c.want)
		}
	}
}

// --demo asks the demo for its own models: a profile's or MUSE_MODEL's
// names are the real service's, and only the flags change them.
func TestDemoIgnoresTheServiceModels(t *testing.T) {
	env := map[string]string{"MUSE_MODEL": "claude-test", "MUSE_IMAGE_MODEL": "img-test"}
	getenv := func(k string) string { return env[k] }
	f, _, err := parseFlags([]string{"--demo"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := resolve(f, getenv)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.params.Model != demoModel || cfg.imageModel != demoImageModel {
		t.Errorf("--demo asks for %q and %q, want the demo's %q and %q", cfg.params.Model, cfg.imageModel, demoModel, demoImageModel)
	}
	f, _, _ = parseFlags([]string{"--demo", "--model", "mine", "--image-model", "pic"})
	if cfg, err = resolve(f, getenv); err != nil || cfg.params.Model != "mine" || cfg.imageModel != "pic" {
		t.Errorf("--demo --model mine --image-model pic: %v, %+v", err, cfg)
	}
}

// A bad theme file is refused by -p whatever its output, as the chat
// screen refuses it: into a pipe and with --json too.
func TestPrintRefusesABadThemeFile(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.toml")
	if err := os.WriteFile(bad, []byte("[chrome]\ntext = 12\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"XDG_DATA_HOME": t.TempDir()}
	for _, args := range [][]string{{"--demo", "--theme", bad, "-p", "hi"}, {"--demo", "--theme", bad, "--json", "-p", "hi"}} {
		if r := runMain(t, env, "", args...); r.code != ExitUsage || !strings.Contains(r.stderr, "bad.toml") {
			t.Errorf("%q: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
}

// -p refuses an image flag the image API in use lacks, as the slash
// commands do, instead of dropping it without a word.
func TestPrintRefusesImageFlagsTheAPILacks(t *testing.T) {
	env := map[string]string{"XDG_DATA_HOME": t.TempDir(), "MUSE_BASE_URL": "http://127.0.0.1:9", "MUSE_MODEL": "m",
		"MUSE_IMAGE_MODEL": "gpt-image-1", "MUSE_IMAGE_API": "openai"}
	for _, fl := range []string{"--negative=blur", "--watermark", "--prompt-extend"} {
		r := runMain(t, env, "", "--image", fl, "-p", "a fox")
		if r.code != ExitUsage || !strings.Contains(r.stderr, "openai image API") {
			t.Errorf("%s: exit %d, stderr %q", fl, r.code, r.stderr)
		}
	}
}

// -p alone, at the end or before another flag, or -p -, takes the prompt
// from standard input, as claude -p does; -p "PROMPT" with piped input
// still sends the input after the prompt.
func TestPrintPromptFromStdin(t *testing.T) {
	env := map[string]string{"XDG_DATA_HOME": t.TempDir()}
	for _, args := range [][]string{{"--demo", "-p"}, {"--demo", "-p", "--no-save"}, {"--demo", "-p", "-"}, {"-p", "--demo"}} {
		r := runMain(t, env, "hello from stdin\n", args...)
		if r.code != 0 || !strings.Contains(r.stdout, "hello from stdin") {
			t.Errorf("%q: %+v", args, r)
		}
	}
	if r := runMain(t, env, "", "--demo", "-p"); r.code != ExitUsage || !strings.Contains(r.stderr, "standard input") {
		t.Errorf("-p with nothing on stdin: %+v", r)
	}
	if r := runMain(t, env, "", "--demo", "-p", "-x means what?"); r.code != 0 {
		t.Errorf("a prompt that starts with a dash: %+v", r)
	}
}

// An HTTP MCP server's headers (its token) never go over plain http to
// another host, as the service's credential does not; loopback is fine,
// and MUSE_ALLOW_INSECURE_HTTP allows it on purpose (attack review).
func TestMCPHeadersNotOverPlainHTTP(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mcp.json")
	write := func(url string) {
		if err := os.WriteFile(file, []byte(`{"mcpServers": {"t": {"type": "http", "url": "`+url+`", "headers": {"Authorization": "Bearer X"}}}}`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"XDG_CONFIG_HOME": dir, "MUSE_BASE_URL": "http://127.0.0.1:9", "MUSE_MODEL": "m"}
	write("http://mcp.example.invalid/mcp")
	if _, err := resolveArgs(t, env, "--mcp-config", file); err == nil || !strings.Contains(err.Error(), "plain http://") {
		t.Errorf("headers over plain http to another host: %v", err)
	}
	env["MUSE_ALLOW_INSECURE_HTTP"] = "1"
	if c, err := resolveArgs(t, env, "--mcp-config", file); err != nil {
		t.Errorf("allowed on purpose: %v", err)
	} else {
		c.mcp.Close()
	}
	delete(env, "MUSE_ALLOW_INSECURE_HTTP")
	write("http://127.0.0.1:9/mcp")
	if c, err := resolveArgs(t, env, "--mcp-config", file); err != nil {
		t.Errorf("loopback: %v", err)
	} else {
		c.mcp.Close()
	}
}

// Run with go run, muse is not installed: the hint says go run . instead.
func TestResumeHintUnderGoRun(t *testing.T) {
	none := func(string) (string, error) { return "", exec.ErrNotFound }
	for arg0, want := range map[string]string{
		"/tmp/go-build1234567/b001/exe/muse": "go run .",
		"muse":                               "muse",
		// go run's second run, from Go's build cache.
		"/root/.cache/go-build/4f/4f5e072ac02bfb5d80794f77cabc9eff23889c4790c3482e70bc6a738439aea9-d/muse": "go run .",
	} {
		if got := commandName(arg0, none); got != want {
			t.Errorf("commandName(%q) = %q, want %q", arg0, got, want)
		}
	}
	f := flags{demo: true}
	if got := resumeHint(cmdName(Env{Command: "go run ."}), &f, "01J"); got != "go run . --demo -r 01J" {
		t.Errorf("hint %q", got)
	}
}

// Built with go build -o muse . and run as ./muse, muse is not on PATH:
// the hint names the path as typed, so that it works when pasted; the
// bare name only when PATH leads to this very file.
func TestCommandNameIsWhatRunsThisMuse(t *testing.T) {
	dir := t.TempDir()
	self := filepath.Join(dir, "muse")
	other := filepath.Join(t.TempDir(), "muse")
	for _, f := range []string{self, other} {
		if err := os.WriteFile(f, []byte("#!/bin/sh\n"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	spaced := filepath.Join(t.TempDir(), "my tools", "muse")
	find := func(path string) func(string) (string, error) {
		return func(string) (string, error) { return path, nil }
	}
	none := func(string) (string, error) { return "", exec.ErrNotFound }
	for _, c := range []struct {
		arg0   string
		lookup func(string) (string, error)
		want   string
	}{
		{"./muse", none, "./muse"},                               // not on PATH at all
		{self, find(other), self},                                // PATH leads to another muse
		{self, find(self), "muse"},                               // PATH leads here
		{"/home/a/go-build/muse", none, "/home/a/go-build/muse"}, // not go run's folder
		{spaced, none, "'" + spaced + "'"},                       // quoted for the shell
		{"muse-dev", none, "muse-dev"},                           // found on PATH by its own name
	} {
		if got := commandName(c.arg0, c.lookup); got != c.want {
			t.Errorf("commandName(%q) = %q, want %q", c.arg0, got, c.want)
		}
	}
}
