package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"filippo.io/age"

	cfgfile "muse/ui/cli/config"
	"muse/ui/mcp"
	"muse/ui/syncrun"
)

// childSecrets are the credentials of TestEachChildGetsOnlyItsOwnSecrets,
// set in muse's own environment, where every child would inherit them
// from: each is named by the configuration for one purpose.
var childSecrets = map[string]string{
	"MUSE_SYNC_KEY":   "AGE-SECRET-KEY-1SEKRITSYNC", // the sync key, muse's own
	"TRACKER_TOKEN":   "sekrit-trk-1111",            // token_env of the profile's HTTP server
	"SPARE_TOKEN":     "sekrit-spr-2222",            // token_env of a server of another profile
	"SPARE_VAR":       "sekrit-spv-3333",            // env of a stdio server of another profile
	"MINE":            "sekrit-min-4444",            // env of the profile's stdio server mine
	"OTHER_MCP_TOKEN": "sekrit-oth-5555",            // ${VAR} of the --mcp-config file's server only
	"COPY_OF_ACCESS":  "sekrit-acc-6666",            // what access_token_cmd prints, under another name
	"COPY_OF_TOKEN":   "sekrit-tok-7777",            // what the MCP token_cmd prints, likewise
	"COPY_OF_IMAGE":   "sekrit-img-8888",            // what image_access_token_cmd prints, likewise
}

// Every child gets only its own secrets. muse runs with a profile that
// names a credential for each purpose (see childSecrets) and an
// --mcp-config file whose server reads ${OTHER_MCP_TOKEN}; every child
// muse starts here writes down its own environment, as read by the child
// itself: the credential commands (access_token_cmd,
// image_access_token_cmd, an MCP server's token_cmd, sync_key_cmd), the
// two stdio MCP servers, a command tool, and git (a wrapper first in PATH
// that dumps its environment, then runs the real git) during muse sync
// init. None holds a secret that is not its own. The editor, the viewer,
// the clipboard helper and the browser are started by the built binary in
// ui/e2e (TestOutsideChildrenGetNoSecret).
func TestEachChildGetsOnlyItsOwnSecrets(t *testing.T) {
	realGit := needGit(t)
	dir := t.TempDir()
	dump := func(name string) string { return filepath.Join(dir, name+".env") }
	if err := os.WriteFile(filepath.Join(dir, "dump.sh"), []byte(dumpServer), 0o600); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o700)
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\nenv >> "+dump("git")+"\nexec "+realGit+" \"$@\"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"XDG_STATE_HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir()}
	for k, v := range childSecrets {
		t.Setenv(k, v)
		if k != "MUSE_SYNC_KEY" { // so that sync_key_cmd runs
			env[k] = v
		}
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("SSH_AUTH_SOCK", "/tmp/test-agent.sock") // muse's own, though a server names it
	writeConfig(t, env, `default_profile = "w"
[profiles.w]
base_url = "http://127.0.0.1:9"
model = "m"
access_token_cmd = "env > `+dump("access_token_cmd")+`; echo sekrit-acc-6666"
image_base_url = "https://images.example.com"
image_access_token_cmd = "env > `+dump("image_access_token_cmd")+`; echo sekrit-img-8888"
sync_key_cmd = "env > `+dump("sync_key_cmd")+`; echo `+id.String()+`"
sync = "auto"
[[profiles.w.tools]]
name = "env"
description = "the environment"
input_schema = { type = "object" }
command = ["env"]
[profiles.w.mcp.tracker]
type = "http"
url = "http://127.0.0.1:9/mcp"
token_env = "TRACKER_TOKEN"
[profiles.w.mcp.cmdtok]
type = "http"
url = "http://127.0.0.1:9/mcp"
token_cmd = "env > `+dump("token_cmd")+`; echo sekrit-tok-7777"
[profiles.w.mcp.mine]
command = "sh"
args = ["`+dir+`/dump.sh", "`+dump("mine")+`"]
env = { MINE = "mine-1", SSH_AUTH_SOCK = "/tmp/mine-agent.sock" }
[profiles.spare]
[profiles.spare.mcp.x]
type = "http"
url = "http://127.0.0.1:9/mcp"
token_env = "SPARE_TOKEN"
[profiles.spare.mcp.y]
command = "true"
env = { SPARE_VAR = "spare-1" }
`)
	file := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(file, []byte(`{"mcpServers": {"other": {"command": "sh", "args": ["`+dir+`/dump.sh", "`+dump("other")+`"], "env": {"OTHER_MCP_TOKEN": "${OTHER_MCP_TOKEN}"}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	f, _, err := parseFlags([]string{"--mcp-config", file, "--mcp-expand-env", "-p", "hi"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := resolve(f, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.mcp.Close()
	cfg.mcp.Tools(context.Background()) // starts them all; the HTTP ones fail, as they may
	tool, _, err := cfg.engineConfig(nil).RunTool(context.Background(), []string{"env"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// muse sync init, a command of its own, reads neither the chat's
	// credentials nor its --mcp-config file; the chat's background sync
	// runs in the chat's configuration.
	remote := filepath.Join(dir, "remote.git")
	if out, err := exec.Command(realGit, "init", "--quiet", "--bare", remote).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	if r := runMain(t, env, "", "sync", "init", remote); r.code != 0 {
		t.Fatalf("muse sync init: code %d, stderr %q", r.code, r.stderr)
	}
	for _, name := range []string{"git", "sync_key_cmd"} {
		if err := os.Rename(dump(name), dump(name+"-init")); err != nil {
			t.Fatal(err)
		}
	}
	var last syncrun.Status
	runner := startAutoSync(Env{Getenv: func(k string) string { return env[k] }}, f, cfg, func(s syncrun.Status) { last = s })
	if runner == nil {
		t.Fatal("no background sync")
	}
	runner.Stop(time.Hour) // its last sync, waited for
	if last.Err != "" || last.Last.IsZero() {
		t.Fatalf("the background sync: %+v", last)
	}

	read := func(name string) string {
		data, err := os.ReadFile(dump(name))
		if err != nil {
			t.Fatalf("%s wrote no environment: %v", name, err)
		}
		return string(data)
	}
	// A copy of a credential under another name is known only once the
	// command that prints it has run: a child started before, or by a
	// command that reads no such credential, cannot be kept from it.
	later := func(names ...string) []string { return names }
	for _, c := range []struct {
		child   string
		environ string
		own     []string // the secrets that are its own, or unknown to muse when it starts
		has     string   // NAME=value it must have: its own entry's, or muse's own
	}{
		{"access_token_cmd", read("access_token_cmd"), later("COPY_OF_ACCESS", "COPY_OF_IMAGE", "COPY_OF_TOKEN"), "SSH_AUTH_SOCK=/tmp/test-agent.sock"},
		{"image_access_token_cmd", read("image_access_token_cmd"), later("COPY_OF_IMAGE", "COPY_OF_TOKEN"), ""},
		{"the MCP server's token_cmd", read("token_cmd"), later("COPY_OF_TOKEN"), "SSH_AUTH_SOCK=/tmp/test-agent.sock"},
		{"sync_key_cmd of muse sync init", read("sync_key_cmd-init"), later("OTHER_MCP_TOKEN", "COPY_OF_ACCESS", "COPY_OF_IMAGE", "COPY_OF_TOKEN"), "SSH_AUTH_SOCK=/tmp/test-agent.sock"},
		{"git of muse sync init", read("git-init"), later("OTHER_MCP_TOKEN", "COPY_OF_ACCESS", "COPY_OF_IMAGE", "COPY_OF_TOKEN"), "SSH_AUTH_SOCK=/tmp/test-agent.sock"},
		{"sync_key_cmd of the chat's background sync", read("sync_key_cmd"), nil, "SSH_AUTH_SOCK=/tmp/test-agent.sock"},
		{"git of the chat's background sync", read("git"), nil, "SSH_AUTH_SOCK=/tmp/test-agent.sock"},
		{"the profile's stdio server", read("mine"), nil, "MINE=mine-1"},
		{"the --mcp-config file's stdio server", read("other"), []string{"OTHER_MCP_TOKEN"}, "OTHER_MCP_TOKEN=sekrit-oth-5555"},
		{"the command tool", tool, nil, ""},
	} {
		for name, v := range childSecrets {
			if strings.Contains(c.environ, v) && !slices.Contains(c.own, name) {
				t.Errorf("%s has %s's secret %s", c.child, name, v)
			}
		}
		if c.has != "" && !strings.Contains(c.environ, c.has+"\n") {
			t.Errorf("%s lacks its own %s", c.child, c.has)
		}
		if !strings.Contains(c.environ, "PATH=") {
			t.Errorf("%s has no PATH: %q", c.child, c.environ)
		}
	}
}

// readMCP reads the servers of a run and makes their manager, as
// resolveIn does.
func readMCP(f *flags, prof *cfgfile.Profile, c *config, env Env) (*mcp.Manager, error) {
	servers, err := mcpServers(f, prof, c, env)
	if err != nil {
		return nil, err
	}
	return mcpManager(f, prof, c, env, servers)
}

// With --no-mcp, a command tool is still kept from a variable that holds
// the credential api_key_cmd printed, under another name.
func TestNoMCPToolGetsNoCopyOfTheCredential(t *testing.T) {
	t.Setenv("COPY_OF_KEY", "sekrit-key-9999")
	env := map[string]string{}
	writeConfig(t, env, `default_profile = "w"
[profiles.w]
base_url = "http://127.0.0.1:9"
model = "m"
api_key_cmd = "echo sekrit-key-9999"
[[profiles.w.tools]]
name = "env"
description = "the environment"
input_schema = { type = "object" }
command = ["env"]
`)
	f, _, err := parseFlags([]string{"--no-mcp", "-p", "hi"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := resolve(f, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := cfg.engineConfig(nil).RunTool(context.Background(), []string{"env"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "PATH=") || strings.Contains(out, "sekrit-key-9999") {
		t.Errorf("the tool's environment:\n%s", out)
	}
}

// muse doctor reads the servers first too: the access_token_cmd it runs
// gets neither the --mcp-config file's ${VAR} nor a profile server's env.
func TestDoctorCredentialCommandGetsNoServersSecret(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("OTHER_MCP_TOKEN", "sekrit-oth-5555")
	t.Setenv("MINE", "sekrit-min-4444")
	env := map[string]string{"OTHER_MCP_TOKEN": "sekrit-oth-5555", "MINE": "sekrit-min-4444"}
	writeConfig(t, env, `default_profile = "w"
[profiles.w]
base_url = "http://127.0.0.1:9"
model = "m"
access_token_cmd = "env > `+dir+`/access.env; echo sekrit-acc-6666"
[profiles.w.mcp.mine]
command = "true"
env = { MINE = "mine-1" }
`)
	file := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(file, []byte(`{"mcpServers": {"other": {"command": "true", "env": {"OTHER_MCP_TOKEN": "${OTHER_MCP_TOKEN}"}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runMain(t, env, "", "doctor", "--offline", "--mcp-config", file, "--mcp-expand-env")
	data, err := os.ReadFile(filepath.Join(dir, "access.env"))
	if err != nil {
		t.Fatalf("doctor ran no access_token_cmd: %v\n%s%s", err, r.stdout, r.stderr)
	}
	for _, v := range []string{"sekrit-oth-5555", "sekrit-min-4444"} {
		if strings.Contains(string(data), v) {
			t.Errorf("doctor's access_token_cmd has %s", v)
		}
	}
}
