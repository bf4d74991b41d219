//go:build unix

package session

import (
	"path/filepath"
	"syscall"
	"testing"
)

// A FIFO named as an image's path (a hand-edited journal) is refused at
// once: the previews of every other image would otherwise wait on it.
func TestDecodeImageDoesNotWaitOnAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo.png")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeImage(path, 0, 0); err == nil {
		t.Error("a FIFO decoded as an image")
	}
}
