package preview

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"muse/ui/textfmt"
)

// fakeTerm is a terminal for ask: what the program writes is kept, and
// once the device attributes are asked for the answer becomes readable.
// Its clock is virtual: a read that finds nothing left to give, with a
// deadline set (setDeadline), has reached that deadline, since nothing
// will ever come; with no deadline, it blocks as a terminal with nothing
// to say does. No test waits on a clock.
type fakeTerm struct {
	answer string
	mu     sync.Mutex
	cond   *sync.Cond
	wrote  bytes.Buffer
	unread []byte
	dl     time.Time
}

func newFakeTerm(answer string) *fakeTerm {
	f := &fakeTerm{answer: answer}
	f.cond = sync.NewCond(&f.mu)
	return f
}

func (f *fakeTerm) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.wrote.Write(p)
	if strings.HasSuffix(f.wrote.String(), ansi.RequestPrimaryDeviceAttributes) {
		f.unread = append(f.unread, f.answer...)
		f.cond.Broadcast()
	}
	return len(p), nil
}

func (f *fakeTerm) Read(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(f.unread) == 0 {
		if !f.dl.IsZero() {
			return 0, os.ErrDeadlineExceeded
		}
		f.cond.Wait()
	}
	n := copy(p, f.unread)
	f.unread = f.unread[n:]
	return n, nil
}

func (f *fakeTerm) setDeadline(t time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.dl = t
	f.cond.Broadcast() // a read waiting with no deadline now has one
	return nil
}

// never is a timeout that no test reaches: the answer, or the virtual
// deadline of fakeTerm, ends each wait first.
const never = time.Hour

const da1 = "\x1b[?62;22c"

// Answers of real terminals to question(true), as they give them.
const (
	kitty026 = "\x1b_Gi=31;OK\x1b\\" + "\x1bP>|kitty(0.26.5)\x1b\\" + "\x1b[?2026;2$y" + "\x1b[?62;c"
	kitty035 = "\x1b_Gi=31;OK\x1b\\" + "\x1bP>|kitty(0.35.2)\x1b\\" + "\x1b[?2026;2$y" + "\x1b[?62;c"
	ghostty  = "\x1b_Gi=31;OK\x1b\\" + "\x1bP>|ghostty 1.1.3\x1b\\" + "\x1b[?2026;2$y" + "\x1b[?62;22c"
	wezterm  = "\x1b_Gi=31;OK\x1b\\" + "\x1bP>|WezTerm 20240203-110809-5046fc22\x1b\\" + "\x1b[?2026;2$y" + "\x1b[?65;4;6;18;22c"
	xterm    = "\x1bP>|XTerm(390)\x1b\\" + "\x1b[?2026;0$y" + "\x1b[?64;1;2;6;9;15;16;17;18;21;22;28c"
	foot     = "\x1bP>|foot(1.16.2)\x1b\\" + "\x1b[?2026;2$y" + "\x1b[?62;4;22c"
)

// The decision comes from what the terminal answers: the graphics OK and a
// version with placeholders for kitty, mode 2026 answered 1 or 2 for
// synchronized output.
func TestTheTerminalsAnswerDecides(t *testing.T) {
	for _, tc := range []struct {
		name, answer string
		want         Terminal
	}{
		{"kitty 0.26 (Debian 12): half blocks", kitty026, Terminal{Kitty: false, SyncOutput: true}},
		{"kitty 0.35: placeholders", kitty035, Terminal{Kitty: true, SyncOutput: true}},
		{"ghostty: placeholders", ghostty, Terminal{Kitty: true, SyncOutput: true}},
		{"WezTerm answers OK but has no placeholders", wezterm, Terminal{Kitty: false, SyncOutput: true}},
		{"xterm: neither", xterm, Terminal{}},
		{"foot: synchronized output only", foot, Terminal{SyncOutput: true}},
		{"no answer", "", Terminal{}},
		{"only the device attributes", da1, Terminal{}},
		{"OK without a version", "\x1b_Gi=31;OK\x1b\\" + da1, Terminal{}},
		{"a version without the OK", "\x1bP>|kitty(0.35.2)\x1b\\" + da1, Terminal{}},
		{"a graphics error", "\x1b_Gi=31;ENOTSUPPORTED:no\x1b\\\x1bP>|kitty(0.35.2)\x1b\\" + da1, Terminal{}},
		{"OK for another id", "\x1b_Gi=32;OK\x1b\\\x1bP>|kitty(0.35.2)\x1b\\" + da1, Terminal{}},
		{"answers after the device attributes", da1 + kitty035, Terminal{}},
		{"mode 2026 set", "\x1b[?2026;1$y" + da1, Terminal{SyncOutput: true}},
		{"mode 2026 unknown", "\x1b[?2026;0$y" + da1, Terminal{}},
		{"mode 2026 permanently reset", "\x1b[?2026;4$y" + da1, Terminal{}},
		{"another mode", "\x1b[?2004;2$y" + da1, Terminal{}},
		{"mode 2027 reset: grapheme clustering to turn on", "\x1b[?2027;2$y" + da1, Terminal{Graphemes: true}},
		{"mode 2027 set", "\x1b[?2027;1$y" + da1, Terminal{Graphemes: true}},
		{"mode 2027 unknown", "\x1b[?2027;0$y" + da1, Terminal{}},
		{"mode 2027 permanently reset", "\x1b[?2027;4$y" + da1, Terminal{}},
		{"the probe drawn in 6 columns (kitty)", "\x1b[1;7R" + da1, Terminal{ProbeWidth: 6}},
		{"the probe drawn in 12 columns (xterm)", "\x1b[?2027;0$y\x1b[1;13R" + da1, Terminal{ProbeWidth: 12}},
		{"the probe drawn in 8 columns (tmux 3.3)", "\x1b[1;9R" + da1, Terminal{ProbeWidth: 8}},
		{"BEL-terminated, after a late colour answer",
			"\x1b]11;rgb:1e1e/1e1e/2e2e\x07\x1b_Gi=31;OK\x07\x1bP>|kitty(0.42.0)\x07\x1b[?2026;2$y" + da1,
			Terminal{Kitty: true, SyncOutput: true}},
		{"no device attributes: what came by the timeout", kitty035[:len(kitty035)-len("\x1b[?62;c")], Terminal{Kitty: true, SyncOutput: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeTerm(tc.answer)
			a := ask(f, f.setDeadline, question(true), never)
			if got := a.terminal(true); got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
			if f.wrote.String() != question(true) {
				t.Errorf("wrote %q", f.wrote.String())
			}
			if !f.dl.IsZero() {
				t.Error("the deadline was left set")
			}
		})
	}
}

// Where the environment rules placeholders out, the graphics query is not
// sent, and an OK that comes all the same does not count.
func TestNoGraphicsQueryWherePlaceholdersAreRuledOut(t *testing.T) {
	f := newFakeTerm(kitty035)
	got := ask(f, f.setDeadline, question(false), never).terminal(false)
	if got != (Terminal{SyncOutput: true}) {
		t.Errorf("got %+v", got)
	}
	if strings.Contains(f.wrote.String(), "\x1b_G") {
		t.Errorf("wrote the graphics query: %q", f.wrote.String())
	}
}

// The question is one write that ends with the device attributes request,
// whose answer tells the wait is over.
func TestTheQuestionEndsWithTheDeviceAttributes(t *testing.T) {
	for _, graphics := range []bool{false, true} {
		q := question(graphics)
		for _, want := range []string{"\x1b[>0q", "\x1b[?2026$p"} {
			if !strings.Contains(q, want) {
				t.Errorf("graphics=%v: %q lacks %q", graphics, q, want)
			}
		}
		if !strings.HasSuffix(q, ansi.RequestPrimaryDeviceAttributes) {
			t.Errorf("graphics=%v: %q does not end with DA1", graphics, q)
		}
		if strings.HasPrefix(q, graphicsQuery) != graphics {
			t.Errorf("graphics=%v: %q", graphics, q)
		}
	}
}

func TestAnAnswerInPieces(t *testing.T) {
	f := newFakeTerm(kitty035)
	r := &oneByteReader{f}
	if got := ask(r, f.setDeadline, question(true), never).terminal(true); got != (Terminal{Kitty: true, SyncOutput: true}) {
		t.Errorf("an answer read a byte at a time gave %+v", got)
	}
}

// oneByteReader reads its terminal one byte at a time.
type oneByteReader struct{ *fakeTerm }

func (o *oneByteReader) Read(p []byte) (int, error) { return o.fakeTerm.Read(p[:1]) }

func TestAReaderThatNeverReturns(t *testing.T) {
	// A reader that never returns and has no deadline: ask must still give
	// up once the timeout has passed.
	pr, pw := io.Pipe()
	defer pw.Close()
	rw := struct {
		io.Reader
		io.Writer
	}{pr, io.Discard}
	if a := ask(rw, nil, question(true), 20*time.Millisecond); a != (answers{}) {
		t.Errorf("answers without an answer: %+v", a)
	}
	// A deadline the file does not support is the same.
	failing := func(time.Time) error { return errors.New("no deadlines") }
	if a := ask(rw, failing, question(true), 20*time.Millisecond); a != (answers{}) {
		t.Errorf("answers without an answer: %+v", a)
	}
}

func TestAQuestionThatCannotBeWritten(t *testing.T) {
	rw := struct {
		io.Reader
		io.Writer
	}{strings.NewReader(kitty035), failWriter{}}
	if a := ask(rw, nil, question(true), never); a != (answers{}) {
		t.Errorf("answers although the question was never sent: %+v", a)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("closed") }

func TestPlaceholdersArePossible(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{"TERM": "xterm-kitty"}, true},
		{map[string]string{"TERM": "xterm-256color"}, true},
		{map[string]string{"TERM": "foot"}, true},
		{map[string]string{"TERM": "tmux-256color", "TMUX": "/tmp/x", "KITTY_WINDOW_ID": "3"}, false},
		{map[string]string{"TERM": "screen-256color", "KITTY_WINDOW_ID": "3"}, false},
		{map[string]string{"TERM": "xterm-256color", "ZELLIJ": "0"}, false},
		{map[string]string{"TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"}, false},
		{map[string]string{"TERM": "xterm-256color", "KONSOLE_VERSION": "230800"}, false},
		{map[string]string{"TERM": "xterm-256color", "TERM_PROGRAM": "vscode"}, false},
	} {
		if got := placeholdersPossible(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("%v: got %v, want %v", tc.env, got, tc.want)
		}
	}
}

func TestVersionsWithPlaceholders(t *testing.T) {
	for v, want := range map[string]bool{
		"kitty(0.26.5)":    false,
		"kitty(0.27.1)":    false,
		"kitty(0.28.0)":    true,
		"kitty(0.35.2)":    true,
		"kitty(1.0.0)":     true,
		"kitty(0.28)":      true,
		"kitty(x.y)":       false,
		"kitty()":          false,
		"ghostty 1.0.1":    true,
		"Ghostty 1.3.1":    true,
		"ghosttyish 1.0":   false,
		"WezTerm 2024":     false,
		"XTerm(390)":       false,
		"tmux 3.5a":        false,
		"":                 false,
		"kitty(0.35.2":     true, // cut short by the terminal: the number is there
		"notkitty(0.35.2)": false,
	} {
		if got := placeholdersIn(v); got != want {
			t.Errorf("%q: got %v, want %v", v, got, want)
		}
	}
}

func TestScanAnswers(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want answers
	}{
		{"", answers{}},
		{"\x1b_Gi=31;OK", answers{}}, // unfinished
		{"\x1b_Gi=31;OK\x1b", answers{}},
		{"\x1b_Gi=31;OK\x1b\\", answers{graphics: true}},
		{"\x1b_Gi=31;OK\x1b\\\x1b[?6", answers{graphics: true}},
		{"\x1b_Gi=31;OK\x1b\\\x1b[?6c", answers{graphics: true, complete: true}},
		{"junk\x1b[?1;2c", answers{complete: true}},
		{"\x1b_Gi=31,p=1;OK\x1b\\\x1b[?1c", answers{graphics: true, complete: true}},
		{"\x1b[?1;2c\x1b_Gi=31;OK\x1b\\", answers{complete: true}},
		{"\x1bP>|kitty(0.35.2)\x1b\\\x1b[?2026;2$", answers{version: "kitty(0.35.2)"}},
		{"\x1b[?2026;2$y", answers{sync: true}},
		{"\x1b[?2026;x$y", answers{}},
		{"\x1b[>1;4000;29c\x1b[?2026;2$y", answers{sync: true}}, // secondary attributes do not end it
		{"\x1b[?2026;1$y\x1b[", answers{sync: true}},
		{"\x1b", answers{}},
	} {
		if got := scanAnswers([]byte(tc.in)); got != tc.want {
			t.Errorf("%q: got %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

// The width mode comes from the terminal's answer: mode 2027 or the probe
// drawn in 2 columns measure clusters; the probe in 6 columns, or no
// answer at all, measure code points, the safe way (rows come out short,
// never past the edge).
func TestWidthModeFromTheAnswer(t *testing.T) {
	for _, tc := range []struct {
		t    Terminal
		want textfmt.WidthMode
	}{
		{Terminal{Graphemes: true}, textfmt.Clusters},
		{Terminal{Graphemes: true, ProbeWidth: 12}, textfmt.Clusters},
		{Terminal{ProbeWidth: 6}, textfmt.Clusters},
		{Terminal{ProbeWidth: 12}, textfmt.CodePoints},
		{Terminal{ProbeWidth: 8}, textfmt.CodePoints},
		{Terminal{}, textfmt.CodePoints},
	} {
		if got := tc.t.WidthMode(); got != tc.want {
			t.Errorf("%+v: width mode %d, want %d", tc.t, got, tc.want)
		}
	}
}
