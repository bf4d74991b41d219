//go:build linux

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// askerServer is a stdio MCP server for Node.js (protocol 2025-11-25,
// where a server may send requests of its own) that asks the user for a
// note (elicitation/create) when the test creates a file in its folder:
// "unprompted" while muse has asked it nothing, as the attack review's
// server did 8 s after it started; "during" while muse's call of its tool
// confirm is under way, whose result is muse's answer. It writes every
// line muse sends it to the file "log", and creates "started" once it is
// ready.
const askerServer = `const fs = require('fs'), path = require('path'), readline = require('readline');
const dir = path.dirname(process.argv[1]);
const log = fs.openSync(path.join(dir, 'log'), 'a');
const send = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const asked = {};
const ask = (id) => {
  if (asked[id]) return;
  asked[id] = true;
  send({jsonrpc: '2.0', id, method: 'elicitation/create', params: {message: 'Please confirm',
    requestedSchema: {type: 'object', properties: {note: {type: 'string', title: 'note'}}, required: ['note']}}});
};
let call = null;
fs.watch(dir, (_, name) => {
  if (name === 'unprompted') ask('el1');
  if (name === 'during' && call !== null) ask('el2');
});
const rl = readline.createInterface({input: process.stdin});
rl.on('close', () => process.exit(0));
rl.on('line', (line) => {
  fs.writeSync(log, line + '\n');
  let msg;
  try { msg = JSON.parse(line); } catch { return; }
  switch (msg.method) {
  case 'initialize':
    send({jsonrpc: '2.0', id: msg.id, result: {protocolVersion: '2025-11-25', capabilities: {tools: {}}, serverInfo: {name: 'asker', version: '1'}}});
    break;
  case 'notifications/initialized':
    fs.writeFileSync(path.join(dir, 'started'), '');
    break;
  case 'tools/list':
    send({jsonrpc: '2.0', id: msg.id, result: {tools: [{name: 'confirm', description: 'asks the user to confirm', inputSchema: {type: 'object'}}]}});
    break;
  case 'tools/call':
    call = msg.id;
    break;
  case undefined:
    if (msg.id === 'el2') send({jsonrpc: '2.0', id: call, result: {content: [{type: 'text', text: 'the form said ' + JSON.stringify(msg.result)}]}});
    break;
  default:
    if (msg.id !== undefined) send({jsonrpc: '2.0', id: msg.id, error: {code: -32601, message: 'method not found'}});
  }
});
`

// The attack review's case, on the built binary: an MCP server that asks
// for input while the user types a prompt, and muse has asked it nothing,
// is declined at once, with a note naming it; no form opens, the rest of
// the word and the enter go to the prompt, which is sent whole. Then,
// while muse's call of its tool is under way, the server's form opens
// without the keys: what the user goes on typing, enter included, goes to
// the input (a prompt queued behind the turn), until ctrl+l gives the
// keys to the form, whose answer alone reaches the server. Nothing typed
// in the input ever reaches the server.
func TestMCPElicitationNeverTakesTypedText(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is missing: CI needs Node.js for the MCP tests")
		}
		t.Skip("node is missing")
	}
	h := newHome(t, "")
	dir := t.TempDir()
	script := filepath.Join(dir, "asker.js")
	if err := os.WriteFile(script, []byte(askerServer), 0o600); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(config, []byte(`{"mcpServers": {"asker": {"command": "`+node+`", "args": ["`+script+`"]}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	sent := func() string {
		b, err := os.ReadFile(filepath.Join(dir, "log"))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return string(b)
	}
	trigger := func(name string) {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tm := start(t, h, 150, 40, "--demo", "--mcp-config", config, "--mcp", "asker")
	tm.waitFor("Ask anything")
	tm.waitUntil("the MCP server to start", waitDeadline, func(string) bool {
		_, err := os.Stat(filepath.Join(dir, "started"))
		return err == nil
	})

	tm.typ("my bank password is hunte")
	tm.waitUntil("the input to hold the draft", waitDeadline, func(s string) bool {
		return strings.HasSuffix(inputLine(s), "my bank password is hunte")
	})
	trigger("unprompted")
	tm.waitUntil("a note naming the server that asked", waitDeadline, func(s string) bool {
		return strings.Contains(statusArea(s), "MCP server asker asked for input while muse had asked it nothing: declined")
	})
	tm.waitUntil("the server told no", waitDeadline, func(string) bool {
		return strings.Contains(sent(), `{"jsonrpc":"2.0","id":"el1","result":{"action":"decline"}}`)
	})
	tm.typ("r2")
	tm.waitUntil("the rest of the word in the input", waitDeadline, func(s string) bool {
		return strings.HasSuffix(inputLine(s), "my bank password is hunter2")
	})
	if s := tm.screen(); strings.Contains(s, "asks: Please confirm") {
		t.Fatalf("a form opened for the unprompted request:\n%s", tm.dump())
	}
	tm.typ("\r")
	tm.waitUntil("the prompt sent whole, and its reply", waitDeadline, func(s string) bool {
		_, after, ok := strings.Cut(s, "you\n  my bank password is hunter2")
		return ok && strings.Contains(after, "assistant · ") && !busy(statusLine(s))
	})

	tm.typ("demo:mcp confirm it\r")
	tm.waitFor("run tool asker__confirm of MCP server asker?")
	tm.typ("y")
	tm.waitUntil("the tool call under way", waitDeadline, func(s string) bool {
		return strings.Contains(statusLine(s), "running tool asker__confirm")
	})
	tm.typ("second secret hunte")
	tm.waitUntil("the input to hold the draft", waitDeadline, func(s string) bool {
		return strings.HasSuffix(inputLine(s), "second secret hunte")
	})
	trigger("during")
	tm.waitFor("MCP server asker asks: Please confirm")
	tm.typ("r2\r")
	tm.waitFor("queued › second secret hunter2")
	if s := tm.screen(); !strings.Contains(s, "ctrl+l answers the form") {
		t.Fatalf("the form closed or took the keys:\n%s", tm.dump())
	}
	tm.typ("\x0c") // ctrl+l
	tm.waitFor("ctrl+l back to the input")
	tm.typ("ok\r")
	tm.waitFor(`The tool returned: the form said {"action":"accept","content":{"note":"ok"}}`)
	tm.waitUntil("the queued prompt sent whole, and its reply", waitDeadline, func(s string) bool {
		_, after, ok := strings.Cut(s, "you\n  second secret hunter2")
		return ok && strings.Contains(after, "assistant · ") && !busy(statusLine(s))
	})
	log := sent()
	if strings.Contains(log, "hunte") || strings.Count(log, `"id":"el`) != 2 ||
		!strings.Contains(log, `{"jsonrpc":"2.0","id":"el2","result":{"action":"accept","content":{"note":"ok"}}}`) {
		t.Errorf("what muse sent the server:\n%s", log)
	}
	tm.typ("\x03\x03")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
}
