//go:build unix

package config

import (
	"errors"
	"strings"
	"testing"

	"muse/api/regfile/regfiletest"
)

// A config path that is a named pipe is refused at once, as a theme
// file's is: opening it for reading used to wait for a writer. While
// LoadExisting runs, the test opens and closes the pipe's other end
// without blocking, which succeeds only when a reader has it open: a
// reader waiting on it then reads an empty file, not the refusal wanted,
// so old code fails instead of hanging.
func TestConfigNamedPipeRefused(t *testing.T) {
	fifo := regfiletest.FIFO(t, "config.toml")
	err := regfiletest.ReadOf(fifo, func() error { _, err := LoadExisting(fifo); return err })
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "it is a named pipe, not a regular file") {
		t.Errorf("error %v", err)
	}
}

// A device is refused without being read: /dev/zero never ends.
func TestConfigDeviceRefused(t *testing.T) {
	_, err := LoadExisting("/dev/zero")
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "it is a device, not a regular file") {
		t.Errorf("error %v", err)
	}
}
