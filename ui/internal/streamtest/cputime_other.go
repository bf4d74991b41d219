//go:build !unix

package streamtest

import "time"

var processStart = time.Now()

// CPUTime falls back to wall time where the process's CPU time is not at
// hand.
func CPUTime() time.Duration { return time.Since(processStart) }
