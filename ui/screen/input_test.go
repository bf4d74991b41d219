//go:build unix

package screen

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// useTTY makes path the controlling terminal Input opens, for a test.
func useTTY(t *testing.T, path string) {
	t.Helper()
	old := ttyPath
	ttyPath = path
	t.Cleanup(func() { ttyPath = old })
}

// Keys come from stdin when it is a terminal, and from the controlling
// terminal when stdin is a pipe.
func TestInputIsTheTerminal(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	useTTY(t, tty.Name())

	in, opened, err := Input(tty)
	if err != nil || in != tty || opened {
		t.Errorf("stdin a terminal: Input = %v, %v, %v; want stdin itself", in, opened, err)
	}

	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	in, opened, err = Input(pr)
	if err != nil || !opened || in.Name() != tty.Name() {
		t.Fatalf("stdin a pipe: Input = %v, %v, %v; want %s opened", in, opened, err, tty.Name())
	}
	defer in.Close()
	// Blocking, as stdin is: no deadline can be set, so none is trusted to
	// wake a read (preview.Detect then opens a terminal of its own), and
	// no read of a query's answer is left behind to take the first keys.
	if in.SetReadDeadline(time.Now()) == nil {
		t.Error("the terminal opened takes a read deadline")
	}
	// The keys typed reach the file opened.
	if _, err := ptmx.WriteString("k\n"); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	if n, err := in.Read(buf); err != nil || !strings.HasPrefix(string(buf[:n]), "k") {
		t.Errorf("read %q, %v; want the key typed", buf[:n], err)
	}
}

// No terminal to read keys from: a clear error.
func TestInputWithoutATerminal(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	plain := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(plain, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(t.TempDir(), "missing"), plain} {
		useTTY(t, path)
		in, _, err := Input(pr)
		if !errors.Is(err, ErrNoTerminalInput) || in != nil || !strings.Contains(err.Error(), "standard input is not a terminal") {
			t.Errorf("%s: Input = %v, %v; want ErrNoTerminalInput", path, in, err)
		}
	}
}
