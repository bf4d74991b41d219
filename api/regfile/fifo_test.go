//go:build unix

package regfile

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
)

// A named pipe with no writer and a device that never ends are refused at
// once, without a byte read: the test would hang otherwise.
func TestReadRefusesPipesAndDevices(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{fifo: "a named pipe", "/dev/zero": "a device"} {
		_, err := Read(path, 1<<20)
		var notRegular *NotRegularError
		if !errors.As(err, &notRegular) || notRegular.What() != want {
			t.Errorf("%s: %v", path, err)
		}
	}
}
