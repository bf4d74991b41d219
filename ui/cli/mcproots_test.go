package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// initServer is a stdio MCP server in sh that writes the initialize
// request it gets into the file named by its first argument, and offers
// no tool.
const initServer = `while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  case "$line" in
  *'"initialize"'*) printf '%s\n' "$line" > "$1"
    printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"sh","version":"1"}}}\n' "$id" ;;
  *'"tools/list"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[]}}\n' "$id" ;;
  *) [ -n "$id" ] && printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}\n' "$id" ;;
  esac
done
`

// Roots are off by default: muse declares none to an MCP server. The
// --mcp-roots flag declares them, as mcp_roots = true in the profile does,
// and --mcp-roots=false turns the profile's off; --help names the flag.
func TestMCPRootsFlag(t *testing.T) {
	env := map[string]string{}
	writeConfig(t, env, "[profiles.roots]\nmcp_roots = true\n")
	dir := t.TempDir()
	script, seen := filepath.Join(dir, "server.sh"), filepath.Join(dir, "initialize.json")
	if err := os.WriteFile(script, []byte(initServer), 0o600); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(config, []byte(`{"mcpServers": {"sh": {"command": "sh", "args": ["`+script+`", "`+seen+`"]}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args  []string
		roots bool
	}{
		{nil, false},
		{[]string{"--mcp-roots"}, true},
		{[]string{"--profile", "roots"}, true},
		{[]string{"--profile", "roots", "--mcp-roots=false"}, false},
	} {
		os.Remove(seen)
		r := runMain(t, env, "", append([]string{"--demo", "--no-save", "--mcp-config", config, "--mcp", "sh", "-p", "hi"}, c.args...)...)
		if r.code != 0 {
			t.Fatalf("%q: code %d, stderr %q", c.args, r.code, r.stderr)
		}
		init, err := os.ReadFile(seen)
		if err != nil {
			t.Fatalf("%q: the server got no initialize: %v", c.args, err)
		}
		if got := strings.Contains(string(init), `"roots"`); got != c.roots {
			t.Errorf("%q: roots declared %t, want %t: %s", c.args, got, c.roots, init)
		}
	}
	if r := runMain(t, env, "", "--help"); !strings.Contains(r.stdout, "--mcp-roots") || !strings.Contains(r.stdout, "off by default") {
		t.Errorf("--help does not name --mcp-roots:\n%s", r.stdout)
	}
}
