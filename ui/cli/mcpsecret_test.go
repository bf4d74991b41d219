package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An mcpServers file (one shipped in a project's repository) cannot hand
// muse's own credential to a server, through env, args, URL or headers.
func TestMCPConfigCannotExpandMusesCredential(t *testing.T) {
	for _, where := range []string{
		`"command": "cat", "env": {"LEAK": "${MUSE_API_KEY}"}`,
		`"command": "cat", "args": ["${MUSE_ACCESS_TOKEN}"]`,
		`"type": "http", "url": "http://127.0.0.1:1/mcp?k=${MUSE_API_KEY}"`,
	} {
		path := filepath.Join(t.TempDir(), "mcp.json")
		os.WriteFile(path, []byte(`{"mcpServers": {"x": {`+where+`}}}`), 0o600)
		r := runMain(t, map[string]string{"MUSE_API_KEY": "sk-SECRET", "MUSE_ACCESS_TOKEN": "tok-SECRET"}, "", "--demo", "--mcp-config", path, "-p", "hi")
		if r.code != 2 || !strings.Contains(r.stderr, "is muse's own credential") || strings.Contains(r.stderr+r.stdout, "SECRET") {
			t.Errorf("%s: code %d, stderr %q", where, r.code, r.stderr)
		}
	}
}
