//go:build unix

// Package regfiletest helps test that a reader of named files refuses a
// named pipe: it runs the read and keeps opening the pipe's other end, so
// that a reader that waits on the pipe gets an empty file (and fails its
// test) instead of hanging it.
package regfiletest

import (
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

// FIFO makes a named pipe called name in a new folder and returns its path.
func FIFO(t testing.TB, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// ReadOf runs read, which opens the named pipe at path, and returns its
// error. While read runs, the pipe's other end is opened and closed
// without blocking, which succeeds only while a reader has it open: a
// read that waits on the pipe then reads an empty file and returns, so a
// reader that does not refuse pipes fails instead of hanging.
func ReadOf(path string, read func() error) error {
	done := make(chan error, 1)
	go func() { done <- read() }()
	for {
		select {
		case err := <-done:
			return err
		default:
		}
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		runtime.Gosched()
	}
}
