//go:build unix

package screen

import (
	"os"
	"os/signal"
	"syscall"
)

// watchSize calls f whenever the window changes size (SIGWINCH), until
// the returned stop is called.
func watchSize(f func()) (stop func()) {
	ch := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(ch, syscall.SIGWINCH)
	go func() {
		for {
			select {
			case <-ch:
				f()
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

// supported says the screen can draw here.
const supported = true
