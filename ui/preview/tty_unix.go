//go:build unix

package preview

import (
	"os"
	"time"

	"golang.org/x/term"
)

// queryTTY asks the terminal on tty whether it has the kitty graphics
// protocol, in raw mode, restoring the mode after. A tty that cannot be read
// with a deadline (os.Stdin usually cannot) is reopened as /dev/tty.
func queryTTY(tty *os.File, timeout time.Duration) bool {
	f := tty
	if f.SetReadDeadline(time.Time{}) != nil {
		g, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
		if err != nil {
			return false
		}
		defer g.Close()
		if g.SetReadDeadline(time.Time{}) != nil {
			return false
		}
		f = g
	}
	fd, ok := fileFd(f)
	if !ok {
		return false
	}
	state, err := term.MakeRaw(fd)
	if err != nil {
		return false
	}
	defer term.Restore(fd, state)
	return queryKitty(f, f.SetReadDeadline, timeout)
}
