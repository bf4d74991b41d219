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
// terminal again. SIGQUIT gives the terminal back before Go's own dump and
// exit. The returned stop ends the watch.
func watchJob(suspend, resume func()) (stop func()) {
	return watch(func(sig os.Signal) bool {
		switch sig {
		case syscall.SIGQUIT:
			// Go's own SIGQUIT (a dump of every goroutine, then
			// exit), on the shell's screen and in cooked mode.
			suspend()
			signal.Reset(syscall.SIGQUIT)
			_ = syscall.Kill(os.Getpid(), syscall.SIGQUIT)
			return false
		case syscall.SIGTSTP:
			suspend()
			_ = syscall.Kill(os.Getpid(), syscall.SIGSTOP) // SIGCONT follows
		default:
			resume()
		}
		return true
	}, syscall.SIGTSTP, syscall.SIGCONT, syscall.SIGQUIT)
}

// watchSize calls f whenever the window changes size (SIGWINCH), until
// the returned stop is called.
func watchSize(f func()) (stop func()) {
	return watch(func(os.Signal) bool { f(); return true }, syscall.SIGWINCH)
}

// watch calls handle with each of the signals sigs that arrives, until the
// returned stop is called or handle returns false.
func watch(handle func(os.Signal) bool, sigs ...os.Signal) (stop func()) {
	ch := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(ch, sigs...)
	go func() {
		for {
			select {
			case sig := <-ch:
				if !handle(sig) {
					return
				}
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

// stopSelf sends SIGTSTP to muse itself, as a shell's ctrl+z would in
// cooked mode: watchJob gives the terminal back and stops the process.
func stopSelf() error { return syscall.Kill(os.Getpid(), syscall.SIGTSTP) }
