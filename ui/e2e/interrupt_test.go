//go:build linux

package e2e

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"muse/api/demo"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/sys/unix"
)

// toolConfig gives the demo a tool that runs until the test lets it end,
// so that a test can interrupt it running: it reads the FIFO "gate" in the
// folder muse runs in to its end (see toolGate). demo:tool calls the first
// tool offered, and a profile's tools come before the demo's own get_time.
const toolConfig = `default_profile = "e2e"
[profiles.e2e]
[[profiles.e2e.tools]]
name = "slow_tool"
description = "waits at the gate, then answers"
input_schema = { type = "object" }
command = ["sh", "-c", "cat gate >/dev/null; echo slept"]
`

// The terminal's size, and the size a resize changes it to: larger, so
// that rows muse has not drawn stay blank.
const (
	cols, rows       = 100, 30
	bigCols, bigRows = 110, 34
)

// museArgs are the flags of every run: the demo, with replies cut at 16
// words so that a turn left to finish after an interrupt ends soon even at
// demo:slow's 4 words a second (a tool call's text and input fit in 16).
var museArgs = []string{"--demo", "--max-tokens", "16"}

// phase is a moment in a turn: the prompt that starts the turn, and how to
// bring the turn to that moment.
type phase struct {
	name   string
	prompt string
	shown  string       // what the screen shows once the turn started; "": the prompt
	reach  func(c *run) // waits until the turn is there; nil: at once
	// held holds the turn's first request at that moment until the
	// interrupt has done what it does (see holdServer); gate says where:
	// "" before its first byte, else before the end of the first block
	// that streamed a delta of that type.
	held bool
	gate string
	// countdown refuses the turn's first request instead (429, retry in
	// a minute), so that the interrupt lands while muse counts down to
	// the retry (see holdServer).
	countdown bool
}

// started is what the screen shows once the turn of p started.
func (p phase) started() string {
	if p.shown != "" {
		return p.shown
	}
	return "you\n  " + p.prompt
}

// phases are the moments of a turn the demo can produce.
var phases = []phase{
	// The held phases run muse against the demo service behind a gate
	// that holds the request there until the interrupt is done (see
	// holdServer), so the interrupt lands in the phase however slowly the
	// test runs: muse's own --demo server cannot be told to wait, and a
	// pace (demo:slow) is only hoped to be slow enough.
	{name: "before the first byte", prompt: "hold on", held: true, reach: func(c *run) {
		c.waitGate()
		c.tm.waitUntil("the request sent", waitDeadline, func(s string) bool { return busy(statusLine(s)) })
	}},
	{name: "during thinking", prompt: "demo:think ponder", held: true, gate: "thinking_delta", reach: func(c *run) {
		c.waitGate()
		c.tm.waitFor("The user wrote")
	}},
	{name: "during text", prompt: "tell me", held: true, gate: "text_delta", reach: func(c *run) {
		c.waitGate()
		c.tm.waitForHeading("tell me")
	}},
	{name: "during a tool call's input", prompt: "demo:tool look it up", held: true, gate: "input_json_delta", reach: func(c *run) {
		c.waitGate()
		c.tm.waitFor("tool · slow_tool")
	}},
	{name: "while a tool runs", prompt: "demo:tool run it", reach: func(c *run) {
		c.tm.waitFor(approvalKeys)
		c.tm.typ("y")
		c.tm.waitFor("running tool slow_tool")
		c.tool.waitOpened(c.t)
	}},
	{name: "while approval waits", prompt: "demo:tool ask me", reach: func(c *run) {
		c.tm.waitFor(approvalKeys)
	}},
	// The image request is held before its answer, and the interrupt
	// lands while muse waits for it. Saving the image takes a few
	// milliseconds, too short for an interrupt to be aimed at.
	{name: "during an image fetch", prompt: "/image a fox", shown: "prompt: a fox", held: true, reach: func(c *run) {
		c.waitGate()
		c.tm.waitFor("generating")
	}},
	{name: "during a retry's countdown", prompt: "count down", held: true, countdown: true, reach: func(c *run) {
		c.waitGate()
		c.tm.waitFor("retry in ") // "waiting to retry in", or "retry in" on a narrow line
	}},
}

// interrupt is something a person does to muse in the middle of a turn:
// keys to type, or something else to do.
type interrupt struct {
	name   string
	keys   string       // the keys it types; "" when do does something else
	do     func(c *run) // does it and checks what it does at once; nil for keys
	editor bool         // the keys hand the input to the editor
}

// approvalKeys is the line of the box that asks to run a tool.
const approvalKeys = "y yes · n no, say why · a always"

var interrupts = []interrupt{
	{name: "esc", keys: "\x1b"},
	{name: "ctrl+c", keys: "\x03"},
	{name: "editor", keys: "\x18", editor: true},
	{name: "resize", do: func(c *run) {
		c.tm.resize(bigCols, bigRows)
		c.cols, c.rows = bigCols, bigRows
		c.tm.waitUntil("the frame drawn again at the new size", waitDeadline, c.framed)
	}},
	{name: "suspend", do: func(c *run) {
		c.tm.signal(syscall.SIGTSTP)
		c.tm.waitStopped()
		// Stopped, muse has given the terminal back to the shell.
		c.tm.waitUntil("the terminal given back", waitDeadline, func(string) bool { return c.tm.given() })
		c.tm.checkCooked()
		c.tm.signal(syscall.SIGCONT)
		c.tm.waitUntil("the screen taken again", waitDeadline, func(s string) bool {
			return !c.tm.given() && c.framed(s)
		})
	}},
	{name: "kill -9", do: func(c *run) {
		c.tm.signal(syscall.SIGKILL)
		c.tm.waitExit()
		// A new process in a new terminal, as after the shell took the
		// terminal back; the session goes on where it was saved.
		c.tm = start(c.t, c.h, c.cols, c.rows, append(c.args, "-c")...)
		c.restarted = true
		c.tm.waitFor("first question")
	}},
}

// TestInterrupts interrupts a turn in each of its phases in each way a
// person can, then checks that muse answers a key within a second, takes
// another prompt and replies, has lost no completed message, and gives
// the terminal back as it found it on exit.
func TestInterrupts(t *testing.T) {
	t.Parallel()
	for _, ph := range phases {
		for _, in := range interrupts {
			t.Run(ph.name+"/"+in.name, func(t *testing.T) {
				t.Parallel()
				runCase(t, ph, in)
			})
		}
	}
}

// run is one case's state: the home, the muse running now, and what the
// interrupt changed.
type run struct {
	t          *testing.T
	h          *home
	tm         *term
	cols, rows int
	args       []string    // muse's arguments
	restarted  bool        // muse was killed and started again with -c
	hold       *holdServer // the service, in a held phase
	tool       *toolGate   // what slow_tool waits for
}

// waitGate waits until the turn's request waits at the hold's gate: the
// turn is in the phase, and stays there until the hold lets it go.
func (c *run) waitGate() {
	c.t.Helper()
	select {
	case <-c.hold.reached:
	case <-time.After(waitDeadline):
		c.t.Fatalf("the request of %q did not reach the gate within %v", c.hold.word, waitDeadline)
	}
}

func runCase(t *testing.T, ph phase, in interrupt) {
	c := &run{t: t, h: newHome(t, toolConfig), cols: cols, rows: rows, args: museArgs}
	c.tool = newToolGate(t, c.h.dir)
	var hold *holdServer
	if ph.held {
		hold = newHoldServer(t, strings.TrimPrefix(ph.prompt, "/image "), ph.gate, ph.countdown)
		c.h.env = append(c.h.env, hold.env()...)
		c.args = museArgs[1:] // not --demo: the service is hold's
		c.hold = hold
	}
	c.tm = start(t, c.h, cols, rows, c.args...)
	c.tm.waitFor("Ask anything")
	c.send("first question", "first question")

	c.tm.typ(ph.prompt + "\r")
	ph.reach(c)
	if in.do != nil {
		in.do(c)
	} else {
		c.tm.typ(in.keys)
	}
	if hold != nil {
		// Let the reply come only once the interrupt has done what it does,
		// and check that it landed while the turn was held: esc, ctrl+c and
		// kill -9 give the held request up, the others leave it waiting.
		// A countdown is not let go (muse waits a minute for its retry):
		// once it is seen to go on after the interrupt, esc ends it.
		switch {
		case ph.countdown && (in.keys == "" || in.editor) && in.name != "kill -9":
			if in.editor {
				c.waitEditor()
			}
			hold.stillCounting(t, c.tm.screen())
			c.tm.typ("\x1b")
			c.tm.waitUntil("the turn to end", waitDeadline, func(s string) bool { return !busy(statusLine(s)) })
			hold.givenUp(t)
		case in.editor:
			c.waitEditor()
			hold.let(t)
		case in.keys != "" || in.name == "kill -9":
			c.tm.waitUntil("the turn to end", waitDeadline, func(s string) bool { return !busy(statusLine(s)) })
			hold.givenUp(t)
		default:
			hold.let(t)
		}
	}
	if c.tool.opened != nil {
		// The same for the tool: esc and ctrl+c end it (its process
		// group is killed), the others leave it running until let go (a
		// kill -9 of muse too: the tool has a process group of its own).
		switch {
		case in.editor:
			c.waitEditor()
			c.tool.let(t)
		case in.keys != "":
			c.tool.ended(t)
		default:
			c.tool.let(t)
		}
	}
	// esc and ctrl+c answer a tool's question themselves (esc says no,
	// ctrl+c cancels the turn); after anything else muse still asks, and
	// the test says no.
	c.settle(ph.started(), in.keys == "" || in.editor)
	// The box asking to run a tool holds the keys: ctrl+x is not one of
	// them, and nothing is there to edit.
	if in.editor && ph.reach != nil && !strings.Contains(ph.name, "approval") {
		c.waitEditor()
	}

	// muse answers a key within a second of the time it had a core.
	c.tm.typAnswered("zq", "a key typed after the interrupt", func(s string) bool { return strings.HasSuffix(inputLine(s), "zq") })
	// The session takes another prompt and replies.
	next := strings.TrimSpace(strings.TrimPrefix(inputLine(c.tm.screen()), "›")) + " next"
	c.send(next, " next")

	// Quit: the terminal is given back as it was.
	c.tm.typ("/quit\r")
	if code := c.tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d after /quit", code)
	}
	c.tm.checkRestored()
	m := savedRE.FindStringSubmatch(c.tm.screen())
	if m == nil {
		t.Fatalf("muse did not say which session it saved")
	}
	// No completed message is lost: the first turn is in the session, and
	// so is the last prompt with a reply after it.
	shown := c.h.run(t, "sessions", "show", m[1])
	for _, want := range []string{"you:\nfirst question\n", "## first question", next} {
		if !strings.Contains(shown, want) {
			t.Errorf("the saved session lacks %q:\n%s", want, shown)
		}
	}
	if i := strings.Index(shown, next); i >= 0 && !strings.Contains(shown[i:], "\nassistant (") {
		t.Errorf("the saved session has no reply to %q:\n%s", next, shown)
	}
}

// waitEditor waits until the editor's text is in the input.
func (c *run) waitEditor() {
	c.t.Helper()
	c.tm.waitUntil("the editor's text in the input", waitDeadline, func(s string) bool {
		return strings.Contains(inputLine(s), editorText)
	})
}

// savedRE finds the session muse says it saved as it exits.
var savedRE = regexp.MustCompile(`session (\S+) saved`)

// send types keys and enter, sending prompt (keys end it), and waits for
// the whole reply. After a tool call cancelled, the reply may answer the
// call's result rather than the prompt (the demo does), so any reply will
// do.
func (c *run) send(prompt, keys string) {
	c.t.Helper()
	c.restarted = false
	c.tm.typ(keys + "\r")
	c.settle("you\n  "+prompt, false)
	if status := statusLine(c.tm.screen()); !strings.Contains(status, "· stop ") {
		c.t.Fatalf("no reply to %q: the status says %q", prompt, status)
	}
}

// settle waits until no turn is under way, the turn that shows started
// (if not "") having started; with answer, it answers no (esc) to a tool
// that asks to run.
func (c *run) settle(started string, answer bool) {
	c.t.Helper()
	answered := !answer
	c.tm.waitUntil("the turn to end", waitDeadline, func(s string) bool {
		if started != "" && !c.restarted && !strings.Contains(s, started) {
			return false
		}
		status := statusLine(s)
		if strings.Contains(status, "waits for your answer") {
			if !answered {
				c.tm.typ("\x1b") // esc says no at once (n asks why)
				answered = true
			}
			return false
		}
		return !busy(status)
	})
}

// framed reports whether s is a whole frame at the run's size now: its
// last row is the key help, and its status line reaches the right edge.
func (c *run) framed(s string) bool {
	lines := strings.Split(s, "\n")
	return len(lines) == c.rows && ansi.StringWidth(lines[c.rows-2]) == c.cols &&
		strings.Contains(lines[c.rows-1], " • ")
}

// inputLine is the first line of the input box: the line after the rule
// above it.
func inputLine(s string) string {
	lines := strings.Split(s, "\n")
	for i := len(lines) - 1; i > 0; i-- {
		if strings.HasPrefix(lines[i], "›") {
			return strings.TrimRight(lines[i], " ")
		}
	}
	return ""
}

// statusLine is the line under the input: the last but one of the frame.
func statusLine(s string) string {
	lines := strings.Split(s, "\n")
	if len(lines) < 2 {
		return ""
	}
	return lines[len(lines)-2]
}

// statusArea is every line between the last input line and the help
// line, joined by spaces: a long notice wraps over several lines.
func statusArea(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	start := -1
	for i := len(lines) - 1; i > 0; i-- {
		if strings.HasPrefix(lines[i], "›") {
			start = i
			break
		}
	}
	if start < 0 || start+1 >= len(lines)-1 {
		return ""
	}
	return strings.Join(lines[start+1:len(lines)-1], " ")
}

// busy reports whether a status line says a turn is under way: it starts
// with a spinner (a braille pattern).
func busy(status string) bool {
	for _, r := range status {
		return r >= 0x2800 && r <= 0x28ff
	}
	return false
}

// holdServer is the demo service behind a gate: the first request (a
// message or an image) that holds its word waits at the gate until
// release is called or the request ends. With no gate type the gate is
// before a byte of the answer is sent; with one (such as "text_delta"),
// it is before the end of the first content block that streamed a delta
// of that type: the block's text is out, and the block still open.
//
// With countdown the gate is muse's own wait for a retry: the request is
// refused at once as rate limited, to be retried in a minute (the longest
// wait muse honours), far longer than an interrupt takes however slowly
// the test runs; the demo's own refusal (demo:ratelimit) asks for a
// second, which a loaded machine can spend before the interrupt lands.
type holdServer struct {
	srv       *httptest.Server
	word      []byte
	gate      []byte
	countdown bool
	held      atomic.Bool
	retried   atomic.Bool   // with countdown: a later request carried the word
	reached   chan struct{} // closed once the request waits at the gate
	gone      chan struct{} // closed if muse gives the request up there
	waiting   atomic.Bool   // the request waits at the gate now
	released  chan struct{}
	once      sync.Once
}

// newHoldServer starts a holdServer holding the request that holds word
// at gate, or refusing it for a minute with countdown, closed when t ends.
func newHoldServer(t *testing.T, word, gate string, countdown bool) *holdServer {
	s := &holdServer{word: []byte(word), countdown: countdown, reached: make(chan struct{}), gone: make(chan struct{}), released: make(chan struct{})}
	if gate != "" {
		s.gate = []byte(`"type":"` + gate + `"`)
	}
	demoService := demo.NewHandler(demo.Options{Delay: 25 * time.Millisecond})
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, s.word) && s.countdown && s.held.Load() {
			s.retried.Store(true)
		}
		if bytes.Contains(body, s.word) && s.held.CompareAndSwap(false, true) {
			if s.countdown {
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("retry-after", "60")
				w.WriteHeader(http.StatusTooManyRequests)
				_, _ = io.WriteString(w, `{"type":"error","error":{"type":"rate_limit_error","message":"rate limit exceeded"}}`)
				close(s.reached)
				return
			}
			if s.gate != nil {
				w = &gateWriter{ResponseWriter: w, s: s, ctx: r.Context()}
			} else if !s.wait(r.Context()) {
				return
			}
		}
		demoService.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		s.release()
		s.srv.Close()
	})
	return s
}

// release lets the held request go on.
func (s *holdServer) release() { s.once.Do(func() { close(s.released) }) }

// wait holds the request at the gate until release, saying it is there; it
// reports false if the request ended first.
func (s *holdServer) wait(ctx context.Context) bool {
	s.waiting.Store(true)
	defer s.waiting.Store(false)
	close(s.reached)
	select {
	case <-s.released:
		return true
	case <-ctx.Done():
		s.waiting.Store(false)
		close(s.gone)
		return false
	}
}

// let releases the held request, failing t unless it still waits at the
// gate: an interrupt that leaves the turn alone lands in the phase only if
// the turn is still held there.
func (s *holdServer) let(t *testing.T) {
	t.Helper()
	if !s.waiting.Load() {
		t.Fatalf("the request of %q no longer waited at the gate when let go", s.word)
	}
	s.release()
}

// stillCounting fails t unless muse still counts down to the retry of the
// refused request (of a countdown hold), as screen shows: the interrupt
// landed in the countdown, and the countdown went on after it.
func (s *holdServer) stillCounting(t *testing.T, screen string) {
	t.Helper()
	if s.retried.Load() || !strings.Contains(screen, "retry in ") {
		t.Fatalf("muse no longer counted down to the retry of %q after the interrupt (retried: %v)", s.word, s.retried.Load())
	}
}

// givenUp waits until muse has given the held request up at the gate, as
// an interrupt that ends the turn does; it fails t if muse does not. Of a
// countdown, the turn has ended: it fails t if muse retried.
func (s *holdServer) givenUp(t *testing.T) {
	t.Helper()
	if s.countdown {
		if s.retried.Load() {
			t.Fatalf("muse retried the request of %q after the turn was ended in its countdown", s.word)
		}
		return
	}
	select {
	case <-s.gone:
	case <-time.After(waitDeadline):
		t.Fatalf("muse did not give up the request of %q held at the gate within %v", s.word, waitDeadline)
	}
}

// gateWriter writes a streamed answer up to its hold's gate: the write of
// the content_block_stop that ends the first block with a delta of the
// gate's type waits there.
type gateWriter struct {
	http.ResponseWriter
	s    *holdServer
	ctx  context.Context
	seen bool // a delta of the gate's type was written
	past bool // the gate is behind
}

func (w *gateWriter) Write(b []byte) (int, error) {
	switch {
	case w.past:
	case bytes.Contains(b, w.s.gate):
		w.seen = true
	case w.seen && bytes.HasPrefix(b, []byte("event: content_block_stop\n")):
		w.past = true
		if !w.s.wait(w.ctx) {
			return 0, w.ctx.Err()
		}
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController flush the writer.
func (w *gateWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// env points muse at the server, as --demo would at its own.
func (s *holdServer) env() []string {
	return []string{
		"MUSE_BASE_URL=" + s.srv.URL,
		"MUSE_ACCESS_TOKEN=" + demo.DefaultToken,
		"MUSE_MODEL=demo-chat",
		"MUSE_IMAGE_MODEL=demo-image",
	}
}

// toolGate is the FIFO slow_tool reads to its end: the tool runs until the
// test lets it end, so an interrupt lands while it runs however slowly the
// test does, and the test can tell whether the tool was still running.
type toolGate struct {
	path   string
	opens  chan *os.File // the writing end, once the tool opened the FIFO
	opened *os.File      // that end, once waitOpened has it
	taken  bool          // waitOpened took what opens gave
}

// newToolGate makes the FIFO gate in dir and waits in the background for
// the tool to open it; when t ends, a tool still waiting is let go.
func newToolGate(t *testing.T, dir string) *toolGate {
	g := &toolGate{path: filepath.Join(dir, "gate"), opens: make(chan *os.File, 1)}
	if err := syscall.Mkfifo(g.path, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		f, err := os.OpenFile(g.path, os.O_WRONLY, 0) // returns once a reader opens it
		if err != nil {
			f = nil
		}
		g.opens <- f
	}()
	t.Cleanup(func() {
		// Unblock the open above if no tool ever ran, and let a tool that
		// still waits end.
		if r, err := os.OpenFile(g.path, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			defer r.Close()
		}
		if !g.taken {
			if f := <-g.opens; f != nil {
				f.Close()
			}
		}
		if g.opened != nil {
			g.opened.Close()
		}
	})
	return g
}

// waitOpened waits until the tool has opened the gate: it runs, and waits
// there until let go.
func (g *toolGate) waitOpened(t *testing.T) {
	t.Helper()
	select {
	case f := <-g.opens:
		g.taken = true
		if f == nil {
			t.Fatal("the tool's gate could not be opened")
		}
		g.opened = f
	case <-time.After(waitDeadline):
		t.Fatalf("slow_tool did not open its gate within %v", waitDeadline)
	}
}

// let ends the tool, failing t unless it still waited at the gate: a
// byte written with no reader left fails (EPIPE).
func (g *toolGate) let(t *testing.T) {
	t.Helper()
	if _, err := g.opened.Write([]byte("x")); err != nil {
		t.Fatalf("slow_tool no longer waited at its gate when let go: %v", err)
	}
	g.opened.Close()
	g.opened = nil
}

// ended waits until the tool is gone from the gate (muse killed it): the
// FIFO's writing end reports an error once no reader is left. It fails t
// if the tool still waits after waitDeadline.
func (g *toolGate) ended(t *testing.T) {
	t.Helper()
	fds := []unix.PollFd{{Fd: int32(g.opened.Fd()), Events: 0}} // POLLERR is always reported
	for {
		n, err := unix.Poll(fds, int(waitDeadline/time.Millisecond))
		if err == unix.EINTR {
			continue
		}
		if err != nil || n == 0 || fds[0].Revents&unix.POLLERR == 0 {
			t.Fatalf("slow_tool still waits at its gate %v after the interrupt (%v, %v)", waitDeadline, n, err)
		}
		return
	}
}
