// Package waitfor lets a test wait for what another process does: a file
// it writes (a muse killed mid-reply, say) reaching a state, or its exit.
// It wakes on the kernel's notices (inotify, a pidfd), never on a timer,
// and a wait on a file gives up early when its writer ends. The watchdog
// only turns a hang into a failure that says what did not happen; it
// scales with the machine's load and no test measures it.
package waitfor

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"
)

// Limit is the watchdog of a wait on a quiet machine: far longer than any
// wait takes when the code works.
const Limit = 30 * time.Second

// TB is the part of testing.TB that the waits use.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}

// File waits until ok holds for the contents of path (nil while it cannot
// be read), checking once at the start and again at each change in path's
// folder. It fails t, saying what it waited for, if ended is closed first
// (the process that writes the file is gone, so nothing will change) or if
// the watchdog (Limit, scaled by Scaled) runs out.
func File(t TB, path string, ended <-chan struct{}, what string, ok func(data []byte) bool) {
	t.Helper()
	Dir(t, filepath.Dir(path), ended, what, func() bool { return ok(read(path)) })
}

// Dir is File for a state of the folder dir, such as "the newest journal
// in it ends with a finished reply": ok is checked at the start and at
// each change of a file in dir.
func Dir(t TB, dir string, ended <-chan struct{}, what string, ok func() bool) {
	t.Helper()
	if err := until(dir, ended, Scaled(Limit), ok); err != nil {
		t.Fatalf("waiting for %s in %s: %v", what, dir, err)
	}
}

// Exit waits until the process pid has ended (a zombie counts: it runs no
// more), which need not be a child of the test's. It fails t, saying what
// it waited for, when the watchdog runs out.
func Exit(t TB, pid int, what string) {
	t.Helper()
	if err := exit(pid, Scaled(Limit)); err != nil {
		t.Fatalf("waiting for %s (pid %d) to end: %v", what, pid, err)
	}
}

// read returns the contents of path, or nil if it cannot be read (not
// written yet).
func read(path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return data
}

// errEnded says the writer ended before the file reached its state.
var errEnded = fmt.Errorf("the process writing it ended first")

// Scaled is d scaled by how busy the machine is: with more runnable
// processes than cores, a process gets a core only part of the time.
func Scaled(d time.Duration) time.Duration {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return d
	}
	var load float64
	if _, err := fmt.Sscan(string(b), &load); err != nil {
		return d
	}
	return time.Duration(float64(d) * max(1, load/float64(runtime.NumCPU())))
}

// Recv returns the next value from ch (the zero value once it is closed),
// which the code under test sends or closes when it works. It fails t,
// saying what it waited for, if nothing comes within the watchdog: a test
// that would otherwise hang until go test's timeout.
func Recv[T any](t TB, ch <-chan T, what string) T {
	t.Helper()
	limit := Scaled(Limit)
	watchdog := time.NewTimer(limit)
	defer watchdog.Stop()
	select {
	case v := <-ch:
		return v
	case <-watchdog.C:
		t.Fatalf("waiting for %s: nothing within %v (a watchdog, scaled by load)", what, limit)
		var zero T
		return zero
	}
}
