package screen

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/term"
)

// ErrNoTerminalInput says there is no terminal to read keys from: stdin is
// not one, and the process has no controlling terminal.
var ErrNoTerminalInput = errors.New("no terminal to read keys from")

// ttyPath is the controlling terminal of the process; tests replace it.
var ttyPath = "/dev/tty"

// Input returns the file the chat screen reads keys from, to give Open
// and whatever asks the terminal before it: stdin when it is a terminal;
// when it is not (cat notes.md | muse: stdin is a pipe, read before),
// the controlling terminal, opened for it. Close the file when the screen
// is closed if opened is true. Where there is no terminal to read either,
// the error wraps ErrNoTerminalInput. Off unix, where Open cannot draw,
// stdin is returned as it is: Bubble Tea opens the console itself.
func Input(stdin *os.File) (in *os.File, opened bool, err error) {
	if !supported || term.IsTerminal(int(stdin.Fd())) {
		return stdin, false, nil
	}
	tty, err := openTTY(ttyPath)
	if err != nil {
		return nil, false, fmt.Errorf("%w: standard input is not a terminal, and %w", ErrNoTerminalInput, err)
	}
	return tty, true, nil
}
