//go:build linux

package e2e

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"muse/session"
)

// waitFile waits until the file at path exists (want) or is gone (!want):
// what muse writes beside a session, after the screen showed the change.
func waitFile(t *testing.T, path string, want bool) {
	t.Helper()
	deadline := time.Now().Add(waitDeadline)
	for {
		_, err := os.Stat(path)
		if (err == nil) == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: exists %v after %s, want %v", path, err == nil, waitDeadline, want)
		}
		time.Sleep(pollEvery)
	}
}

// sessionsDir is where muse keeps the journals of home h.
func (h *home) sessionsDir() string { return filepath.Join(h.dir, "data", "muse", "sessions") }

// A prompt queued behind a reply survives a kill -9: muse -c shows it
// again, stopped (a crash is no reason to send it unasked), enter sends
// it, and then the file that kept it is gone.
func TestQueuedPromptSurvivesKill(t *testing.T) {
	h := newHome(t, "")
	tm := start(t, h, cols, rows, "--demo")
	tm.waitFor("Ask anything")
	tm.typ("demo:slow demo:long tell me everything\r")
	tm.waitFor("Part 1")
	tm.typ("and then a poem\r")
	tm.waitFor("queued › and then a poem")
	var queue string
	deadline := time.Now().Add(waitDeadline)
	for queue == "" {
		files, _ := filepath.Glob(filepath.Join(h.sessionsDir(), "*.queue"))
		if len(files) == 1 {
			queue = files[0]
		} else if time.Now().After(deadline) {
			t.Fatalf("no queue file beside the session: %q", files)
		} else {
			time.Sleep(pollEvery)
		}
	}
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
	tm.waitFor("## and then a poem")
	waitFile(t, queue, false)
	tm.typ("\x04")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
}

// blockingTool counts its calls in DIR/n; the K-th writes the pids of a
// sleep and of itself to the FIFO DIR/blocked and waits, so that the test
// knows round K's tool runs; every other call prints "result N".
const blockingTool = `D="$1"; K="$2"; cat >/dev/null
n=$(( $(cat "$D/n" 2>/dev/null || echo 0) + 1 )); echo "$n" > "$D/n"
if [ "$n" -eq "$K" ]; then sleep 120 & echo "$! $$" > "$D/blocked"; wait; fi
echo "result $n"
`

// On the chat screen, kill -9 while the tool of round 3, then round 6,
// of a turn runs: muse -c shows every saved round, the next prompt is
// accepted by the demo, which refuses a tool_use without its tool_result
// as the service does, and it answers the cut call as muse stopped.
func TestKillInToolRoundOnScreen(t *testing.T) {
	for _, k := range []int{3, 6} {
		t.Run(fmt.Sprintf("round %d", k), func(t *testing.T) {
			dir := t.TempDir()
			script := filepath.Join(dir, "tool.sh")
			os.WriteFile(script, []byte(blockingTool), 0o600)
			blocked := filepath.Join(dir, "blocked")
			if err := syscall.Mkfifo(blocked, 0o600); err != nil {
				t.Fatal(err)
			}
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
			pids := make(chan string, 1)
			go func() {
				f, err := os.Open(blocked) // returns once the tool opens it
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
			case <-time.After(waitDeadline):
				if f, err := os.OpenFile(blocked, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
				t.Fatalf("round %d's tool did not run:\n%s", k, tm.screen())
			}
			tm.waitFor("running tool step")
			tm.signal(syscall.SIGKILL)
			tm.waitExit()
			for _, f := range strings.Fields(line) {
				if pid, err := strconv.Atoi(f); err == nil {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}

			tm = start(t, h, cols, rows, "--demo", "-c")
			tm.waitFor("Ask anything")
			tm.typ("go on\r")
			tm.waitFor("The tool returned: muse stopped")
			tm.typ("and once more\r")
			tm.waitFor("## and once more")
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
			if len(br) < 2*k+4 {
				t.Fatalf("%d entries on the branch, want %d", len(br), 2*k+4)
			}
			for i := 1; i < k; i++ {
				if r := br[2*i].ToolResults; br[2*i].Kind != session.KindTool || len(r) != 1 || strings.TrimSpace(r[0].Output) != fmt.Sprintf("result %d", i) {
					t.Errorf("round %d's result: %+v", i, br[2*i])
				}
			}
			for _, e := range br {
				if e.Kind == session.KindError {
					t.Errorf("an error was saved: %+v", e.Error)
				}
			}
		})
	}
}
