//go:build unix

package attach

import (
	"path/filepath"
	"syscall"
	"testing"
)

// A named pipe is refused without being opened for reading, which would
// wait for a writer: this test would hang.
func TestOpenRefusesFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(path)
	refusal(t, err, "pipe", "it is a named pipe, not a file", "standard input")
}

// A device is refused too.
func TestOpenRefusesDevice(t *testing.T) {
	_, err := Open("/dev/null")
	refusal(t, err, "null", "it is a device, not a file")
}
