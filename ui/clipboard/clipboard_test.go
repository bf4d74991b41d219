package clipboard

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	system "github.com/atotto/clipboard"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// fakeSystem replaces the system clipboard for a test.
func fakeSystem(t *testing.T, write func(string) error) {
	t.Helper()
	old := systemWrite
	systemWrite = write
	t.Cleanup(func() { systemWrite = old })
}

func TestCopyWritesOSC52AndTheSystemClipboard(t *testing.T) {
	// The system clipboard is faked: a machine with no clipboard tool (CI)
	// runs this test too.
	old := system.Unsupported
	system.Unsupported = false
	t.Cleanup(func() { system.Unsupported = old })
	var mu sync.Mutex
	var got string
	fakeSystem(t, func(s string) error { mu.Lock(); got = s; mu.Unlock(); return nil })
	var term bytes.Buffer
	if err := Copy(&term, "hello", env(map[string]string{"DISPLAY": ":0"})); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(term.String(), "\x1b]52;c;") {
		t.Errorf("no OSC 52: %q", term.String())
	}
	mu.Lock()
	defer mu.Unlock()
	if got != "hello" {
		t.Errorf("system clipboard got %q", got)
	}
}

// Without a display the system clipboard is not tried: over SSH, OSC 52
// does the work.
func TestCopyWithoutDisplayLeavesTheSystemClipboard(t *testing.T) {
	called := false
	fakeSystem(t, func(string) error { called = true; return nil })
	var term bytes.Buffer
	if err := Copy(&term, "hello", env(nil)); err != nil {
		t.Fatal(err)
	}
	if called && !reachable(env(nil)) {
		t.Error("the system clipboard was tried without a display")
	}
	if term.Len() == 0 {
		t.Error("no OSC 52 written")
	}
}

// A clipboard tool that fails or never answers neither fails the copy nor
// holds it up.
func TestCopySurvivesABrokenSystemClipboard(t *testing.T) {
	old := systemTimeout
	systemTimeout = 10 * time.Millisecond
	t.Cleanup(func() { systemTimeout = old })
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	for name, write := range map[string]func(string) error{
		"fails": func(string) error { return errors.New("no clipboard utilities available") },
		"hangs": func(string) error { <-block; return nil },
	} {
		t.Run(name, func(t *testing.T) {
			fakeSystem(t, write)
			if err := copySystem("x"); err == nil {
				t.Error("no error from a clipboard that " + name)
			}
			var term bytes.Buffer
			if err := Copy(&term, "hello", env(map[string]string{"DISPLAY": ":0"})); err != nil {
				t.Errorf("the copy failed: %v", err)
			}
			if !strings.HasPrefix(term.String(), "\x1b]52;c;") {
				t.Errorf("no OSC 52: %q", term.String())
			}
		})
	}
}
