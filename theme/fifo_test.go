//go:build unix

package theme

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// A theme path that is a named pipe is refused at once, saying what it
// is: opening it for reading used to wait for a writer, with the chat
// screen blank. The test never hangs on old code either: while New runs,
// it opens and closes the pipe's other end without blocking, which
// succeeds only when a reader has it open: a reader waiting on it then
// reads an empty file, which is not the refusal wanted.
func TestThemeFIFORefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pipe.toml")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := New(path, true)
		done <- err
	}()
	var err error
wait:
	for {
		select {
		case err = <-done:
			break wait
		default:
		}
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close() // a reader had it open: if New waits on it, it now reads an empty file
		}
		runtime.Gosched()
	}
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
