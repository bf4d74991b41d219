//go:build !linux

package waitfor

import (
	"fmt"
	"os"
	"syscall"
	"time"
)

// until checks ok every few milliseconds: there is no inotify here,
// and os offers no other notice of a change. Linux, where CI runs, waits
// on the kernel's notices instead.
func until(dir string, ended <-chan struct{}, limit time.Duration, ok func() bool) error {
	end := time.Now().Add(limit)
	for !ok() {
		select {
		case <-ended:
			if ok() {
				return nil
			}
			return errEnded
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(end) {
			return fmt.Errorf("not within %v (a watchdog, scaled by load)", limit)
		}
	}
	return nil
}

// exit checks every few milliseconds whether pid still runs: there is no
// pidfd here. Linux, where CI runs, waits on a pidfd instead.
func exit(pid int, limit time.Duration) error {
	end := time.Now().Add(limit)
	for {
		p, err := os.FindProcess(pid)
		if err != nil || p.Signal(syscall.Signal(0)) != nil {
			return nil
		}
		if time.Now().After(end) {
			return fmt.Errorf("still runs after %v (a watchdog, scaled by load)", limit)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
