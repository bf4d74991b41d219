//go:build !linux

package filewait

import (
	"fmt"
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
