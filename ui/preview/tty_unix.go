//go:build unix

package preview

import (
	"os"
	"time"

	"golang.org/x/term"
)

// queryTTY asks the terminal on tty q and returns its answers, in raw mode,
// restoring the mode after. A tty that cannot be read with a deadline
// (os.Stdin usually cannot) is reopened as /dev/tty.
func queryTTY(tty *os.File, q string, timeout time.Duration) answers {
	f := tty
	if f.SetReadDeadline(time.Time{}) != nil {
		g, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
		if err != nil {
			return answers{}
		}
		defer g.Close()
		if g.SetReadDeadline(time.Time{}) != nil {
			return answers{}
		}
		f = g
	}
	fd, ok := fileFd(f)
	if !ok {
		return answers{}
	}
	state, err := term.MakeRaw(fd)
	if err != nil {
		return answers{}
	}
	defer term.Restore(fd, state)
	return ask(f, f.SetReadDeadline, q, timeout)
}
