//go:build unix

package config

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A config path that is a named pipe or a device is refused at once, as a
// theme file's is: opening a pipe for reading used to wait for a writer.
func TestConfigNotARegularFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "config.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{fifo: "it is a named pipe, not a regular file", "/dev/zero": "it is a device, not a regular file"} {
		_, err := LoadExisting(path)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", path, err)
		}
	}
}
