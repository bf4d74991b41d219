//go:build linux

package e2e

import (
	"bytes"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
)

// slowLink carries the terminal's answers to muse late, as a link with a
// long round trip does (ssh to the other side of the world, a loaded
// machine): each answer reaches muse delay after the terminal gave it, in
// order. x/vt gives no name and version (XTVERSION): the link adds
// tmux 3.3a's, where tmux gives it, before the mode 2026 answer. It counts
// the device attributes answers it has delivered.
type slowLink struct {
	delay time.Duration
	to    io.Writer
	named bool // tmux's name and version was added

	mu        sync.Mutex
	delivered []byte
	da1       int
	changed   chan struct{} // closed and replaced at each delivery
}

// tmuxVersion is tmux 3.3a's answer to XTVERSION.
const tmuxVersion = "\x1bP>|tmux 3.3a\x1b\\"

// da1Answer is the shape of a primary device attributes answer.
var da1Answer = regexp.MustCompile(`\x1b\[\?[0-9;]*c`)

// carry delivers what from gives, each piece delay after it came, in
// order, until from ends and all is delivered.
func (l *slowLink) carry(from io.Reader) {
	prev := make(chan struct{}) // closed once the piece before is delivered
	close(prev)
	buf := make([]byte, 4096)
	for {
		n, err := from.Read(buf)
		if n > 0 {
			b := append([]byte(nil), buf[:n]...)
			if i := bytes.Index(b, []byte("\x1b[?2026;")); i >= 0 && !l.named {
				b = append(b[:i:i], append([]byte(tmuxVersion), b[i:]...)...)
				l.named = true
			}
			before, delivered := prev, make(chan struct{})
			// The link's latency: the piece is in flight until then.
			time.AfterFunc(l.delay, func() {
				<-before
				l.deliver(b)
				close(delivered)
			})
			prev = delivered
		}
		if err != nil {
			<-prev
			return
		}
	}
}

// deliver writes b to muse and counts the device attributes answers
// delivered.
func (l *slowLink) deliver(b []byte) {
	_, _ = l.to.Write(b)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.delivered = append(l.delivered, b...)
	l.da1 = len(da1Answer.FindAll(l.delivered, -1))
	close(l.changed)
	l.changed = make(chan struct{})
}

// waitDA1 waits until n device attributes answers have been delivered:
// every answer before them has been too.
func (l *slowLink) waitDA1(t *testing.T, n int) {
	t.Helper()
	end := time.After(waitDeadline)
	for {
		l.mu.Lock()
		got, changed := l.da1, l.changed
		l.mu.Unlock()
		if got >= n {
			return
		}
		select {
		case <-changed:
		case <-end:
			t.Fatalf("%d device attributes answers delivered in %v, want %d", got, waitDeadline, n)
		}
	}
}

// startSlow runs muse with args in a terminal that reports mode 2027 (as
// graphemeTerm) and whose answers reach muse delay late.
func startSlow(t *testing.T, h *home, cols, rows int, delay time.Duration, args ...string) (*term, *slowLink) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		t.Fatalf("size the pseudo-terminal: %v", err)
	}
	cmd := exec.Command(museBin, args...)
	cmd.Env, cmd.Dir = h.env, h.dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	tm := &term{
		t: t, name: "muse over a slow link", cmd: cmd, ptmx: ptmx, tty: tty,
		emu:      vt.NewEmulator(cols, rows),
		modes:    map[ansi.Mode]bool{},
		readDone: make(chan struct{}),
		answered: make(chan struct{}),
		exited:   make(chan struct{}),
	}
	_, _ = tm.emu.Write(syncEnd) // mode 2026 known, reported reset
	graphemeTerm.prime(tm)       // mode 2027 known, reported reset
	tm.emu.SetCallbacks(vt.Callbacks{
		EnableMode:  func(m ansi.Mode) { tm.modes[m] = true },
		DisableMode: func(m ansi.Mode) { tm.modes[m] = false },
	})
	link := &slowLink{delay: delay, to: ptmx, changed: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start muse: %v", err)
	}
	go tm.read()
	go func() {
		defer close(tm.answered)
		link.carry(tm.emu)
	}()
	go func() {
		tm.waitErr = cmd.Wait()
		close(tm.exited)
	}()
	t.Cleanup(tm.close)
	return tm, link
}

// TestLateAnswersStayOutOfTheInput starts muse in a terminal whose answers
// to muse's start-up questions come late: within the wait (a 300 ms round
// trip), muse uses them; after it (1.5 s), muse starts with the safe
// defaults, and the answers that come then are taken out of the keys.
// Either way the input stays empty (no ">|tmux 3.3a", no "[?62;22c" typed
// into it, no key acted on), and the first key typed is the first thing
// in it.
func TestLateAnswersStayOutOfTheInput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		delay     time.Duration
		graphemes bool // muse turned mode 2027 on, as the terminal said it could
	}{
		{"within the wait", 300 * time.Millisecond, true},
		{"after the wait", 1500 * time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHome(t, "")
			tm, link := startSlow(t, h, 80, 24, tc.delay, "--demo")
			tm.waitUntil("the input", waitDeadline, func(s string) bool { return strings.Contains(inputLine(s), "Ask anything") })
			// Bubble Tea's background question and muse's, both answered.
			// muse's questions all answered: the device attributes last.
			link.waitDA1(t, 1)
			tm.typ("z")
			tm.waitUntil("the key typed", waitDeadline, func(s string) bool { return inputLine(s) != "" && !strings.Contains(inputLine(s), "Ask anything") })
			if got := inputLine(tm.screen()); got != "› z" {
				t.Errorf("the input holds %q, want only the key typed, \"› z\"", got)
			}
			tm.mu.Lock()
			on := tm.modes[ansi.ModeUnicodeCore]
			framed := bytes.Contains(tm.raw.Bytes(), syncBegin)
			tm.mu.Unlock()
			if on != tc.graphemes {
				t.Errorf("mode 2027 on: %v, want %v", on, tc.graphemes)
			}
			if framed != tc.graphemes { // synchronized output was answered with 2027
				t.Errorf("frames in synchronized output: %v, want %v", framed, tc.graphemes)
			}
			tm.typ("\x7f/quit\r")
			if code := tm.waitExit(); code != 0 {
				t.Errorf("muse exited with status %d", code)
			}
			tm.checkRestored()
		})
	}
}
