//go:build linux

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// pipeInto is a shell command line that pipes the file notes.md into muse
// run with args, as a person types cat notes.md | muse.
func pipeInto(args string) *exec.Cmd {
	return exec.Command("sh", "-c", "cat notes.md | '"+museBin+"' "+args)
}

// writeNotes writes notes.md in h's folder.
func writeNotes(t *testing.T, h *home) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(h.dir, "notes.md"), []byte("# Notes\nfirst line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// cat notes.md | muse: standard input is a pipe, and the chat screen
// comes up all the same, taking its keys from the terminal.
func TestPipedStdinOpensTheChat(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	writeNotes(t, h)
	tm := startCmd(t, h, 80, 12, pipeInto("--demo"), true)
	tm.waitFor("Ask anything")
	tm.typ("hello")
	tm.waitUntil("the input box with hello", waitDeadline, func(s string) bool {
		return strings.HasPrefix(inputLine(s), "› hello")
	})
	tm.typ("\x03\x04") // clear the input (ctrl+c), then quit (ctrl+d)
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
	tm.checkRestored()
}

// With no terminal to read keys from (no controlling terminal), muse says
// so and exits 2, without drawing.
func TestPipedStdinWithoutATerminal(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	writeNotes(t, h)
	tm := startCmd(t, h, 100, 12, pipeInto("--demo"), false)
	if code := tm.waitExit(); code != 2 {
		t.Errorf("muse exited with status %d, want 2", code)
	}
	tm.waitFor("no terminal to read keys from")
	tm.mu.Lock()
	drawn := tm.emu.IsAltScreen() || strings.Contains(tm.raw.String(), "Ask anything")
	tm.mu.Unlock()
	if drawn {
		t.Error("the chat screen was drawn")
	}
}

// yes | muse: a pipe that never ends. The chat screen shows at once (it
// stayed blank while muse read the pipe to its end), says when the input
// passes the limit, and takes keys as ever.
func TestEndlessStdinShowsTheChat(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	tm := startCmd(t, h, 100, 12, exec.Command("sh", "-c", "yes | '"+museBin+"' --demo"), true)
	tm.waitFor("Ask anything")
	tm.waitFor("standard input is larger than 16 MiB")
	tm.typ("hello")
	tm.waitUntil("the input box with hello", waitDeadline, func(s string) bool {
		return strings.HasPrefix(inputLine(s), "› hello")
	})
	tm.typ("\x03\x04")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
	tm.checkRestored()
}

// A pipe that stays open (a command that never closes its end): the chat
// shows at once and counts what was read, enter waits for the pipe, and
// esc stops the read and attaches what was read, keeping the typed input;
// the session then goes on.
func TestHeldOpenStdinStoppedWithEsc(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	w := heldOpenPipe(t, h)
	tm := startCmd(t, h, 100, 14, exec.Command("sh", "-c", "exec '"+museBin+"' --demo < pipe"), true)
	tm.waitFor("reading standard input")
	if _, err := w.WriteString("first part of the log\n"); err != nil {
		t.Fatal(err)
	}
	tm.waitFor("22 B so far")
	tm.typ("what does it say?\r")
	tm.waitFor("still being read")
	tm.typ("\x1b")
	tm.waitFor("[1] stdin")
	tm.waitFor("standard input stopped at 22 B")
	tm.typ("\r")
	tm.waitFor("I see stdin")
	tm.typ("\x03\x04")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
	tm.checkRestored()
}

// Quitting while the pipe is still read, and resizing meanwhile: muse
// redraws, then exits 0 with the terminal given back, not waiting on the
// pipe.
func TestQuitWhileStdinIsRead(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	heldOpenPipe(t, h)
	tm := startCmd(t, h, 100, 14, exec.Command("sh", "-c", "exec '"+museBin+"' --demo < pipe"), true)
	tm.waitFor("reading standard input")
	tm.resize(80, 12)
	tm.waitFor("reading standard input")
	tm.typ("\x03")
	tm.waitFor("again to quit")
	tm.typ("\x03")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
	tm.checkRestored()
}

// heldOpenPipe makes the named pipe "pipe" in h's folder and holds it
// open for writing (read and write, so the open does not wait) for as
// long as the test runs: a command that never closes its end.
func heldOpenPipe(t *testing.T, h *home) *os.File {
	t.Helper()
	fifo := filepath.Join(h.dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}
