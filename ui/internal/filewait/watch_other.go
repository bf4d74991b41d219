//go:build !linux

package filewait

import (
	"fmt"
	"time"
)

// until looks at path every few milliseconds: there is no inotify here,
// and os offers no other notice of a change. Linux, where CI runs, waits
// on the kernel's notices instead.
func until(path string, ended <-chan struct{}, limit time.Duration, ok func([]byte) bool) error {
	end := time.Now().Add(limit)
	for !ok(read(path)) {
		select {
		case <-ended:
			if ok(read(path)) {
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
