//go:build linux

package e2e

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"muse/api"
	"muse/api/demo"
	"muse/session"
	"muse/ui/engine"
	"muse/ui/internal/waitfor"
)

// sessionsDir is where muse keeps the journals of home h.
func (h *home) sessionsDir() string { return filepath.Join(h.dir, "data", "muse", "sessions") }

// A prompt queued behind a reply survives a kill -9: muse -c shows it
// again, stopped (a crash is no reason to send it unasked), enter sends
// it, and then the file that kept it is gone.
func TestQueuedPromptSurvivesKill(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	tm := start(t, h, cols, rows, "--demo")
	tm.waitFor("Ask anything")
	tm.typ("demo:slow demo:long tell me everything\r")
	tm.waitFor("Part 1")
	tm.typ("and then a poem\r")
	tm.waitFor("queued › and then a poem")
	var queue string
	waitfor.Dir(t, h.sessionsDir(), tm.exited, "one queue file beside the session", func() bool {
		files, err := filepath.Glob(filepath.Join(h.sessionsDir(), "*.queue"))
		if err != nil || len(files) != 1 {
			return false
		}
		queue = files[0]
		return true
	})
	if fi, err := os.Stat(queue); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("queue file: %v %v", fi, err)
	}
	tm.signal(syscall.SIGKILL)
	tm.waitExit()

	tm = start(t, h, cols, rows, "--demo", "-c")
	tm.waitFor("1 queued prompt from before, not sent")
	tm.waitFor("queued › and then a poem")
	tm.waitFor("queue stopped")
	tm.typ("\r") // enter on an empty input sends the next
	tm.waitForHeading("and then a poem")
	waitfor.Dir(t, h.sessionsDir(), tm.exited, "the queue file gone", func() bool {
		_, err := os.Stat(queue)
		return errors.Is(err, fs.ErrNotExist)
	})
	tm.typ("\x04")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
}

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

// blocker is round K's tool, blocked: the FIFO it reports on, and the
// pids it reported.
type blocker struct {
	fifo string
	pids chan string
}

// newBlocker makes the FIFO dir/blocked and waits on it in the background.
// Opening it blocks until the tool opens it to write, so nothing polls.
func newBlocker(t *testing.T, dir string) *blocker {
	t.Helper()
	b := &blocker{fifo: filepath.Join(dir, "blocked"), pids: make(chan string, 1)}
	if err := syscall.Mkfifo(b.fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		f, err := os.Open(b.fifo)
		if err != nil {
			b.pids <- ""
			return
		}
		defer f.Close()
		line, _ := bufio.NewReader(f).ReadString('\n')
		b.pids <- line
	}()
	return b
}

// wait waits until the tool blocks, or exited closes, or the watchdog
// (waitDeadline, scaled by load) runs out; it reports whether the tool
// blocked.
func (b *blocker) wait(exited <-chan struct{}) (string, bool) {
	select {
	case line := <-b.pids:
		return line, true
	case <-exited:
	case <-time.After(waitfor.Scaled(waitDeadline)):
	}
	// Let the reader go.
	if f, err := os.OpenFile(b.fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		f.Close()
	}
	return "", false
}

// end kills what the tool reported: it runs in a process group of its own
// (as does an MCP server) and outlives a kill -9 of muse.
func end(pids string) {
	for _, f := range strings.Fields(pids) {
		if pid, err := strconv.Atoi(f); err == nil {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// TestKillInEveryToolRound runs a turn of twelve tool rounds in muse -p
// --allow-tools and kills it with SIGKILL while the tool of round K runs,
// for K from 1 to 10, with a command tool and with an MCP tool (20 kills).
// After each: every round answered before the kill is in the session, in
// order; the next two turns (muse -c -p) are accepted by the demo server,
// which refuses as the service does a tool_use without its tool_result;
// and the next request sends every saved round, the cut call answered as
// muse stopped. muse used to drop the round before the one cut and send
// its tool_use unanswered: a 400 on every later turn.
func TestKillInEveryToolRound(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"command", "mcp"} {
		for k := 1; k <= 10; k++ {
			t.Run(fmt.Sprintf("%s round %d", kind, k), func(t *testing.T) {
				killInToolRound(t, kind, k)
			})
		}
	}
}

func killInToolRound(t *testing.T, kind string, k int) {
	h := newHome(t, "")
	dir := t.TempDir()
	b := newBlocker(t, dir)
	var args []string
	var prompt string
	switch kind {
	case "command":
		script := filepath.Join(dir, "tool.sh")
		os.WriteFile(script, []byte(blockingTool), 0o600)
		tools := fmt.Sprintf(`[{"name":"step","description":"a step","input_schema":{"type":"object"},"command":["sh",%q,%q,"%d"]}]`, script, dir, k)
		file := filepath.Join(dir, "tools.json")
		os.WriteFile(file, []byte(tools), 0o600)
		args, prompt = []string{"--tools", file}, "demo:tool demo:rounds:12 step on"
	case "mcp":
		script := filepath.Join(dir, "mcp.sh")
		os.WriteFile(script, []byte(blockingMCP), 0o600)
		conf := fmt.Sprintf(`{"mcpServers":{"kill":{"command":"sh","args":[%q,%q,"%d"]}}}`, script, dir, k)
		file := filepath.Join(dir, "mcp.json")
		os.WriteFile(file, []byte(conf), 0o600)
		args, prompt = []string{"--mcp-config", file, "--mcp", "kill"}, "demo:mcp demo:rounds:12 step on"
	}
	args = append([]string{"--demo", "--allow-tools"}, args...)

	var out bytes.Buffer
	cmd := exec.Command(museBin, append(args, "-p", prompt)...)
	cmd.Env, cmd.Dir, cmd.Stdout, cmd.Stderr = h.env, h.dir, &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	pids, ok := b.wait(exited)
	if !ok {
		t.Fatalf("round %d's tool did not run:\n%s", k, out.String())
	}
	cmd.Process.Signal(syscall.SIGKILL)
	<-exited
	end(pids)

	store, err := session.Open(h.sessionsDir())
	if err != nil {
		t.Fatal(err)
	}
	sess, err := store.Latest()
	if err != nil {
		t.Fatalf("no session after the kill: %v", err)
	}
	// k replies that call the tool, and the k-1 results saved.
	checkRounds(t, sess.Entries, k-1, "after the kill")
	if n := len(sess.Entries); n != 2*k || sess.Entries[n-1].Kind != session.KindAssistant {
		t.Fatalf("after the kill: %d entries on the branch, want %d ending with the reply of round %d", n, 2*k, k)
	}
	for _, next := range []string{"go on", "and once more"} {
		h.run(t, append(args, "-c", "-p", next)...)
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
	// What the next request sends, as the engine builds it.
	req := engine.Pending(append(back.Entries, session.Entry{Kind: session.KindUser, Text: "next"}), nil)
	if msg := demo.CheckTurns(req); msg != "" {
		t.Fatalf("the next request would be refused: %s", msg)
	}
	results, stopped := 0, 0
	for _, m := range req {
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

// On the chat screen, kill -9 while the tool of round 3, then round 6,
// of a turn runs: muse -c shows every saved round, the next prompt is
// accepted by the demo, which refuses a tool_use without its tool_result
// as the service does, and it answers the cut call as muse stopped.
func TestKillInToolRoundOnScreen(t *testing.T) {
	t.Parallel()
	for _, k := range []int{3, 6} {
		t.Run(fmt.Sprintf("round %d", k), func(t *testing.T) {
			dir := t.TempDir()
			script := filepath.Join(dir, "tool.sh")
			os.WriteFile(script, []byte(blockingTool), 0o600)
			b := newBlocker(t, dir)
			h := newHome(t, fmt.Sprintf(`default_profile = "e2e"
[profiles.e2e]
[[profiles.e2e.tools]]
name = "step"
description = "a step"
input_schema = { type = "object" }
command = ["sh", %q, %q, "%d"]
`, script, dir, k))
			tm := start(t, h, cols, rows, "--demo")
			tm.waitFor("Ask anything")
			tm.typ("demo:tool demo:rounds:12 step on\r")
			tm.waitFor(approvalKeys)
			tm.typ("a") // always, for the rounds after
			pids, ok := b.wait(nil)
			if !ok {
				t.Fatalf("round %d's tool did not run:\n%s", k, tm.screen())
			}
			tm.waitFor("running tool step")
			tm.signal(syscall.SIGKILL)
			tm.waitExit()
			end(pids)

			tm = start(t, h, cols, rows, "--demo", "-c")
			tm.waitFor("Ask anything")
			tm.typ("go on\r")
			tm.waitFor("The tool returned: muse stopped")
			tm.typ("and once more\r")
			tm.waitForHeading("and once more")
			tm.typ("\x04")
			if code := tm.waitExit(); code != 0 {
				t.Errorf("muse exited with status %d", code)
			}

			store, err := session.Open(h.sessionsDir())
			if err != nil {
				t.Fatal(err)
			}
			sess, err := store.Latest()
			if err != nil {
				t.Fatal(err)
			}
			br := sess.Entries
			checkRounds(t, br, k-1, "after the kill and two more turns")
			for _, e := range br {
				if e.Kind == session.KindError {
					t.Errorf("an error was saved: %+v", e.Error)
				}
			}
		})
	}
}
