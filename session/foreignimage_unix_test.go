//go:build unix

package session

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A named pipe in the images folder, which a journal names as an image, is
// refused, not opened: a viewer or a preview would wait on it for ever.
func TestOwnImageRefusesANamedPipe(t *testing.T) {
	s, _ := newTestStore(t)
	dir := s.ImageDir("20250301-090000-abcdef")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	pipe := filepath.Join(dir, "pipe.png")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := s.OwnImage(pipe); err == nil {
		t.Errorf("a named pipe gave %q", got)
	}
}
