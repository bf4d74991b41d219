package cli

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// dumpServer is shServer that first writes its environment to the file
// named by its first argument.
const dumpServer = "env > \"$1\"\n" + shServer

// Every child gets only its own secrets. muse runs with a profile whose
// HTTP server has token_env = TRACKER_TOKEN and another whose token comes
// from a command, a second profile with a server of its own token_env, an
// API key from a command that the environment also holds under another
// name, and an --mcp-config file whose server "other" names
// OTHER_MCP_TOKEN. Two real stdio servers (sh) write their environment
// down as they start, and a command tool (env) prints its own, as a tool
// result would carry it to the service and into the journal: each holds
// only what its own entry names.
func TestEveryChildGetsOnlyItsOwnSecrets(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "dump.sh"), []byte(dumpServer), 0o600); err != nil {
		t.Fatal(err)
	}
	secrets := map[string]string{
		"TRACKER_TOKEN":   "trk-sekrit-1111", // token_env of the profile's HTTP server
		"SPARE_TOKEN":     "spr-sekrit-2222", // token_env of a server of another profile
		"OTHER_MCP_TOKEN": "oth-sekrit-3333", // named by the file's server "other" only
		"COPY_OF_KEY":     "key-sekrit-4444", // the value api_key_cmd gives, under another name
		"COPY_OF_TOKEN":   "cmd-sekrit-5555", // the value an MCP token_cmd gives, likewise
	}
	env := map[string]string{}
	for k, v := range secrets {
		t.Setenv(k, v) // where the children would inherit them from
		env[k] = v
	}
	writeConfig(t, env, `default_profile = "w"
[profiles.w]
base_url = "http://127.0.0.1:9"
model = "m"
api_key_cmd = "echo key-sekrit-4444"
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
token_cmd = "echo cmd-sekrit-5555"
[profiles.w.mcp.mine]
command = "sh"
args = ["`+dir+`/dump.sh", "`+dir+`/mine.env"]
env = { MINE = "mine-1" }
[profiles.spare]
[profiles.spare.mcp.x]
type = "http"
url = "http://127.0.0.1:9/mcp"
token_env = "SPARE_TOKEN"
`)
	file := filepath.Join(dir, "mcp.json")
	os.WriteFile(file, []byte(`{"mcpServers": {"other": {"command": "sh", "args": ["`+dir+`/dump.sh", "`+dir+`/other.env"], "env": {"OTHER_MCP_TOKEN": "${OTHER_MCP_TOKEN}"}}}}`), 0o600)
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
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(dir, name+".env"))
		if err != nil {
			t.Fatalf("server %s wrote no environment: %v (%+v)", name, err, cfg.mcp.Status())
		}
		return string(data)
	}
	out, _, err := cfg.engineConfig(nil).RunTool(context.Background(), []string{"env"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for child, c := range map[string]struct {
		environ string
		own     []string // NAME=value it must have
	}{
		"the stdio server mine":  {read("mine"), []string{"MINE=mine-1"}},
		"the stdio server other": {read("other"), []string{"OTHER_MCP_TOKEN=oth-sekrit-3333"}},
		"the command tool env":   {out, nil},
	} {
		for _, kv := range c.own {
			if !strings.Contains(c.environ, kv+"\n") {
				t.Errorf("%s lacks its own %s", child, kv)
			}
		}
		for name, v := range secrets {
			if strings.Contains(c.environ, v) && !strings.Contains(strings.Join(c.own, " "), v) {
				t.Errorf("%s has %s's secret %s", child, name, v)
			}
		}
		if !strings.Contains(c.environ, "PATH=") {
			t.Errorf("%s has no PATH: %q", child, c.environ)
		}
	}
}

// A profile's HTTP server whose token comes from token_env, with a token in
// "headers" too, redirects (307) from 127.0.0.1 to localhost, another host:
// muse doctor reports the refused redirect, and the other host sees
// neither token.
func TestMCPTokenStaysOnItsHost(t *testing.T) {
	var mu sync.Mutex
	var leaked []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		leaked = append(leaked, r.Header.Get("Authorization")+r.Header.Get("X-Team-Token"))
		mu.Unlock()
		http.NotFound(w, r)
	}))
	defer other.Close()
	u, _ := url.Parse(other.URL)
	srv := httptest.NewServer(http.RedirectHandler("http://localhost:"+u.Port()+"/mcp", http.StatusTemporaryRedirect))
	defer srv.Close()
	env := map[string]string{"TRACKER_TOKEN": "trk-sekrit-1111", "MUSE_BASE_URL": "http://127.0.0.1:9", "MUSE_MODEL": "m", "MUSE_ACCESS_TOKEN": "t"}
	writeConfig(t, env, "default_profile = \"w\"\n[profiles.w]\n[profiles.w.mcp.tracker]\ntype = \"http\"\nurl = \""+srv.URL+"/mcp\"\ntoken_env = \"TRACKER_TOKEN\"\nheaders = { \"X-Team-Token\" = \"team-sekrit-2222\" }\n")
	r := runMain(t, env, "", "doctor")
	if !strings.Contains(r.stdout, "✗ tracker") || !strings.Contains(r.stdout, "redirected to another host (localhost:"+u.Port()+"); muse will not send credentials there") {
		t.Errorf("doctor:\n%s", r.stdout)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, l := range leaked {
		if l != "" {
			t.Errorf("the other host got %q", l)
		}
	}
}

// A credential command is a child too: the profile's access_token_cmd
// and an MCP server's token_cmd each write their environment down, and
// neither holds another credential: not MUSE_SYNC_KEY, not a variable a
// profile names (token_env of a server, of another profile's server), not
// the access token the first command printed under another name.
func TestCredentialCommandsGetNoOtherSecret(t *testing.T) {
	dir := t.TempDir()
	secrets := map[string]string{
		"MUSE_SYNC_KEY": "AGE-SECRET-KEY-1SEKRIT",
		"TRACKER_TOKEN": "trk-sekrit-1111", // token_env of the profile's HTTP server
		"SPARE_TOKEN":   "spr-sekrit-2222", // token_env of a server of another profile
		"COPY_OF_TOKEN": "acc-sekrit-3333", // what access_token_cmd prints, under another name
	}
	env := map[string]string{}
	for k, v := range secrets {
		t.Setenv(k, v) // where the commands would inherit them from
		env[k] = v
	}
	writeConfig(t, env, `default_profile = "w"
[profiles.w]
base_url = "http://127.0.0.1:9"
model = "m"
access_token_cmd = "env > `+dir+`/access.env; echo acc-sekrit-3333"
[profiles.w.mcp.tracker]
type = "http"
url = "http://127.0.0.1:9/mcp"
token_env = "TRACKER_TOKEN"
[profiles.w.mcp.cmdtok]
type = "http"
url = "http://127.0.0.1:9/mcp"
token_cmd = "env > `+dir+`/token.env; echo cmd-sekrit-4444"
[profiles.spare]
[profiles.spare.mcp.x]
type = "http"
url = "http://127.0.0.1:9/mcp"
token_env = "SPARE_TOKEN"
`)
	f, _, err := parseFlags([]string{"-p", "hi"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := resolve(f, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.mcp != nil {
		defer cfg.mcp.Close()
	}
	for _, name := range []string{"access", "token"} {
		data, err := os.ReadFile(filepath.Join(dir, name+".env"))
		if err != nil {
			t.Fatalf("the %s command wrote no environment: %v", name, err)
		}
		environ := string(data)
		for k, v := range secrets {
			if strings.Contains(environ, v) && !(name == "access" && k == "COPY_OF_TOKEN") { // its own
				t.Errorf("the %s command has %s's secret %s", name, k, v)
			}
		}
		if !strings.Contains(environ, "PATH=") {
			t.Errorf("the %s command has no PATH: %q", name, environ)
		}
	}
}
