package preview

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: the program's side (a terminal) and the
// terminal emulator's side, which reads what the program writes.
func openPTY(t *testing.T) (tty, emulator *os.File) {
	t.Helper()
	fd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatalf("open /dev/ptmx: %v", err)
	}
	emulator = os.NewFile(uintptr(fd), "/dev/ptmx")
	t.Cleanup(func() { emulator.Close() })
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlock the pty: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("name the pty: %v", err)
	}
	tty, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open the pty: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return tty, emulator
}

// answerOnce plays the terminal: it reads the question up to the device
// attributes request, answers it, and sends what it read on the channel.
func answerOnce(emulator *os.File, answer string) <-chan string {
	asked := make(chan string, 1)
	go func() {
		var got []byte
		buf := make([]byte, 256)
		for !bytes.HasSuffix(got, []byte(ansi.RequestPrimaryDeviceAttributes)) {
			n, err := emulator.Read(buf)
			got = append(got, buf[:n]...)
			if err != nil {
				break
			}
		}
		_, _ = emulator.WriteString(answer)
		asked <- string(got)
	}()
	return asked
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// Detect on a real terminal (a pseudo-terminal whose other side answers as
// kitty would): the answer decides, whatever TERM says.
func TestDetectAsksTheTerminal(t *testing.T) {
	for _, tc := range []struct {
		name   string
		env    map[string]string
		answer string
		want   Terminal
	}{
		{"kitty 0.26", map[string]string{"TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"}, kitty026, Terminal{SyncOutput: true}},
		{"kitty 0.35", map[string]string{"TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"}, kitty035, Terminal{Kitty: true, SyncOutput: true}},
		{"kitty 0.35 with TERM=xterm-256color", map[string]string{"TERM": "xterm-256color"}, kitty035, Terminal{Kitty: true, SyncOutput: true}},
		{"kitty 0.35 inside tmux", map[string]string{"TERM": "tmux-256color", "TMUX": "/tmp/t"}, kitty035, Terminal{SyncOutput: true}},
		{"xterm", map[string]string{"TERM": "xterm-256color"}, xterm, Terminal{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tty, emulator := openPTY(t)
			asked := answerOnce(emulator, tc.answer)
			got := Detect(env(tc.env), tty, tty, never) // the answer ends the wait
			if got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
			q := <-asked
			if want := question(placeholdersPossible(env(tc.env))); q != want {
				t.Errorf("asked %q, want %q", q, want)
			}
		})
	}
}

// Where nothing may be asked, nothing is written, so nothing is waited for.
func TestDetectAsksNothingWhereItMustNot(t *testing.T) {
	file, err := os.CreateTemp(t.TempDir(), "notatty")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	kitty := map[string]string{"TERM": "xterm-kitty"}
	for _, tc := range []struct {
		name    string
		env     map[string]string
		in, out func(tty *os.File) *os.File
		timeout time.Duration
	}{
		{"stdout is a file", kitty, func(tty *os.File) *os.File { return tty }, func(*os.File) *os.File { return file }, time.Second},
		{"stdin is a file", kitty, func(*os.File) *os.File { return file }, func(tty *os.File) *os.File { return tty }, time.Second},
		{"no stdin", kitty, func(*os.File) *os.File { return nil }, func(tty *os.File) *os.File { return tty }, time.Second},
		{"TERM=dumb", map[string]string{"TERM": "dumb"}, func(tty *os.File) *os.File { return tty }, func(tty *os.File) *os.File { return tty }, time.Second},
		{"TERM=linux", map[string]string{"TERM": "linux"}, func(tty *os.File) *os.File { return tty }, func(tty *os.File) *os.File { return tty }, time.Second},
		{"no TERM", map[string]string{}, func(tty *os.File) *os.File { return tty }, func(tty *os.File) *os.File { return tty }, time.Second},
		{"no time", kitty, func(tty *os.File) *os.File { return tty }, func(tty *os.File) *os.File { return tty }, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tty, emulator := openPTY(t)
			if got := Detect(env(tc.env), tc.in(tty), tc.out(tty), tc.timeout); got != (Terminal{}) {
				t.Errorf("got %+v", got)
			}
			// A marker written after Detect is the first thing the
			// terminal reads: Detect wrote nothing before it.
			if _, err := tty.WriteString("marker"); err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 64)
			n, err := emulator.Read(buf)
			if err != nil || !strings.HasPrefix(string(buf[:n]), "marker") {
				t.Errorf("the terminal read %q, %v: want only the marker", buf[:n], err)
			}
		})
	}
}
