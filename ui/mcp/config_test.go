package mcp

import (
	"strings"
	"testing"
)

func TestParseFile(t *testing.T) {
	env := map[string]string{"GH_TOKEN": "t0k"}
	getenv := func(k string) (string, error) { return env[k], nil }
	data := `{
  "globalShortcut": "",
  "mcpServers": {
    "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "${HOME_DIR:-/tmp}"]},
    "gh": {"type": "http", "url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer ${GH_TOKEN}"}}
  }
}`
	got, err := ParseFile("mcp.json", []byte(data), getenv)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "files" || got[0].Where != "mcp.json:4" || got[0].Args[2] != "/tmp" ||
		got[1].Type != TypeHTTP || got[1].Headers["Authorization"] != "Bearer t0k" || got[1].Where != "mcp.json:5" {
		t.Errorf("got %+v", got)
	}
	for _, c := range []struct{ data, want string }{
		{`{"mcpServers": {"a": {"command": "x",}}}`, "mcp.json:1: invalid JSON"},
		{"{\n\"mcpServers\": {\n\"a\": {\"url\": \"ftp://x\", \"type\": \"http\"}}}", `mcp.json:3: server "a": an http server needs a "url"`},
		{"{\"mcpServers\": {\n\"a\": {\"command\": \"x\", \"comand\": 1}}}", `mcp.json:2:23: server "a": unknown key "comand" (did you mean "command"?)`},
		{"{\"mcpServers\": {\"a\": {\n  \"zz\": 1,\n  \"command\": \"x\", \"agrs\": []}}}", `mcp.json:2:3: server "a": unknown key "zz"`},
		{`{"mcpServers": {"a b": {"command": "x"}}}`, `the server name "a b" must be 1 to 32 letters`},
		{`{"mcpServers": {"a": {"command": "x", "args": "y"}}}`, `"args" must be a list of strings, got a JSON string`},
		{`{"mcpServers": {"a": {"type": "http", "url": "https://h/${NOPE}"}}}`, `url: environment variable NOPE is not set`},
		{`{"servers": {}}`, `no "mcpServers" object`},
		{`[]`, `must be a JSON object`},
	} {
		_, err := ParseFile("mcp.json", []byte(c.data), getenv)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", c.data, err, c.want)
		}
	}
}

// ServerVars names what the servers' entries name, but not the variables
// every process gets, which an entry may name without taking them from
// the others.
func TestServerVars(t *testing.T) {
	data := `{"mcpServers": {
  "a": {"command": "x", "env": {"A_TOKEN": "${A_TOKEN}", "PATH": "/opt:${PATH}", "DISPLAY": "${DISPLAY:-:0}"}},
  "b": {"type": "http", "url": "https://h/mcp", "headers": {"Authorization": "Bearer ${B_TOKEN}"}},
  "c": {"command": "${TOOL_HOME}/bin/c", "args": ["--lang=${LC_ALL:-C}", "--home=${HOME}"]}
}}`
	lookup := func(k string) (string, error) { return "v", nil }
	servers, err := ParseFile("mcp.json", []byte(data), lookup)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(servers[0].Vars, " "), "A_TOKEN DISPLAY PATH"; got != want {
		t.Errorf("a names %q, want %q", got, want)
	}
	if got, want := strings.Join(ServerVars(servers), " "), "A_TOKEN B_TOKEN TOOL_HOME"; got != want {
		t.Errorf("ServerVars = %q, want %q", got, want)
	}
}
