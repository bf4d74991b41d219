package cli

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// resolveArgs parses args and resolves them against env, as Main does.
func resolveArgs(t *testing.T, env map[string]string, args ...string) (*config, error) {
	t.Helper()
	f, _, err := parseFlags(args)
	if err != nil {
		return nil, err
	}
	return resolve(f, func(k string) string { return env[k] })
}

func TestNewSettingsDefaults(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir()}
	c, err := resolveArgs(t, env, "--demo")
	if err != nil {
		t.Fatal(err)
	}
	if c.noSave || c.noMouse || c.toolTimeout != 30*time.Second {
		t.Errorf("noSave %v, noMouse %v, toolTimeout %v", c.noSave, c.noMouse, c.toolTimeout)
	}
	if want := []string{"MUSE_ACCESS_TOKEN", "MUSE_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_API_KEY", "MUSE_IMAGE_ACCESS_TOKEN", "MUSE_SYNC_KEY"}; !reflect.DeepEqual(c.secretEnv, want) {
		t.Errorf("secretEnv = %q, want %q", c.secretEnv, want)
	}
}

// TestNewSettingsPrecedence checks save, mouse and tool_timeout from the
// profile, and the flags that beat them.
func TestNewSettingsPrecedence(t *testing.T) {
	env := map[string]string{}
	writeConfig(t, env, `default_profile = "w"
[profiles.w]
save = false
mouse = false
tool_timeout = "45s"
access_token_env = "WORK_TOKEN"
api_key_env = "MUSE_API_KEY"
`)
	c, err := resolveArgs(t, env, "--demo")
	if err != nil {
		t.Fatal(err)
	}
	if !c.noSave || !c.noMouse || c.toolTimeout != 45*time.Second {
		t.Errorf("profile: noSave %v, noMouse %v, toolTimeout %v", c.noSave, c.noMouse, c.toolTimeout)
	}
	if want := []string{"MUSE_ACCESS_TOKEN", "MUSE_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_API_KEY", "MUSE_IMAGE_ACCESS_TOKEN", "MUSE_SYNC_KEY", "WORK_TOKEN"}; !reflect.DeepEqual(c.secretEnv, want) {
		t.Errorf("secretEnv = %q, want %q", c.secretEnv, want)
	}
	c, err = resolveArgs(t, env, "--demo", "--no-save=false", "--no-mouse=false", "--tool-timeout", "2m")
	if err != nil {
		t.Fatal(err)
	}
	if c.noSave || c.noMouse || c.toolTimeout != 2*time.Minute {
		t.Errorf("flags: noSave %v, noMouse %v, toolTimeout %v", c.noSave, c.noMouse, c.toolTimeout)
	}
	writeConfig(t, env, "[profiles.w]\nsave = true\n")
	c, err = resolveArgs(t, env, "--demo", "--profile", "w", "--no-save", "--no-mouse")
	if err != nil || !c.noSave || !c.noMouse {
		t.Errorf("--no-save --no-mouse over save = true: %+v, %v", c, err)
	}
}

// TestSecretEnvOfEveryProfile checks that the credential variables of every
// profile in the file are kept from tools, not only the active profile's: a
// hostile server of profile play got WORK_TOKEN, named by profile work.
func TestSecretEnvOfEveryProfile(t *testing.T) {
	env := map[string]string{}
	writeConfig(t, env, `[profiles.work]
access_token_env = "WORK_TOKEN"
[profiles.play]
api_key_env = "PLAY_KEY"
[profiles.other]
access_token_cmd = "pass show x"
`)
	c, err := resolveArgs(t, env, "--demo", "--profile", "play")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"MUSE_ACCESS_TOKEN", "MUSE_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_API_KEY", "MUSE_IMAGE_ACCESS_TOKEN", "MUSE_SYNC_KEY", "PLAY_KEY", "WORK_TOKEN"}; !reflect.DeepEqual(c.secretEnv, want) {
		t.Errorf("secretEnv = %q, want %q", c.secretEnv, want)
	}
}

func TestToolTimeoutErrors(t *testing.T) {
	for _, arg := range []string{"0s", "-1s", "61m", "2h"} {
		r := runMain(t, nil, "", "--demo", "-p", "hi", "--tool-timeout", arg)
		if r.code != 2 || !strings.Contains(r.stderr, "--tool-timeout must be more than 0 and at most 1h, such as 45s or 2m") {
			t.Errorf("--tool-timeout %s: %+v", arg, r)
		}
	}
	if r := runMain(t, nil, "", "--demo", "-p", "hi", "--tool-timeout", "soon"); r.code != 2 || !strings.Contains(r.stderr, "soon") {
		t.Errorf("--tool-timeout soon: %+v", r)
	}
	env := map[string]string{}
	path := writeConfig(t, env, "[profiles.w]\n\ntool_timeout = \"2h\"\ncredential_timeout = 30\n")
	r := runMain(t, env, "", "--demo", "-p", "hi", "--profile", "w")
	if r.code != 2 || !strings.Contains(r.stderr, path+`:3:1: tool_timeout must be more than 0 and at most 1h, got "2h"`) ||
		!strings.Contains(r.stderr, path+`:4:22: credential_timeout must be a duration such as "30s" or "2m", got integer 30`) {
		t.Errorf("profile timeouts: %+v", r)
	}
}

// TestCredentialTimeoutFromProfile checks that credential_timeout reaches
// the credential command.
func TestCredentialTimeoutFromProfile(t *testing.T) {
	env := map[string]string{}
	writeConfig(t, env, `[profiles.w]
base_url = "http://127.0.0.1:9"
model = "m"
access_token_cmd = "exec sleep 100"
credential_timeout = "300ms"
`)
	_, err := resolveArgs(t, env, "--profile", "w")
	if err == nil || !strings.Contains(err.Error(), `timed out after 300ms`) {
		t.Errorf("resolve = %v", err)
	}
}

// TestToolsFileChecked checks that --tools goes through the same checks as
// the profile's tools: a name with a control character used to pass.
func TestToolsFileChecked(t *testing.T) {
	tools := filepath.Join(t.TempDir(), "tools.json")
	for text, want := range map[string]string{
		`[{"name": "a\u0007b", "input_schema": {"type": "object"}}]`:                                             `tools.json:1:3: tool 1: name must be 1 to 64 letters, digits, _ or -, got "a\ab"`,
		`[{"name": "a", "input_schema": {"type": "object"}, "command": [""]}]`:                                   `tool 1: command must name the program`,
		`[{"name": "a", "input_schema": {"type": "object"}}, {"name": "a", "input_schema": {"type": "object"}}]`: `tool 2: name "a" is used by two tools`,
	} {
		if err := os.WriteFile(tools, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		r := runMain(t, nil, "", "--demo", "--tools", tools, "-p", "x")
		if r.code != 2 || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: %+v", text, r)
		}
	}
	if err := os.WriteFile(tools, []byte(`[{"name": "get_time", "input_schema": {"type": "object"}, "command": ["date"]}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := resolveArgs(t, nil, "--demo", "--tools", tools)
	if err != nil || len(c.tools) != 1 || c.tools[0].Def.Name != "get_time" || string(c.tools[0].Def.InputSchema) != `{"type":"object"}` || c.tools[0].Command[0] != "date" {
		t.Errorf("tools = %+v, %v", c, err)
	}
}

// TestConfigFlagMissingFile checks that a file named with --config must
// exist, while the default one may be missing.
func TestConfigFlagMissingFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.toml")
	r := runMain(t, nil, "", "--demo", "-p", "hi", "--config", missing)
	if r.code != 2 || !strings.Contains(r.stderr, "--config "+missing+": no such file") || !strings.Contains(r.stderr, "muse config init --config "+missing) {
		t.Errorf("--config missing: %+v", r)
	}
	if r := runMain(t, nil, "", "config", "show", "--config", missing); r.code != 2 || !strings.Contains(r.stderr, missing) {
		t.Errorf("config show --config missing: %+v", r)
	}
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir()}
	if r := runMain(t, env, "", "--demo", "-p", "hi"); r.code != 0 {
		t.Errorf("no default file: %+v", r)
	}
}

// TestConfigCommandsConfigFlag checks path, init and show with --config.
func TestConfigCommandsConfigFlag(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir()}
	file := filepath.Join(t.TempDir(), "sub", "my.toml")
	if r := runMain(t, env, "", "config", "path", "--config", file); r.code != 0 || strings.TrimSpace(r.stdout) != file {
		t.Errorf("config path --config: %+v", r)
	}
	if r := runMain(t, env, "", "config", "init", "--config", file); r.code != 0 || !strings.Contains(r.stdout, "wrote "+file) {
		t.Fatalf("config init --config: %+v", r)
	}
	if _, err := os.Stat(file); err != nil {
		t.Fatal(err)
	}
	if r := runMain(t, env, "", "config", "show", "--config", file, "--profile", "work"); r.code != 0 || !strings.Contains(r.stdout, file) || !strings.Contains(r.stdout, `# profile "work"`) {
		t.Errorf("config show --config: %+v", r)
	}
	if r := runMain(t, env, "", "--demo", "-p", "hi", "--config", file); r.code != 0 {
		t.Errorf("--config with the example: %+v", r)
	}
	for _, args := range [][]string{{"config", "path", "extra"}, {"config", "init", "--profile", "w"}, {"config", "path", "--model", "m"}} {
		if r := runMain(t, env, "", args...); r.code != 2 || !strings.Contains(r.stderr, "muse config") {
			t.Errorf("%q: %+v", args, r)
		}
	}
}

// TestConfigShowTwoErrorsTwoLines checks that each problem of a file is
// printed on a line of its own.
func TestConfigShowTwoErrorsTwoLines(t *testing.T) {
	env := map[string]string{}
	path := writeConfig(t, env, "[profiles.w]\ntop_k = 0\ntheme = \"x\"\n")
	r := runMain(t, env, "", "config", "show")
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if r.code != 2 || len(lines) != 2 ||
		!strings.HasPrefix(lines[0], "muse: "+path+":2:1: top_k must be at least 1") ||
		!strings.HasPrefix(lines[1], "muse: "+path+":3:1: theme must be one of") {
		t.Errorf("config show: %+v", r)
	}
}

func TestErrorLines(t *testing.T) {
	err := errors.Join(errors.New("a.toml:2: one"), errors.New("a.toml:3: two \x1b[31mred"), errors.New(""))
	want := []string{"a.toml:2: one", "a.toml:3: two red"}
	if got := errorLines(err); !reflect.DeepEqual(got, want) {
		t.Errorf("errorLines = %q, want %q", got, want)
	}
}

// TestConfigShowNewSettings checks that config show lists the new keys.
func TestConfigShowNewSettings(t *testing.T) {
	env := map[string]string{}
	writeConfig(t, env, "[profiles.w]\nsave = false\nmouse = false\ntool_timeout = \"1m30s\"\ncredential_timeout = \"1h0m0s\"\n")
	r := runMain(t, env, "", "config", "show", "--profile", "w")
	if r.code == 0 {
		t.Fatalf("credential_timeout of 1h accepted: %+v", r)
	}
	writeConfig(t, env, "[profiles.w]\nsave = false\nmouse = false\ntool_timeout = \"1m30s\"\ncredential_timeout = \"10m\"\n")
	r = runMain(t, env, "", "config", "show", "--profile", "w")
	for _, want := range []string{"\nsave = false\n", "\nmouse = false\n", "\ntool_timeout = \"1m30s\"\n", "\ncredential_timeout = \"10m\"\n"} {
		if r.code != 0 || !strings.Contains(r.stdout, want) {
			t.Errorf("config show lacks %q: %+v", want, r)
		}
	}
}

// TestHelpExplainsSettings checks that --help names every new flag and
// profile key.
func TestHelpExplainsSettings(t *testing.T) {
	r := runMain(t, nil, "", "--help")
	for _, want := range []string{"--no-save", "--no-mouse", "--tool-timeout DURATION", "(default 30s)", "tool_timeout", "save", "mouse",
		"credential_timeout", "64 KiB", "1 MiB", "--config FILE, which must exist", "muse config init"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("help lacks %q", want)
		}
	}
}
