//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEditorGetsNoServersSecret: a variable that an MCP server's entry
// names is that server's alone, and a child muse starts outside the tool
// runner ($EDITOR here) does not inherit it; the variables muse itself
// reads (the proxy) are left.
func TestEditorGetsNoServersSecret(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	dump := filepath.Join(h.dir, "editor.env")
	editor := filepath.Join(h.dir, "env-editor.sh")
	if err := os.WriteFile(editor, []byte("#!/bin/sh\nenv > "+dump+"\nprintf 'from the editor' > \"$1\"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	mcpFile := filepath.Join(h.dir, "home", "mcp.json")
	if err := os.WriteFile(mcpFile, []byte(`{"mcpServers": {"tracker": {"command": "sh", "args": ["-c", "exit 1"],
		"env": {"OTHER_MCP_TOKEN": "${OTHER_MCP_TOKEN}", "HTTPS_PROXY": "${HTTPS_PROXY}"}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	h.env = append(h.env, "EDITOR="+editor, "OTHER_MCP_TOKEN=oth-sekrit-3333", "HTTPS_PROXY=http://127.0.0.1:9")
	tm := start(t, h, 100, 30, "--demo", "--mcp-config", mcpFile, "--mcp-expand-env")
	tm.waitFor("Ask anything")
	tm.typ("\x18") // ctrl+x: the input in $EDITOR
	tm.waitUntil("the editor's text in the input", waitDeadline, func(s string) bool {
		return strings.Contains(inputLine(s), "from the editor")
	})
	quitNow(t, tm)
	env, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(env), "oth-sekrit-3333") {
		t.Errorf("the editor got the MCP server's token:\n%s", env)
	}
	if !strings.Contains(string(env), "HTTPS_PROXY=http://127.0.0.1:9") {
		t.Errorf("the editor lost the proxy muse reads itself:\n%s", env)
	}
}
