//go:build unix

package screen

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/term"
)

// openTTY opens the terminal at path for reading keys, as stdin is: in
// blocking mode, outside Go's poller, so that a read in flight is never
// left behind by a deadline that cannot wake it (a reader that needs a
// deadline, such as preview.Detect, opens a terminal of its own, as it
// does for stdin).
func openTTY(path string) (*os.File, error) {
	fd, err := syscall.Open(path, syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	if !term.IsTerminal(fd) {
		syscall.Close(fd)
		return nil, fmt.Errorf("%s is not a terminal", path)
	}
	return os.NewFile(uintptr(fd), path), nil
}
