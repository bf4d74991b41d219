//go:build unix

package toolrun

import (
	"context"
	"runtime"
	"testing"
	"time"

	"muse/ui/internal/waitfor"
)

// KillAll ends a running tool and its group, as when muse itself is ended.
func TestKillAll(t *testing.T) {
	done := make(chan Result, 1)
	go func() {
		done <- Run(context.Background(), Spec{Argv: []string{"sh", "-c", "sleep 100 & sleep 100"}, Timeout: long})
	}()
	// Run tracks the tool right after it starts, in its own goroutine:
	// this one yields to it until it has (no sleep; the clock is only a
	// watchdog).
	watchdog := time.Now().Add(waitfor.Scaled(waitfor.Limit)) // names a hang; times nothing
	for tracked := false; !tracked; {
		running.Lock()
		tracked = len(running.cmds) > 0
		running.Unlock()
		if time.Now().After(watchdog) {
			t.Fatal("Run never tracked its tool")
		}
		runtime.Gosched()
	}
	KillAll()
	// Killed, the tool ends at once; without KillAll, it would time out.
	if r := <-done; r.Err != nil || r.ExitCode == 0 {
		t.Errorf("Run = %+v after KillAll, want a killed tool (exit -1, no error)", r)
	}
}
