package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"muse/api"
	"muse/api/demo"
	"muse/session"
)

// blockingTool is a command tool in sh: each call counts itself in DIR/n;
// the K-th call starts a sleep, writes the pids of the sleep and of itself
// to the FIFO DIR/blocked, and waits, so that a test knows when round K's
// tool is running; every other call prints "result N".
const blockingTool = `D="$1"; K="$2"; cat >/dev/null
n=$(( $(cat "$D/n" 2>/dev/null || echo 0) + 1 )); echo "$n" > "$D/n"
if [ "$n" -eq "$K" ]; then sleep 120 & echo "$! $$" > "$D/blocked"; wait; fi
echo "result $n"
`

// blockingMCP is a stdio MCP server in sh with one tool, step, that does
// what blockingTool does: the K-th call blocks and says so on DIR/blocked.
const blockingMCP = `D="$1"; K="$2"
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  case "$line" in
  *'"initialize"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"sh","version":"1"}}}\n' "$id" ;;
  *'"tools/list"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"step","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}]}}\n' "$id" ;;
  *'"tools/call"'*)
    n=$(( $(cat "$D/n" 2>/dev/null || echo 0) + 1 )); echo "$n" > "$D/n"
    if [ "$n" -eq "$K" ]; then sleep 120 & echo "$! $$" > "$D/blocked"; wait; fi
    printf '{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"result %s"}]}}\n' "$id" "$n" ;;
  *) [ -n "$id" ] && printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}\n' "$id" ;;
  esac
done
`

// TestKillInEveryToolRound runs a turn of twelve tool rounds in a real
// muse (-p --allow-tools) and kills it with SIGKILL while the tool of round
// K runs, for K from 1 to 10, with a command tool and with an MCP tool (20
// kills). After each: every round answered before the kill is in the
// session, in order; the next turn (muse -c) is accepted by the demo
// server, which refuses as the service does any tool_use without its
// tool_result; the call that was cut is answered as muse stopped; and a
// turn after that goes through too. muse used to drop the round before the
// one cut, and send its tool_use unanswered: a 400 on every later turn.
func TestKillInEveryToolRound(t *testing.T) {
	if testing.Short() && os.Getenv("CI") == "" { // CI runs everything
		t.Skip("starts child processes")
	}
	for _, kind := range []string{"command", "mcp"} {
		for k := 1; k <= 10; k++ {
			t.Run(fmt.Sprintf("%s round %d", kind, k), func(t *testing.T) {
				killInToolRound(t, kind, k)
			})
		}
	}
}

func killInToolRound(t *testing.T, kind string, k int) {
	dir, data := t.TempDir(), t.TempDir()
	blocked := filepath.Join(dir, "blocked")
	if err := syscall.Mkfifo(blocked, 0o600); err != nil {
		t.Fatal(err)
	}
	var args []string
	var prompt string
	switch kind {
	case "command":
		script := filepath.Join(dir, "tool.sh")
		os.WriteFile(script, []byte(blockingTool), 0o600)
		tools := fmt.Sprintf(`[{"name":"step","description":"a step","input_schema":{"type":"object"},"command":["sh",%q,%q,"%d"]}]`, script, dir, k)
		file := filepath.Join(dir, "tools.json")
		os.WriteFile(file, []byte(tools), 0o600)
		args = []string{"--tools", file}
		prompt = "demo:tool demo:rounds:12 step on"
	case "mcp":
		script := filepath.Join(dir, "mcp.sh")
		os.WriteFile(script, []byte(blockingMCP), 0o600)
		conf := fmt.Sprintf(`{"mcpServers":{"kill":{"command":"sh","args":[%q,%q,"%d"]}}}`, script, dir, k)
		file := filepath.Join(dir, "mcp.json")
		os.WriteFile(file, []byte(conf), 0o600)
		args = []string{"--mcp-config", file, "--mcp", "kill"}
		prompt = "demo:mcp demo:rounds:12 step on"
	}
	args = append([]string{"--demo", "--allow-tools"}, args...)

	var out bytes.Buffer
	cmd := museProcess(t, data, append(args, "-p", prompt)...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	// Wait until round k's tool runs: it says so on the FIFO. Opening it
	// blocks until the tool opens it to write, so nothing here polls.
	pids := make(chan string, 1)
	go func() {
		f, err := os.Open(blocked)
		if err != nil {
			pids <- ""
			return
		}
		defer f.Close()
		line, _ := bufio.NewReader(f).ReadString('\n')
		pids <- line
	}()
	var line string
	select {
	case line = <-pids:
	case err := <-exited:
		unblock(blocked)
		t.Fatalf("muse ended before round %d's tool ran: %v\n%s", k, err, out.String())
	case <-time.After(60 * time.Second):
		unblock(blocked)
		t.Fatalf("round %d's tool did not run in 60 s:\n%s", k, out.String())
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	// The tool (and the MCP server) ran in their own process groups, and
	// outlive muse: end them.
	for _, f := range strings.Fields(line) {
		if pid, err := strconv.Atoi(f); err == nil {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}

	store, err := session.Open(filepath.Join(data, "muse", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	sess, err := store.Latest()
	if err != nil {
		t.Fatalf("no session after the kill: %v", err)
	}
	// Every round answered before the kill is saved: k replies that call
	// the tool, k-1 results, in order.
	checkRounds(t, sess.Entries, k-1, "after the kill")
	if n := len(sess.Entries); n != 2*k || sess.Entries[n-1].Kind != session.KindAssistant {
		t.Fatalf("after the kill: %d entries on the branch, want %d ending with the reply of round %d", n, 2*k, k)
	}

	// The next turn is valid to the demo's strict rules, and so is the one
	// after.
	for i, next := range []string{"go on", "and once more"} {
		r := museProcess(t, data, append(args, "-c", "-p", next)...)
		got, err := r.CombinedOutput()
		if err != nil {
			t.Fatalf("turn %d after the kill: %v\n%s", i+1, err, got)
		}
	}
	back, err := store.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	checkRounds(t, back.Entries, k-1, "after two more turns")
	for _, e := range back.Entries {
		if e.Kind == session.KindError {
			t.Errorf("an error was saved: %+v", e.Error)
		}
	}
	// What the next request sends: every saved round, the cut call
	// answered as stopped, valid to the strict rules.
	h := session.Pending(append(back.Entries, session.Entry{Kind: session.KindUser, Text: "next"}), nil)
	if msg := demo.CheckTurns(h); msg != "" {
		t.Fatalf("the next request would be refused: %s", msg)
	}
	results, stopped := 0, 0
	for _, m := range h {
		for _, b := range m.Blocks {
			switch {
			case b.Type != api.BlockToolResult:
			case b.IsError && strings.Contains(string(b.ResultContent), "muse stopped"):
				stopped++
			case !b.IsError:
				results++
			}
		}
	}
	if results != k-1 || stopped != 1 {
		t.Errorf("the next request sends %d results and %d calls answered as stopped; want %d and 1", results, stopped, k-1)
	}
}

// checkRounds checks that the branch begins with a prompt and then n
// answered rounds: a reply that calls the tool, and its result, "result i".
func checkRounds(t *testing.T, branch []session.Entry, n int, when string) {
	t.Helper()
	if len(branch) < 1+2*n || branch[0].Kind != session.KindUser {
		t.Fatalf("%s: %d entries on the branch, want at least %d", when, len(branch), 1+2*n)
	}
	for i := 1; i <= n; i++ {
		reply, tool := branch[2*i-1], branch[2*i]
		if reply.Kind != session.KindAssistant || reply.Message == nil || reply.Message.StopReason != api.StopToolUse {
			t.Fatalf("%s: entry %d is not round %d's reply: %+v", when, 2*i-1, i, reply)
		}
		if tool.Kind != session.KindTool || len(tool.ToolResults) != 1 || strings.TrimSpace(tool.ToolResults[0].Output) != fmt.Sprintf("result %d", i) {
			t.Fatalf("%s: entry %d is not round %d's result: %+v", when, 2*i, i, tool.ToolResults)
		}
	}
}

// unblock opens the FIFO for writing, without waiting, so that a reader
// blocked on it returns.
func unblock(fifo string) {
	if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		f.Close()
	}
}

// A kill while a large attachment is stored leaves most of it in a
// temporary file beside the attachments: muse -c removes it, and keeps the
// attachments that were stored.
func TestResumeRemovesAttachmentTemps(t *testing.T) {
	data := t.TempDir()
	store, err := session.Open(filepath.Join(data, "muse", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	id := seedSession(t, store, session.Params{Model: "demo-chat", MaxTokens: 4096}, "",
		session.Entry{ID: "e1", Kind: session.KindUser, Text: "first"},
		session.Entry{ID: "e2", Kind: session.KindAssistant, Message: &api.Message{Content: []api.ContentBlock{{Type: "text", Text: "first answer"}}}})
	dir := store.AttachmentDir(id)
	hash := strings.Repeat("0f", 32)
	os.MkdirAll(dir, 0o700)
	temp := filepath.Join(dir, "."+hash+".pdf.31337.tmp")
	kept := filepath.Join(dir, hash+".pdf")
	for _, p := range []string{temp, kept} {
		if err := os.WriteFile(p, bytes.Repeat([]byte("%"), 6<<20), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r := runMain(t, map[string]string{"XDG_DATA_HOME": data}, "", "--demo", "-c", "-p", "hi")
	if r.code != 0 {
		t.Fatalf("muse -c: %+v", r)
	}
	if _, err := os.Stat(temp); !os.IsNotExist(err) {
		t.Errorf("the temporary file is still there after muse -c: %v", err)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("a stored attachment went: %v", err)
	}
}
