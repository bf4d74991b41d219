//go:build linux

package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"muse/session/index"
	"muse/session/index/indextest"
)

// runFor runs muse with args off any terminal, as h.run does, but fails
// the test if it has not ended within waitDeadline: a command that waits
// on the index's lock (SQLite's own wait was a minute) is what it catches.
func runFor(t *testing.T, h *home, args ...string) (stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, museBin, args...)
	cmd.Env, cmd.Dir = h.env, h.dir
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if ctx.Err() != nil {
		t.Fatalf("muse %s did not end within %v: it waited on the index", strings.Join(args, " "), waitDeadline)
	}
	if err != nil {
		t.Fatalf("muse %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return string(out), errb.String()
}

// While another program holds the index's write lock (as an sqlite3 shell
// inside BEGIN EXCLUSIVE does, or another muse's long rebuild), nothing
// the user asks for waits on it: sessions list, show and search, -p and
// -c -p answer; the chat screen draws at once, with -c too, saves its
// turn to the journal, shows the picker, and quits. Search says the index
// is busy and answers from what it held. Once the lock is gone, the index
// catches up with every turn.
func TestIndexLockedByAnother(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	h.run(t, "--demo", "-p", "capybara facts")
	h.run(t, "sessions", "search", "capybara") // the index is built
	path := filepath.Join(h.dir, "cache", "muse", index.FileName)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the index is not in XDG_CACHE_HOME: %v", err)
	}
	release := indextest.HoldLock(t, path)

	list, _ := runFor(t, h, "sessions", "list")
	if !strings.Contains(list, "capybara facts") {
		t.Fatalf("sessions list under the lock:\n%s", list)
	}
	id := strings.Fields(strings.Split(list, "\n")[1])[0]
	if out, _ := runFor(t, h, "sessions", "show", id); !strings.Contains(out, "capybara facts") {
		t.Fatalf("sessions show under the lock:\n%s", out)
	}
	runFor(t, h, "--demo", "-p", "lemur facts")
	// The index, which has yet to take the new session, is searched as it was.
	out, errs := runFor(t, h, "sessions", "search", "capybara")
	if !strings.Contains(out, "capybara") || !strings.Contains(errs, "the index is busy") {
		t.Fatalf("sessions search under the lock: %q, %q; want the hit and a note", out, errs)
	}
	if out, _ := runFor(t, h, "--demo", "-c", "-p", "more about lemurs"); !strings.Contains(out, "more about lemurs") {
		t.Fatalf("-c -p under the lock: %q", out)
	}
	if list, _ := runFor(t, h, "sessions", "list"); !strings.Contains(list, "lemur facts") {
		t.Fatalf("sessions list under the lock misses the session -p saved:\n%s", list)
	}

	// A new chat screen: it draws, saves its turn, shows the picker, quits.
	tm := start(t, h, 100, 30, "--demo")
	tm.waitFor("Ask anything")
	tm.typ("wombat facts\r")
	tm.waitForHeading("wombat facts")
	tm.typ("\x13") // ctrl+s: the picker
	tm.waitFor("the index is busy")
	tm.waitFor("lemur facts")
	tm.typ("\x1b")
	tm.waitFor("Ask anything")
	tm.typ("\x04") // ctrl+d on an empty input quits
	if code := tm.waitExit(); code != 0 {
		t.Fatalf("the chat screen under the lock exited with status %d", code)
	}
	// muse -c draws the session it continues at once, and quits.
	tm = start(t, h, 100, 30, "--demo", "-c")
	tm.waitForHeading("wombat facts")
	tm.typ("\x04")
	if code := tm.waitExit(); code != 0 {
		t.Fatalf("muse -c under the lock exited with status %d", code)
	}

	release()
	out, errs = runFor(t, h, "sessions", "search", "wombat OR lemurs")
	if strings.Contains(errs, "busy") || !strings.Contains(out, "wombat facts") || !strings.Contains(out, "more about lemurs") {
		t.Fatalf("after the lock, search: %q, %q; want the turns saved under it", out, errs)
	}
}
