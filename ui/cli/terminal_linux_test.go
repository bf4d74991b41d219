package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/charmbracelet/x/ansi"
)

// openPTY opens a pseudo-terminal and returns its two ends: the master,
// which reads what is written to the terminal, and the terminal itself.
func openPTY(t *testing.T) (master, tty *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	var n uint32
	unlock := int32(0)
	if err := ioctl(master, syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
		t.Fatalf("unlock the pseudo-terminal: %v", err)
	}
	if err := ioctl(master, syscall.TIOCGPTN, unsafe.Pointer(&n)); err != nil {
		t.Fatalf("number the pseudo-terminal: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open the pseudo-terminal's end: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return master, tty
}

func ioctl(f *os.File, req uintptr, arg unsafe.Pointer) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, req, uintptr(arg))
	}); err != nil {
		return err
	}
	if errno != 0 {
		return errno
	}
	return nil
}

// written returns what was written to the terminal tty since it was last
// asked: it writes a mark to tty and reads from master up to it, as a
// terminal shows what was written to it in order, though not at once.
func written(t *testing.T, master, tty *os.File) string {
	t.Helper()
	const mark = "<the end of the command>"
	if _, err := tty.WriteString(mark); err != nil {
		t.Fatalf("write to the terminal: %v", err)
	}
	master.SetReadDeadline(time.Now().Add(time.Minute)) // a broken test fails, not hangs
	var got []byte
	buf := make([]byte, 4096)
	for !bytes.HasSuffix(got, []byte(mark)) {
		n, err := master.Read(buf)
		if err != nil {
			t.Fatalf("read what the terminal shows: %v (so far %q)", err, got)
		}
		got = append(got, buf[:n]...)
	}
	return string(got[:len(got)-len(mark)])
}

// TestOnlyATerminalGetsRenderedOutput: /dev/null is a character device but
// no terminal, so -p prints the plain text there; a terminal gets markdown.
func TestOnlyATerminalGetsRenderedOutput(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if st, err := null.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("%s is not a character device: %v", os.DevNull, err)
	}
	_, tty := openPTY(t)
	for _, tc := range []struct {
		name     string
		stdout   *os.File
		terminal bool
	}{{os.DevNull, null, false}, {"a pseudo-terminal", tty, true}} {
		env := fileEnv(null, tc.stdout, null)
		if env.StdoutTTY != tc.terminal || !env.StdinPiped {
			t.Errorf("%s: StdoutTTY %v, StdinPiped %v; want %v, true", tc.name, env.StdoutTTY, env.StdinPiped, tc.terminal)
		}
		out, err := replyOut(env, &flags{}, &config{theme: "auto"})
		if err != nil {
			t.Fatal(err)
		}
		switch o := out.(type) {
		case *textOut:
			if tc.terminal || !o.clean.Plain {
				t.Errorf("%s: plain text, Plain %v", tc.name, o.clean.Plain)
			}
		case *mdOut:
			if !tc.terminal {
				t.Errorf("%s: rendered markdown", tc.name)
			}
		default:
			t.Errorf("%s: printer %T", tc.name, out)
		}
	}
}

// TestNoTerminalQueryWithoutATerminalOnStdout runs muse's commands in its
// own environment (as main does) with standard input a terminal that never
// answers, and standard output /dev/null or a pipe: muse writes nothing to
// the terminal, so it asks it nothing and waits for no answer. With
// standard output the terminal too, doctor does ask it (kitty graphics),
// which shows that a question would be seen.
func TestNoTerminalQueryWithoutATerminalOnStdout(t *testing.T) {
	master, tty := openPTY(t)
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	home := t.TempDir()
	for k, v := range map[string]string{
		"HOME": home, "XDG_DATA_HOME": filepath.Join(home, "data"), "XDG_CONFIG_HOME": filepath.Join(home, "config"),
		"XDG_STATE_HOME": filepath.Join(home, "state"), "TERM": "xterm-256color", "COLORTERM": "", "NO_COLOR": "",
		"TMUX": "", "STY": "", "ZELLIJ": "", "KITTY_WINDOW_ID": "", "TERM_PROGRAM": "", "KONSOLE_VERSION": "",
		"WEZTERM_EXECUTABLE": "", "COLORFGBG": "", "MUSE_DEBUG": "",
	} {
		t.Setenv(k, v)
	}
	stdin := os.Stdin
	os.Stdin = tty // where the chat screen and doctor ask the terminal
	defer func() { os.Stdin = stdin }()

	run := func(stdout *os.File, args ...string) {
		t.Helper()
		Main(args, fileEnv(tty, stdout, null))
	}
	run(null, "--demo", "-p", "the one to show")
	commands := [][]string{
		{"--demo", "-p", "hello"}, {"--demo", "-p", "hello", "--raw"}, {"--demo", "-p", "demo:long x", "--no-stream"},
		{"doctor"}, {"sessions", "list"}, {"sessions", "show", "the one to show"}, {"sessions", "export", "the one to show"},
		{"sessions", "search", "hello"}, {"config", "show"}, {"config", "path"},
		{"--version"}, {"--help"}, {"completion", "bash"}, {"man"},
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	drained := make(chan struct{})
	go func() { io.Copy(io.Discard, pr); close(drained) }()
	for _, stdout := range []*os.File{null, pw} {
		for _, args := range commands {
			run(stdout, args...)
			if got := written(t, master, tty); got != "" {
				t.Errorf("muse %s, stdout %s: wrote %q to the terminal", strings.Join(args, " "), stdout.Name(), got)
			}
		}
	}
	pw.Close()
	<-drained

	run(tty, "doctor")
	if got := written(t, master, tty); !strings.Contains(got, ansi.RequestPrimaryDeviceAttributes) || !strings.Contains(got, "kitty graphics") {
		t.Errorf("doctor on a terminal: no terminal query seen in %q", got)
	}
}
