package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ${VAR} in an mcpServers file from outside the user's configuration
// folder (a project's .mcp.json, a file someone shared) is refused unless
// the user allows it: the message names the variable, the folder and both
// ways to allow it, and the variable's value is nowhere. --mcp-expand-env
// or mcp_expand_env = true allows it, and a file in the configuration
// folder (where muse's and Claude Desktop's files are) needs neither.
func TestMCPConfigExpansionNeedsConsent(t *testing.T) {
	server := `{"mcpServers": {"tracker": {"command": "sh", "args": ["-c", "exit 0"], "env": {"TRACKER_TOKEN": "${TRACKER_TOKEN}"}}}}`
	env := map[string]string{"TRACKER_TOKEN": "trk-sekrit-1111"}
	cfgPath := writeConfig(t, env, "[profiles.ok]\nmcp_expand_env = true\n")
	shared := filepath.Join(t.TempDir(), ".mcp.json")
	os.WriteFile(shared, []byte(server), 0o600)

	r := runMain(t, env, "", "--demo", "--no-save", "--mcp-config", shared, "-p", "hi")
	for _, want := range []string{"${TRACKER_TOKEN} is not read", "not in your configuration folder (" + env["XDG_CONFIG_HOME"] + ")", "--mcp-expand-env", "mcp_expand_env = true"} {
		if r.code != 2 || !strings.Contains(r.stderr, want) {
			t.Errorf("no consent: code %d, stderr %q lacks %q", r.code, r.stderr, want)
		}
	}
	if strings.Contains(r.stdout+r.stderr, "trk-sekrit") {
		t.Errorf("the value shows: %+v", r)
	}

	inConfig := filepath.Join(filepath.Dir(cfgPath), "mcp.json")
	os.WriteFile(inConfig, []byte(server), 0o600)
	for what, args := range map[string][]string{
		"--mcp-expand-env":      {"--mcp-config", shared, "--mcp-expand-env"},
		"mcp_expand_env = true": {"--mcp-config", shared, "--profile", "ok"},
		"a file in the folder":  {"--mcp-config", inConfig},
	} {
		r := runMain(t, env, "", append([]string{"--demo", "--no-save", "-p", "hi"}, args...)...)
		if r.code != 0 {
			t.Errorf("%s: code %d, stderr %q", what, r.code, r.stderr)
		}
	}
	// muse doctor takes the flag too.
	r = runMain(t, env, "", "doctor", "--mcp-config", shared)
	if !strings.Contains(r.stdout, "--mcp-expand-env") {
		t.Errorf("doctor without consent:\n%s", r.stdout)
	}
	r = runMain(t, env, "", "doctor", "--mcp-config", shared, "--mcp-expand-env")
	if strings.Contains(r.stdout, "--mcp-expand-env") {
		t.Errorf("doctor with consent:\n%s", r.stdout)
	}
}

// callServer is shServer that also answers tools/call, and touches the
// file named by its first argument when it does.
const callServer = `while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  case "$line" in
  *'"initialize"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"sh","version":"1"}}}\n' "$id" ;;
  *'"tools/list"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"hello","inputSchema":{"type":"object"}}]}}\n' "$id" ;;
  *'"tools/call"'*) touch "$1"; printf '{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"ran"}]}}\n' "$id" ;;
  *) [ -n "$id" ] && printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}\n' "$id" ;;
  esac
done
`

// -p runs no tool without --allow-tools, an MCP tool its server's "allow"
// lists included, as for a command tool: the call is printed as JSON and
// the server never gets it. With --allow-tools it runs.
func TestPrintRunsNoAllowedMCPToolWithoutAllowTools(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "call.sh"), []byte(callServer), 0o600)
	mark := filepath.Join(dir, "called")
	file := filepath.Join(dir, "mcp.json")
	os.WriteFile(file, []byte(`{"mcpServers": {"sh": {"command": "sh", "args": ["`+dir+`/call.sh", "`+mark+`"], "allow": ["hello"]}}}`), 0o600)
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir()}

	r := runMain(t, env, "", "--demo", "--no-save", "--mcp-config", file, "--mcp", "sh", "-p", "demo:mcp count these words")
	if r.code != 0 || !strings.Contains(r.stdout, `"name":"sh__hello"`) {
		t.Errorf("without --allow-tools: code %d, stdout %q, stderr %q; want the call printed", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Errorf("without --allow-tools, the allowed MCP tool ran")
	}
	r = runMain(t, env, "", "--demo", "--no-save", "--mcp-config", file, "--mcp", "sh", "--allow-tools", "-p", "demo:mcp count these words")
	if _, err := os.Stat(mark); r.code != 0 || err != nil {
		t.Errorf("with --allow-tools: code %d, ran: %v, stderr %q", r.code, err == nil, r.stderr)
	}
}
