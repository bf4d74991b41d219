//go:build unix

package toolrun

import (
	"context"
	"testing"
	"time"
)

// KillAll ends a running tool and its group, as when muse itself is ended.
func TestKillAll(t *testing.T) {
	done := make(chan Result, 1)
	go func() {
		done <- Run(context.Background(), Spec{Argv: []string{"sh", "-c", "sleep 100 & sleep 100"}, Timeout: time.Hour})
	}()
	for {
		running.Lock()
		n := len(running.cmds)
		running.Unlock()
		if n > 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	KillAll()
	r := <-done // without KillAll this waits an hour
	if r.ExitCode == 0 {
		t.Errorf("the tool ended normally after KillAll: %+v", r)
	}
}
