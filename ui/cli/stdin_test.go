package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// endless is standard input that never ends, counting the bytes read.
type endless struct{ read int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 0
	}
	e.read += int64(len(p))
	return len(p), nil
}

// Piped into the chat screen, standard input is not read before the screen
// shows: a pipe that never ends (yes | muse) left the terminal blank while
// muse read it. Here there is no terminal to open, so muse stops there,
// having read nothing (ui/piped reads it once the screen runs).
func TestChatDoesNotReadStdinBeforeTheScreen(t *testing.T) {
	in := &endless{}
	var out, errb bytes.Buffer
	env := Env{Stdin: in, Stdout: &out, Stderr: &errb, StdinPiped: true, StdoutTTY: true,
		Getenv: func(k string) string { return map[string]string{"XDG_DATA_HOME": t.TempDir()}[k] }}
	Main([]string{"--demo"}, env)
	if in.read != 0 {
		t.Errorf("read %d bytes of standard input before the screen showed", in.read)
	}
}

// -p reads standard input to its end, but no more than 16 MiB: past that
// it stops reading and exits 2, saying what the limit is and what to do.
func TestPrintStdinLimit(t *testing.T) {
	in := &endless{}
	var out, errb bytes.Buffer
	env := Env{Stdin: in, Stdout: &out, Stderr: &errb, StdinPiped: true,
		Getenv: func(k string) string { return map[string]string{"XDG_DATA_HOME": t.TempDir()}[k] }}
	code := Main([]string{"--demo", "-p", "sum up"}, env)
	if code != ExitUsage || !strings.Contains(errb.String(), "standard input is larger than 16 MiB, muse's limit: pipe less of it") {
		t.Errorf("exit %d, stderr %q; want 2 and the limit", code, errb.String())
	}
	if in.read > maxStdin+64<<10 {
		t.Errorf("read %d bytes of standard input, limit %d", in.read, maxStdin)
	}
}

// readPiped keeps the bytes as they are; readStdin, for -p, trims the
// final line breaks.
func TestReadPiped(t *testing.T) {
	data, err := readPiped(strings.NewReader("a\x00b\n\n"), 10)
	if err != nil || string(data) != "a\x00b\n\n" {
		t.Errorf("readPiped = %q, %v", data, err)
	}
	if s, err := readStdin(strings.NewReader("text\n\n"), 10); err != nil || s != "text" {
		t.Errorf("readStdin = %q, %v", s, err)
	}
	if _, err := readPiped(io.LimitReader(&endless{}, 11), 10); err == nil {
		t.Error("11 bytes read with a limit of 10")
	}
}
