//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mcpServer is a stdio MCP server in sh with one tool, read_file, whose
// every answer is "the answer is 42". It creates the file "started" in
// its folder as it starts.
const mcpServer = `: > "$(dirname "$0")/started"
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  case "$line" in
  *'"initialize"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"sh","version":"1"}}}\n' "$id" ;;
  *'"tools/list"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"read_file","description":"reads a file","inputSchema":{"type":"object","properties":{"path":{"type":"string"}}}}]}}\n' "$id" ;;
  *'"tools/call"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"the answer is 42"}]}}\n' "$id" ;;
  *) [ -n "$id" ] && printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}\n' "$id" ;;
  esac
done
`

// TestMCPServerStartsAfterTheFirstFrame runs muse with an MCP server of an
// --mcp-config file: the server starts once the screen is drawn, with no
// turn asking for it yet; then a prompt calls its tool, the approval box
// names the server, y runs it, and the reply shows its answer.
func TestMCPServerStartsAfterTheFirstFrame(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	dir := t.TempDir()
	script := filepath.Join(dir, "server.sh")
	if err := os.WriteFile(script, []byte(mcpServer), 0o600); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(config, []byte(`{"mcpServers": {"fs": {"command": "sh", "args": ["`+script+`"]}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tm := start(t, h, 100, 30, "--demo", "--mcp-config", config)
	tm.waitFor("Ask anything")
	tm.waitUntil("the MCP server to start, before any turn", waitDeadline, func(string) bool {
		_, err := os.Stat(filepath.Join(dir, "started"))
		return err == nil
	})
	tm.typ("demo:mcp what is in /srv/notes.txt?\r")
	tm.waitFor("run tool fs__read_file of MCP server fs?")
	tm.waitFor(`"path": "/srv/notes.txt"`)
	tm.typ("y")
	tm.waitFor("The tool returned: the answer is 42")
	tm.typ("\x03\x03")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
}

// slowServer is a stdio MCP server in sh with one tool, index, that
// reports its progress with the call's token ("1/4 · indexing") and then
// runs until muse cancels the call (notifications/cancelled), which it
// records in the file "cancelled" of its folder.
const slowServer = `dir=$(dirname "$0")
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  case "$line" in
  *'"initialize"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"sh","version":"1"}}}\n' "$id" ;;
  *'"tools/list"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"index","description":"indexes the notes","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}]}}\n' "$id" ;;
  *'"tools/call"'*)
    token=$(printf '%s' "$line" | sed -n 's/.*"progressToken":"\([^"]*\)".*/\1/p')
    printf '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"%s","progress":1,"total":4,"message":"indexing"}}\n' "$token" ;;
  *'"notifications/cancelled"'*) : > "$dir/cancelled" ;;
  *) [ -n "$id" ] && printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}\n' "$id" ;;
  esac
done
`

// A long MCP tool shows its progress on the status line, as its server
// reports it; esc cancels the call (the server is told), the turn ends,
// and the next prompt gets its reply.
func TestMCPToolProgressCancelledWithEsc(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	dir := t.TempDir()
	script := filepath.Join(dir, "server.sh")
	if err := os.WriteFile(script, []byte(slowServer), 0o600); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(config, []byte(`{"mcpServers": {"slow": {"command": "sh", "args": ["`+script+`"]}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tm := start(t, h, 100, 30, "--demo", "--mcp-config", config, "--mcp", "slow")
	tm.waitFor("Ask anything")
	tm.typ("demo:mcp index my notes\r")
	tm.waitFor("run tool slow__index of MCP server slow?")
	tm.typ("y")
	tm.waitUntil("the progress on the status line", waitDeadline, func(s string) bool {
		return strings.Contains(statusLine(s), "running tool slow__index · 1/4 · indexing · esc cancels")
	})
	tm.typ("\x1b")
	tm.waitUntil("the turn to end", waitDeadline, func(s string) bool { return !busy(statusLine(s)) })
	tm.waitUntil("the server told of the cancel", waitDeadline, func(string) bool {
		_, err := os.Stat(filepath.Join(dir, "cancelled"))
		return err == nil
	})
	tm.typ("quick brown fox\r")
	tm.waitUntil("a reply to the next prompt", waitDeadline, func(s string) bool {
		// After the cancelled call the demo answers its result, not the
		// prompt: a reply under the prompt, and the turn ended.
		_, after, ok := strings.Cut(s, "you\n  quick brown fox")
		return ok && strings.Contains(after, "assistant · ") && !busy(statusLine(s)) && strings.Contains(statusLine(s), "· stop ")
	})
	tm.typ("\x03\x03")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
}
