// Package filewait lets a test wait for a file that another process writes
// (a muse killed mid-reply, say) to reach a state. It wakes on the kernel's
// notice that the file's folder changed, never on a timer, and gives up
// early when the writer ends. Its watchdog only turns a hang into a
// failure that says what did not happen; it scales with the machine's load
// and no test measures it.
package filewait

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

// TB is the part of testing.TB that Until uses.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}

// Until waits until ok holds for the contents of path (nil while it
// cannot be read), checking once at the start and again at each change in
// path's folder. It fails t, saying what it waited for, if ended is closed
// first (the process that writes the file is gone, so nothing will change)
// or if the watchdog (Limit, scaled by Scaled) runs out.
func Until(t TB, path string, ended <-chan struct{}, what string, ok func(data []byte) bool) {
	t.Helper()
	InDir(t, filepath.Dir(path), ended, what, func() bool { return ok(read(path)) })
}

// InDir is Until for a state of the folder dir, such as "the newest
// journal in it ends with a finished reply": ok is checked at the start
// and at each change of a file in dir.
func InDir(t TB, dir string, ended <-chan struct{}, what string, ok func() bool) {
	t.Helper()
	if err := until(dir, ended, Scaled(Limit), ok); err != nil {
		t.Fatalf("waiting for %s in %s: %v", what, dir, err)
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
