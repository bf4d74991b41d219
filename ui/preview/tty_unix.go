//go:build unix

package preview

import (
	"os"
	"time"

	"golang.org/x/term"
)

// queryTTY asks the terminal on tty q and returns its answers, and what
// is still to come, in raw mode, restoring the mode after. A tty that
// cannot be read with a deadline (os.Stdin usually cannot) is reopened as
// /dev/tty.
func queryTTY(tty *os.File, q string, timeout time.Duration) replies {
	f := tty
	if f.SetReadDeadline(time.Time{}) != nil {
		g, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
		if err != nil {
			return replies{done: true}
		}
		defer g.Close()
		if g.SetReadDeadline(time.Time{}) != nil {
			return replies{done: true}
		}
		f = g
	}
	fd, ok := fileFd(f)
	if !ok {
		return replies{done: true}
	}
	state, err := term.MakeRaw(fd)
	if err != nil {
		return replies{done: true}
	}
	defer term.Restore(fd, state)
	return listen(f, f.SetReadDeadline, q, timeout)
}
