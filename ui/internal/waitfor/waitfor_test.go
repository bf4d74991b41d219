package waitfor

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestFileWakesOnWrites checks that File sees each write another
// goroutine makes, up to the one it waits for, however they interleave.
func TestFileWakesOnWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal")
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		f, err := os.Create(path)
		if err != nil {
			return
		}
		defer f.Close()
		for _, line := range []string{"one\n", "two\n", "three\n"} {
			if _, err := f.WriteString(line); err != nil {
				return
			}
		}
	}()
	File(t, path, ended, "three lines", func(b []byte) bool { return bytes.Count(b, []byte("\n")) == 3 })
}

// TestFileEndsWithWriter checks that a wait for a state the writer never
// reached fails as soon as the writer ends, not at the watchdog (which
// would fail it too, with another error).
func TestFileEndsWithWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal")
	if err := os.WriteFile(path, []byte("one\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ended := make(chan struct{})
	close(ended)
	never := func() bool { return false }
	if err := until(filepath.Dir(path), ended, Limit, never); !errors.Is(err, errEnded) {
		t.Fatalf("until = %v, want %v", err, errEnded)
	}
	// With no writer to end, the watchdog does; a tiny one here.
	if err := until(filepath.Dir(path), nil, time.Millisecond, never); err == nil {
		t.Fatal("until returned no error for a state never reached")
	}
	// A state already there needs no change.
	if err := until(filepath.Dir(path), nil, Limit, func() bool { return string(read(path)) == "one\n" }); err != nil {
		t.Fatal(err)
	}
}

// TestExit checks that Exit returns once a process ends, not yet reaped,
// and that the watchdog ends a wait on one that runs on.
func TestExit(t *testing.T) {
	cmd := exec.Command("sleep", "100")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	if err := exit(cmd.Process.Pid, time.Millisecond); err == nil {
		t.Fatal("exit returned for a process that runs")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	Exit(t, cmd.Process.Pid, "the killed sleep")
}

// TestRecv checks that Recv returns what comes, and what a closed channel
// gives.
func TestRecv(t *testing.T) {
	ch := make(chan int, 1)
	ch <- 7
	if got := Recv(t, ch, "a seven"); got != 7 {
		t.Fatalf("Recv = %d, want 7", got)
	}
	close(ch)
	if got := Recv(t, ch, "the close"); got != 0 {
		t.Fatalf("Recv on a closed channel = %d, want 0", got)
	}
}
