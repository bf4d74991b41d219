//go:build unix

package theme

import (
	"errors"
	"strings"
	"testing"

	"muse/api/regfile/regfiletest"
)

// A theme path that is a named pipe is refused at once, saying what it
// is: opening it for reading used to wait for a writer, with the chat
// screen blank. The test never hangs on old code either: while New runs,
// it opens and closes the pipe's other end without blocking, which
// succeeds only when a reader has it open: a reader waiting on it then
// reads an empty file, which is not the refusal wanted (regfiletest).
func TestThemeFIFORefused(t *testing.T) {
	path := regfiletest.FIFO(t, "pipe.toml")
	err := regfiletest.ReadOf(path, func() error { _, err := New(path, true); return err })
	var te *Error
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "it is a named pipe, not a file") {
		t.Errorf("error %v", err)
	}
}

// A device is refused without being read: /dev/zero never ends.
func TestThemeDeviceRefused(t *testing.T) {
	_, err := New("/dev/zero", true)
	var te *Error
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "it is a device, not a file") {
		t.Errorf("error %v", err)
	}
}
