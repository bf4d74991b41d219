//go:build linux

package e2e

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// museBin is the muse binary TestMain builds for every test.
var museBin string

// TestMain builds muse once, a plain build (no -race, whatever the tests
// run with), into a folder removed when the tests end.
func TestMain(m *testing.M) { os.Exit(runTests(m)) }

func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "muse-e2e-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)
	museBin = filepath.Join(dir, "muse")
	parallelCases()
	build := exec.Command("go", "build", "-o", museBin, "muse")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: build muse: %v\n", err)
		return 1
	}
	return m.Run()
}

// e2eParallel is how many cases run at once unless -parallel is given.
// A case mostly waits on muse (on its replies, its timers and the demo
// server's pacing): a whole run is about 35 s of CPU in 220 s of cases, so
// go test's default of one case per core would leave the cores idle.
const e2eParallel = 8

// parallelCases raises -test.parallel to e2eParallel, unless the command
// line set it.
func parallelCases() {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		if err := flag.Set("test.parallel", strconv.Itoa(e2eParallel)); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: -parallel: %v\n", err)
		}
	}
}

// Deadlines for conditions a test waits on. They are generous, since the
// whole test suite may share the machine's two cores with these tests;
// only keyDeadline is what the issue asks of muse: it answers a key
// within a second of the time it had a core. Both grow with the time muse
// and the test wait for a core (see waitClock).
const (
	waitDeadline = 20 * time.Second
	keyDeadline  = time.Second
	pollEvery    = 10 * time.Millisecond
)

// typAnswered types keys and waits until ok holds for the screen, failing
// the test when muse took more than keyDeadline of the time it had a core
// (see waitClock).
func (tm *term) typAnswered(keys, what string, ok func(screen string) bool) {
	tm.t.Helper()
	c := tm.clock()
	tm.typ(keys)
	if !tm.pollFrom(c, keyDeadline, ok) {
		tm.t.Fatalf("%s did not show within %v of muse's time: %v, of which %v waiting for a core",
			what, keyDeadline, time.Since(c.start).Round(time.Millisecond), c.waited.Round(time.Millisecond))
	}
}

// waitClock measures a wait in the time muse and this test could run:
// the kernel's run-queue delay of their threads (runDelay) is added to a
// deadline as the wait goes on. With 48 cases on two cores (or the whole
// test suite beside them) a second of muse's takes longer, and the
// deadline grows with it; a muse that blocks (on a lock, on the disk)
// waits for no core. The test's own polling does, though, so on a heavily
// loaded machine a hang is caught only at the cap (see over). (A deadline
// scaled by the load average allowed ten seconds at a load of 20 on two
// cores, for a muse hung or not.)
type waitClock struct {
	pids   []int
	start  time.Time
	last   time.Duration // runDelay at the last reading
	waited time.Duration // the run-queue delay since start
}

// clock starts a waitClock for muse and this test.
func (tm *term) clock() *waitClock {
	pids := []int{tm.cmd.Process.Pid, os.Getpid()}
	return &waitClock{pids: pids, start: time.Now(), last: runDelay(pids...)}
}

// over reports whether the wait has taken longer than deadline plus the
// time spent waiting for a core, which never stretches it past 6 times
// deadline nor waitDeadline, whichever is longer.
func (c *waitClock) over(deadline time.Duration) bool {
	took := time.Since(c.start)
	if took <= deadline {
		return false
	}
	// Only increments count: a thread that ends takes its delay with it.
	now := runDelay(c.pids...)
	c.waited += max(0, now-c.last)
	c.last = now
	return took > min(deadline+c.waited, max(6*deadline, waitDeadline))
}

// runDelay is how long the threads of the processes pids have waited
// for a core, runnable but not running: the second field of each
// thread's /proc/PID/task/TID/schedstat, in nanoseconds. Threads that
// wait at once each count, so it can exceed the time lost, which only
// makes a wait more lenient.
func runDelay(pids ...int) time.Duration {
	var sum time.Duration
	for _, pid := range pids {
		stats, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
		for _, f := range stats {
			b, err := os.ReadFile(f)
			if err != nil {
				continue // the thread ended
			}
			var running, waiting int64
			if _, err := fmt.Sscan(string(b), &running, &waiting); err == nil {
				sum += time.Duration(waiting)
			}
		}
	}
	return sum
}

// home is one person's machine: muse's folders, all in a temporary folder,
// an editor, and the environment muse runs with (nothing of the tests'
// own environment but PATH).
type home struct {
	dir string
	env []string
}

// editorText is what the test editor writes into the file it is given.
const editorText = "from the editor"

// newHome makes a home under t.TempDir, with EDITOR set to a script that
// replaces the file's text with editorText, and config (if not "") as
// muse's configuration file.
func newHome(t *testing.T, config string) *home {
	t.Helper()
	dir := t.TempDir()
	h := &home{dir: dir}
	for _, d := range []string{"home", "data", "config/muse", "state", "cache"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	editor := filepath.Join(dir, "editor.sh")
	script := "#!/bin/sh\nprintf '%s' '" + editorText + "' > \"$1\"\n"
	if err := os.WriteFile(editor, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	if config != "" {
		if err := os.WriteFile(filepath.Join(dir, "config/muse/config.toml"), []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	h.env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + filepath.Join(dir, "home"),
		"XDG_DATA_HOME=" + filepath.Join(dir, "data"),
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		"XDG_CACHE_HOME=" + filepath.Join(dir, "cache"),
		"TERM=xterm-256color",
		"LANG=C.UTF-8",
		"EDITOR=" + editor,
	}
	return h
}

// run runs muse with args off any terminal (as a script would) and returns
// its standard output; a non-zero exit fails the test.
func (h *home) run(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(museBin, args...)
	cmd.Env, cmd.Dir = h.env, h.dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("muse %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// term is muse running in a pseudo-terminal, as a person would run it in
// a terminal window: what muse writes goes to a terminal emulator, whose
// screen the test reads, and whose answers to muse's queries (the
// background colour, the cursor position) go back to muse as a real
// terminal's would.
type term struct {
	t    *testing.T
	name string
	cmd  *exec.Cmd
	ptmx *os.File // the terminal's side
	tty  *os.File // muse's side, kept open to read its mode after muse exits

	mu    sync.Mutex
	emu   *vt.Emulator
	raw   bytes.Buffer       // every byte muse wrote
	modes map[ansi.Mode]bool // each mode muse set (true) or reset (false), as it left it

	split *splitter // draws each code point of a cluster in its own cells, as xterm does; nil draws clusters whole
	mute  bool      // the terminal answers no query

	readDone chan struct{} // the output is read to its end
	answered chan struct{} // the emulator's answers are all passed on
	exited   chan struct{} // muse has exited
	waitErr  error         // of cmd.Wait, once exited is closed
}

// start runs muse with args in a terminal of cols x rows in home h.
func start(t *testing.T, h *home, cols, rows int, args ...string) *term {
	t.Helper()
	return startCmd(t, h, cols, rows, exec.Command(museBin, args...), true)
}

// startCmd runs cmd (muse, or a shell that runs it) in a terminal of cols
// x rows in home h, with the terminal on its standard input and output.
// With ctty the terminal is its controlling terminal, as a shell gives a
// job: SIGWINCH and job control reach it, and it can open /dev/tty.
func startCmd(t *testing.T, h *home, cols, rows int, cmd *exec.Cmd, ctty bool) *term {
	t.Helper()
	return startTerm(t, h, cols, rows, cmd, ctty, clusterTerm)
}

// startTerm is startCmd in a terminal that draws grapheme clusters as kind
// does (see widths).
func startTerm(t *testing.T, h *home, cols, rows int, cmd *exec.Cmd, ctty bool, kind widths) *term {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		t.Fatalf("size the pseudo-terminal: %v", err)
	}
	cmd.Env, cmd.Dir = h.env, h.dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	// A session of its own.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: ctty}
	tm := &term{
		t: t, name: strings.Join(cmd.Args, " "), cmd: cmd, ptmx: ptmx, tty: tty,
		emu:      vt.NewEmulator(cols, rows),
		modes:    map[ansi.Mode]bool{},
		readDone: make(chan struct{}),
		answered: make(chan struct{}),
		exited:   make(chan struct{}),
	}
	// The emulator knows mode 2026 once it was reset, and then reports it
	// to muse's question, so muse wraps its frames in it (see read).
	_, _ = tm.emu.Write(syncEnd)
	kind.prime(tm)
	tm.emu.SetCallbacks(vt.Callbacks{
		EnableMode:  func(m ansi.Mode) { tm.modes[m] = true },
		DisableMode: func(m ansi.Mode) { tm.modes[m] = false },
	})
	if err := cmd.Start(); err != nil {
		t.Fatalf("start muse: %v", err)
	}
	go tm.read()
	// The emulator's answers to queries, typed back to muse.
	go func() {
		defer close(tm.answered)
		var to io.Writer = ptmx
		if tm.mute {
			to = io.Discard // a terminal that answers nothing
		}
		_, _ = io.Copy(to, tm.emu)
	}()
	go func() {
		tm.waitErr = cmd.Wait()
		close(tm.exited)
	}()
	t.Cleanup(tm.close)
	return tm
}

// Synchronized output (mode 2026): a frame between its set and its reset
// is applied to the emulator whole, as a terminal that has the mode shows
// it, so a test never reads a frame half drawn (a line erased, not yet
// written again).
var (
	syncBegin = []byte(ansi.SetModeSynchronizedOutput)
	syncEnd   = []byte(ansi.ResetModeSynchronizedOutput)
)

// markerStart is the length of the longest end of b that begins
// syncBegin, 0 when none does.
func markerStart(b []byte) int {
	for k := min(len(b), len(syncBegin)-1); k > 0; k-- {
		if bytes.HasPrefix(syncBegin, b[len(b)-k:]) {
			return k
		}
	}
	return 0
}

// read feeds muse's output to the emulator until the terminal closes,
// each synchronized frame at once.
func (tm *term) read() {
	defer close(tm.readDone)
	buf := make([]byte, 32<<10)
	var held []byte // a synchronized frame not yet ended
	for {
		n, err := tm.ptmx.Read(buf)
		if n > 0 {
			tm.mu.Lock()
			tm.raw.Write(buf[:n])
			held = append(held, buf[:n]...)
			for {
				if i := bytes.Index(held, syncBegin); i > 0 {
					_, _ = tm.draw(held[:i]) // what comes before the frame
					held = held[i:]
				}
				if !bytes.HasPrefix(held, syncBegin) {
					// No frame begins here; keep only a tail that is the
					// start of its marker.
					keep := markerStart(held)
					_, _ = tm.draw(held[:len(held)-keep])
					held = append(held[:0], held[len(held)-keep:]...)
					break
				}
				j := bytes.Index(held, syncEnd)
				if j < 0 {
					break // the frame goes on
				}
				_, _ = tm.draw(held[:j+len(syncEnd)])
				held = append(held[:0], held[j+len(syncEnd):]...)
			}
			tm.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// close ends muse if it still runs and closes the terminal. On a failed
// test it prints the screen first, and, if muse still runs, what each of
// its goroutines was doing (Go prints that on SIGQUIT).
func (tm *term) close() {
	if tm.t.Failed() {
		tm.t.Logf("the screen of %s:\n%s", tm.name, tm.dump())
		tm.goroutines()
	}
	select {
	case <-tm.exited:
	default:
		_ = tm.cmd.Process.Kill()
		<-tm.exited
	}
	_ = tm.tty.Close()
	_ = tm.ptmx.Close()
	<-tm.readDone
	// Not tm.emu.Close, which is not safe while the emulator is read: the
	// answers end with the pipe they are written to.
	if c, ok := tm.emu.InputPipe().(io.Closer); ok {
		_ = c.Close()
	}
	<-tm.answered
}

// goroutines prints the goroutines of a muse that still runs: Go's dump
// on SIGQUIT, as muse writes it to the terminal.
func (tm *term) goroutines() {
	select {
	case <-tm.exited:
		return
	default:
	}
	tm.mu.Lock()
	from := tm.raw.Len()
	tm.mu.Unlock()
	_ = tm.cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case <-tm.exited:
	case <-time.After(5 * time.Second):
	}
	time.Sleep(100 * time.Millisecond) // the last bytes of the dump on their way
	tm.mu.Lock()
	dump := tm.raw.String()[from:]
	tm.mu.Unlock()
	if i := strings.Index(dump, "goroutine "); i >= 0 {
		dump = dump[i:]
	}
	tm.t.Logf("muse's goroutines after SIGQUIT:\n%s", dump)
}

// screen is the text on the screen now, one line a row, trailing blanks
// trimmed.
func (tm *term) screen() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.emu.String()
}

// dump is the screen framed for a failure message, with the cursor's
// position and the terminal's modes.
func (tm *term) dump() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	w := tm.emu.Width()
	var b strings.Builder
	b.WriteString("┌" + strings.Repeat("─", w) + "┐\n")
	for _, line := range strings.Split(tm.emu.String(), "\n") {
		b.WriteString("│" + line + "\n")
	}
	b.WriteString("└" + strings.Repeat("─", w) + "┘\n")
	fmt.Fprintf(&b, "cursor %v hidden %v, alternate screen %v, modes %v, %d bytes written",
		tm.emu.CursorPosition(), tm.emu.CursorHidden(), tm.emu.IsAltScreen(), tm.modeList(), tm.raw.Len())
	return b.String()
}

// modeList names the modes muse set and reset, for a dump; mu is held.
func (tm *term) modeList() []string {
	var out []string
	for m, on := range tm.modes {
		out = append(out, fmt.Sprintf("%v=%v", m, on))
	}
	return out
}

// typ types s, as keys: "\r" is enter, "\x1b" esc, "\x03" ctrl+c.
func (tm *term) typ(s string) {
	tm.t.Helper()
	if _, err := tm.ptmx.Write([]byte(s)); err != nil {
		tm.t.Fatalf("type %q: %v", s, err)
	}
}

// signal sends sig to muse.
func (tm *term) signal(sig syscall.Signal) {
	tm.t.Helper()
	if err := tm.cmd.Process.Signal(sig); err != nil {
		tm.t.Fatalf("send %v: %v", sig, err)
	}
}

// resize changes the terminal's size, as a person dragging the window's
// corner does: the kernel tells muse with SIGWINCH.
func (tm *term) resize(cols, rows int) {
	tm.t.Helper()
	tm.mu.Lock()
	tm.emu.Resize(cols, rows)
	err := pty.Setsize(tm.ptmx, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
	tm.mu.Unlock()
	if err != nil {
		tm.t.Fatalf("resize: %v", err)
	}
}

// waitFor waits until the screen shows what, or fails the test after
// waitDeadline.
func (tm *term) waitFor(what string) {
	tm.t.Helper()
	tm.waitUntil("the screen shows "+strconv.Quote(what), waitDeadline, func(s string) bool { return strings.Contains(s, what) })
}

// waitUntil waits until ok holds for the screen, or fails the test after
// deadline of the time muse and the test had a core (see waitClock),
// saying what it waited for.
func (tm *term) waitUntil(what string, deadline time.Duration, ok func(screen string) bool) {
	tm.t.Helper()
	c := tm.clock()
	if !tm.pollFrom(c, deadline, ok) {
		tm.t.Fatalf("waited %v for %s (%v of it waiting for a core)",
			time.Since(c.start).Round(time.Millisecond), what, c.waited.Round(time.Millisecond))
	}
}

// pollFrom reports whether ok came to hold for the screen before c is
// over deadline.
func (tm *term) pollFrom(c *waitClock, deadline time.Duration, ok func(screen string) bool) bool {
	for {
		if ok(tm.screen()) {
			return true
		}
		if c.over(deadline) {
			return false
		}
		time.Sleep(pollEvery)
	}
}

// waitStopped waits until muse's process is stopped (job control), as
// /proc tells.
func (tm *term) waitStopped() {
	tm.t.Helper()
	stat := fmt.Sprintf("/proc/%d/stat", tm.cmd.Process.Pid)
	end := time.Now().Add(waitDeadline)
	for {
		b, err := os.ReadFile(stat)
		if err != nil {
			tm.t.Fatalf("read the process state: %v", err)
		}
		// pid (comm) S ...: the state follows the last ')'.
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) && b[i+2] == 'T' {
			return
		}
		if time.Now().After(end) {
			tm.t.Fatalf("muse did not stop within %v: %s", waitDeadline, b)
		}
		time.Sleep(pollEvery)
	}
}

// waitExit waits for muse to exit and returns its exit status; -1 when a
// signal ended it.
func (tm *term) waitExit() int {
	tm.t.Helper()
	select {
	case <-tm.exited:
	case <-time.After(waitDeadline):
		tm.t.Fatalf("muse did not exit within %v", waitDeadline)
	}
	tm.drain()
	var ee *exec.ExitError
	if errors.As(tm.waitErr, &ee) {
		return ee.ExitCode()
	}
	if tm.waitErr != nil {
		tm.t.Fatalf("wait for muse: %v", tm.waitErr)
	}
	return 0
}

// drainMarker is an OSC the emulator ignores, written to muse's side of
// the terminal once muse has exited.
var drainMarker = []byte("\x1b]7777;muse-e2e-drained\x07")

// drain returns once the emulator has applied every byte muse wrote
// before it exited (the reader may lag behind the exit): the marker,
// written to the terminal after muse exited, reaches the reader after
// them. It waits on that event, bounded by waitDeadline.
func (tm *term) drain() {
	if _, err := tm.tty.Write(drainMarker); err != nil {
		return
	}
	end := time.Now().Add(waitDeadline)
	for time.Now().Before(end) {
		tm.mu.Lock()
		seen := bytes.Contains(tm.raw.Bytes(), drainMarker)
		tm.mu.Unlock()
		if seen {
			return
		}
		time.Sleep(pollEvery)
	}
}

// checkCooked checks that the terminal is in cooked mode: canonical input
// and echo, as a shell expects it.
func (tm *term) checkCooked() {
	tm.t.Helper()
	tio, err := unix.IoctlGetTermios(int(tm.tty.Fd()), unix.TCGETS)
	if err != nil {
		tm.t.Fatalf("read the terminal's mode: %v", err)
	}
	if tio.Lflag&unix.ICANON == 0 || tio.Lflag&unix.ECHO == 0 {
		tm.t.Errorf("the terminal is left in raw mode (lflag %#x: ICANON %v, ECHO %v)",
			tio.Lflag, tio.Lflag&unix.ICANON != 0, tio.Lflag&unix.ECHO != 0)
	}
}

// given reports whether the output so far gave the terminal back: the
// alternate screen left and the cursor shown.
func (tm *term) given() bool {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return !tm.emu.IsAltScreen() && !tm.emu.CursorHidden()
}

// checkRestored checks, once muse has exited, that it gave the terminal
// back as it found it: the terminal's mode cooked (canonical input, echo),
// and the output read to its end leaving the cursor shown, the alternate
// screen left, mouse and focus reporting and bracketed paste off, and
// autowrap on.
func (tm *term) checkRestored() {
	tm.t.Helper()
	tm.checkCooked()
	// With muse gone and this side closed, reading ends once every byte
	// muse wrote is read.
	_ = tm.tty.Close()
	select {
	case <-tm.readDone:
	case <-time.After(waitDeadline):
		tm.t.Fatalf("the terminal's output did not end within %v", waitDeadline)
	}
	tm.mu.Lock()
	defer tm.mu.Unlock()
	if tm.emu.IsAltScreen() {
		tm.t.Errorf("the alternate screen is not left")
	}
	if tm.emu.CursorHidden() {
		tm.t.Errorf("the cursor is left hidden")
	}
	for _, m := range []ansi.Mode{ansi.ModeMouseNormal, ansi.ModeMouseButtonEvent, ansi.ModeMouseAnyEvent,
		ansi.ModeMouseExtSgr, ansi.ModeBracketedPaste, ansi.ModeFocusEvent} {
		if tm.modes[m] {
			tm.t.Errorf("mode %v is left on", m)
		}
	}
	if on, set := tm.modes[ansi.ModeAutoWrap]; set && !on {
		tm.t.Errorf("autowrap is left off")
	}
}
