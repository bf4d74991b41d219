package filewait

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestUntilWakesOnWrites checks that Until sees each write another
// goroutine makes, up to the one it waits for, however they interleave.
func TestUntilWakesOnWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal")
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		f, err := os.Create(path)
		if err != nil {
			return
		}
		defer f.Close()
		for _, line := range []string{"one\n", "two\n", "three\n"} {
			if _, err := f.WriteString(line); err != nil {
				return
			}
		}
	}()
	Until(t, path, ended, "three lines", func(b []byte) bool { return bytes.Count(b, []byte("\n")) == 3 })
}

// TestUntilEndsWithWriter checks that a wait for a state the writer never
// reached fails as soon as the writer ends, not at the watchdog (which
// would fail it too, with another error).
func TestUntilEndsWithWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal")
	if err := os.WriteFile(path, []byte("one\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ended := make(chan struct{})
	close(ended)
	never := func() bool { return false }
	if err := until(filepath.Dir(path), ended, Limit, never); !errors.Is(err, errEnded) {
		t.Fatalf("until = %v, want %v", err, errEnded)
	}
	// With no writer to end, the watchdog does; a tiny one here.
	if err := until(filepath.Dir(path), nil, time.Millisecond, never); err == nil {
		t.Fatal("until returned no error for a state never reached")
	}
	// A state already there needs no change.
	if err := until(filepath.Dir(path), nil, Limit, func() bool { return string(read(path)) == "one\n" }); err != nil {
		t.Fatal(err)
	}
}
