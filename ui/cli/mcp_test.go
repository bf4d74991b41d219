package cli

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	cfgfile "muse/ui/cli/config"
	"muse/ui/mcp"
)

// shServer is a stdio MCP server written in sh: it answers initialize and
// tools/list (two tools, hello and bye), and refuses every other request. It is enough for
// muse to start it and list its tools, with nothing to build.
const shServer = `while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  case "$line" in
  *'"initialize"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"sh","version":"1"}}}\n' "$id" ;;
  *'"tools/list"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"hello","inputSchema":{"type":"object"}},{"name":"bye","inputSchema":{"type":"object"}}]}}\n' "$id" ;;
  *) [ -n "$id" ] && printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}\n' "$id" ;;
  esac
done
`

// writeMCPConfig writes an mcpServers file of servers (name to the JSON of
// the server) into a temporary folder, with the sh server beside it as
// server.sh, and returns the file's path.
func writeMCPConfig(t *testing.T, servers map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "server.sh"), []byte(shServer), 0o600); err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(servers)) { // in a known order
		parts = append(parts, `"`+name+`": `+strings.ReplaceAll(servers[name], "DIR", dir))
	}
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers": {`+strings.Join(parts, ",\n")+`}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDoctorChecksMCPServers runs muse doctor with a profile's server and
// an --mcp-config file: a good server is started and its tools listed; one
// that exits is marked ✗ with the end of its standard error, sanitized,
// and doctor exits 1.
func TestDoctorChecksMCPServers(t *testing.T) {
	env := map[string]string{"MUSE_BASE_URL": "http://127.0.0.1:9", "MUSE_MODEL": "m", "MUSE_ACCESS_TOKEN": "t"}
	file := writeMCPConfig(t, map[string]string{
		"good": `{"command": "sh", "args": ["DIR/server.sh"]}`,
		"bad":  `{"command": "sh", "args": ["-c", "echo starting >&2; printf 'no such database \\033[31mred\\n    at open (db.js:1:2)\\n' >&2; exit 2"]}`,
	})
	writeConfig(t, env, "default_profile = \"w\"\n[profiles.w]\n[profiles.w.mcp.prof]\ncommand = \"sh\"\nargs = [\""+filepath.Join(filepath.Dir(file), "server.sh")+"\"]\n")
	r := runMain(t, env, "", "doctor", "--mcp-config", file)
	if r.code != 1 {
		t.Fatalf("code %d, want 1:\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"MCP servers\n",
		"  prof             ready in ", "(stdio, " + env["XDG_CONFIG_HOME"],
		"2 tools\n                   prof__bye, prof__hello\n",
		"  good             ready in ", "(stdio, " + file + ":",
		"good__bye, good__hello",
		"✗ bad              failed after ", "exit status 2",
		"stderr: starting\n", "stderr: no such database red\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "\x1b") || strings.Contains(r.stdout, "db.js") {
		t.Errorf("an escape or a stack frame from the server's stderr reached the output:\n%q", r.stdout)
	}

	// No server: a line says how to add one, and nothing fails for it.
	r = runMain(t, map[string]string{"MUSE_BASE_URL": "http://127.0.0.1:9", "MUSE_MODEL": "m", "MUSE_ACCESS_TOKEN": "t", "XDG_CONFIG_HOME": t.TempDir()}, "", "doctor", "--offline")
	if !strings.Contains(r.stdout, "  servers          none (--mcp-config FILE") {
		t.Errorf("no servers:\n%s", r.stdout)
	}
	// A file that does not parse is reported with its line.
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte("{\"mcpServers\": {\n\"x\": {\"command\": 3}}}"), 0o600)
	r = runMain(t, map[string]string{"XDG_CONFIG_HOME": t.TempDir()}, "", "doctor", "--mcp-config", bad)
	if r.code != 1 || !strings.Contains(r.stdout, "✗ servers          "+bad+":2: server \"x\"") {
		t.Errorf("bad file: %+v", r)
	}
}

// --mcp NAME keeps only the servers named, the others off for the run;
// --no-mcp offers none, the demo's included; and they conflict as they
// should, each with a message that says what to do.
func TestMCPFlags(t *testing.T) {
	file := writeMCPConfig(t, map[string]string{
		"good": `{"command": "sh", "args": ["DIR/server.sh"]}`,
		"more": `{"command": "sh", "args": ["DIR/server.sh"]}`,
	})
	getenv := func(string) string { return "" }
	mgr, err := readMCP(&flags{mcpConfig: file, mcpOnly: []string{"more"}, demo: true}, &cfgfile.Profile{}, &config{}, Env{Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]mcp.State{}
	for _, st := range mgr.Status() {
		states[st.Name] = st.State
	}
	if len(states) != 3 || states["more"] != mcp.Idle || states["good"] != mcp.Off || states["demo"] != mcp.Off {
		t.Errorf("--mcp more: states %v", states)
	}
	if mgr, err := readMCP(&flags{mcpConfig: file, noMCP: true, demo: true}, &cfgfile.Profile{}, &config{}, Env{Getenv: getenv}); mgr != nil || err != nil {
		t.Errorf("--no-mcp: %v, %v", mgr, err)
	}

	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir()}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--demo", "--no-mcp", "--mcp", "good", "-p", "hi"}, "--no-mcp turns MCP servers off: leave out --mcp and --mcp-config, or --no-mcp"},
		{[]string{"--demo", "--no-mcp", "--mcp-config", file, "-p", "hi"}, "--no-mcp turns MCP servers off"},
		{[]string{"--demo", "--mcp-config", file, "--mcp", "nope", "-p", "hi"}, "--mcp nope: no such MCP server; the servers are good, more, demo"},
		{[]string{"--base-url", "http://127.0.0.1:9", "--model", "m", "--mcp", "fs", "-p", "hi"}, "--mcp fs: no MCP server is configured: add --mcp-config FILE or [profiles.NAME.mcp.fs]"},
		{[]string{"--demo", "--mcp-config", filepath.Join(t.TempDir(), "none.json"), "-p", "hi"}, "--mcp-config "},
	} {
		env["MUSE_ACCESS_TOKEN"] = "t"
		r := runMain(t, env, "", c.args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%q: code %d, stderr %q; want 2 and %q", c.args, r.code, r.stderr, c.want)
		}
	}
	// A server named in the profile and in the file is refused, both places named.
	writeConfig(t, env, "[profiles.w]\n[profiles.w.mcp.good]\ncommand = \"sh\"\n")
	r := runMain(t, env, "", "--demo", "--profile", "w", "--mcp-config", file, "-p", "hi")
	if r.code != 2 || !strings.Contains(r.stderr, "MCP server good is also in the profile") || !strings.Contains(r.stderr, "config.toml:2") {
		t.Errorf("a name twice: %+v", r)
	}

	// With --demo, demo:mcp calls the demo server's tool; with --no-mcp it
	// has none to call.
	r = runMain(t, nil, "", "--demo", "--no-save", "--allow-tools", "-p", "demo:mcp count these words")
	if r.code != 0 || !strings.Contains(r.stdout, "The tool returned: 3 words, 1 lines, 17 characters") {
		t.Errorf("demo:mcp: %+v", r)
	}
	r = runMain(t, nil, "", "--demo", "--no-save", "--no-mcp", "-p", "demo:mcp count these words")
	if r.code != 0 || !strings.Contains(r.stdout, "No MCP tool is offered") {
		t.Errorf("demo:mcp with --no-mcp: %+v", r)
	}
}
