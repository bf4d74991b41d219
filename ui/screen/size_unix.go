//go:build unix

package screen

import (
	"os"
	"os/signal"
	"syscall"
)

// watchJob handles job control, which raw mode leaves to signals sent from
// outside (kill -TSTP, kill -STOP and kill -CONT; ctrl+z is a key there):
// on SIGTSTP suspend gives the terminal back and the process stops; on
// SIGCONT, whether it stopped that way or by SIGSTOP, resume takes the
// terminal again. The returned stop ends the watch.
func watchJob(suspend, resume func()) (stop func()) {
	ch := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(ch, syscall.SIGTSTP, syscall.SIGCONT)
	go func() {
		for {
			select {
			case sig := <-ch:
				if sig == syscall.SIGTSTP {
					suspend()
					_ = syscall.Kill(os.Getpid(), syscall.SIGSTOP)
					continue // SIGCONT follows
				}
				resume()
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
