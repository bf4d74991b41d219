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
)

// fakeTerm is a terminal for queryKitty: what the program writes is kept,
// and once the query is written the answer becomes readable. Reads honour
// the deadline set with setDeadline; a terminal with no answer blocks until
// then.
type fakeTerm struct {
	answer string
	mu     sync.Mutex
	cond   *sync.Cond
	wrote  bytes.Buffer
	unread []byte
	dl     time.Time
	timer  *time.Timer
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
	if strings.Contains(f.wrote.String(), kittyQuery) {
		f.unread = append(f.unread, f.answer...)
		f.cond.Broadcast()
	}
	return len(p), nil
}

func (f *fakeTerm) Read(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(f.unread) == 0 {
		if !f.dl.IsZero() && !time.Now().Before(f.dl) {
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
	if f.timer != nil {
		f.timer.Stop()
	}
	if !t.IsZero() {
		f.timer = time.AfterFunc(time.Until(t), func() {
			f.mu.Lock()
			f.cond.Broadcast()
			f.mu.Unlock()
		})
	}
	return nil
}

const da1 = "\x1b[?62;22c"

func TestQueryKitty(t *testing.T) {
	for _, tc := range []struct {
		name, answer string
		want         bool
	}{
		{"OK then DA1", "\x1b_Gi=31;OK\x1b\\" + da1, true},
		{"only DA1", da1, false},
		{"error then DA1", "\x1b_Gi=31;ENOTSUPPORTED:no\x1b\\" + da1, false},
		{"OK for another id", "\x1b_Gi=32;OK\x1b\\" + da1, false},
		{"DA1 then OK", da1 + "\x1b_Gi=31;OK\x1b\\", false},
		{"OK without DA1", "\x1b_Gi=31;OK\x1b\\", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeTerm(tc.answer)
			got := queryKitty(f, f.setDeadline, 100*time.Millisecond)
			if got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			if f.wrote.String() != "\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\\x1b[c" {
				t.Errorf("wrote %q", f.wrote.String())
			}
			if !f.dl.IsZero() {
				t.Error("the deadline was left set")
			}
		})
	}
}

func TestQueryKittyAnswerInPieces(t *testing.T) {
	f := newFakeTerm("")
	f.answer = "\x1b_Gi=31;OK\x1b\\" + da1
	r := &oneByteReader{f}
	if !queryKitty(r, f.setDeadline, 100*time.Millisecond) {
		t.Error("an answer read a byte at a time was missed")
	}
}

// oneByteReader reads its terminal one byte at a time.
type oneByteReader struct{ *fakeTerm }

func (o *oneByteReader) Read(p []byte) (int, error) { return o.fakeTerm.Read(p[:1]) }

func TestQueryKittyNoAnswer(t *testing.T) {
	f := newFakeTerm("")
	start := time.Now()
	if queryKitty(f, f.setDeadline, 50*time.Millisecond) {
		t.Error("true without an answer")
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("took %s", d)
	}
}

func TestQueryKittyNoDeadline(t *testing.T) {
	// A reader that never returns and has no deadline: queryKitty must still
	// give up in time.
	pr, pw := io.Pipe()
	defer pw.Close()
	rw := struct {
		io.Reader
		io.Writer
	}{pr, io.Discard}
	start := time.Now()
	if queryKitty(rw, nil, 50*time.Millisecond) {
		t.Error("true without an answer")
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("took %s", d)
	}
	// A deadline the file does not support is the same.
	failing := func(time.Time) error { return errors.New("no deadlines") }
	if queryKitty(rw, failing, 50*time.Millisecond) {
		t.Error("true without an answer")
	}
}

func TestQueryKittyWriteFails(t *testing.T) {
	rw := struct {
		io.Reader
		io.Writer
	}{strings.NewReader("\x1b_Gi=31;OK\x1b\\" + da1), failWriter{}}
	if queryKitty(rw, nil, 50*time.Millisecond) {
		t.Error("true although the query was never sent")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("closed") }

func TestKittyFromEnv(t *testing.T) {
	for _, tc := range []struct {
		env         map[string]string
		want, known bool
	}{
		{map[string]string{"TERM": "xterm-kitty"}, true, true},
		{map[string]string{"TERM": "xterm-256color", "KITTY_WINDOW_ID": "3"}, true, true},
		{map[string]string{"TERM": "xterm-ghostty"}, true, true},
		{map[string]string{"TERM": "xterm-256color", "TERM_PROGRAM": "ghostty"}, true, true},
		{map[string]string{"TERM": "dumb"}, false, true},
		{map[string]string{}, false, true},
		{map[string]string{"TERM": "tmux-256color", "TMUX": "/tmp/x", "KITTY_WINDOW_ID": "3"}, false, true},
		{map[string]string{"TERM": "screen-256color", "KITTY_WINDOW_ID": "3"}, false, true},
		{map[string]string{"TERM": "xterm-256color", "ZELLIJ": "0"}, false, true},
		{map[string]string{"TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"}, false, true},
		{map[string]string{"TERM": "xterm-256color", "KONSOLE_VERSION": "230800"}, false, true},
		{map[string]string{"TERM": "xterm-256color", "TERM_PROGRAM": "vscode"}, false, true},
		{map[string]string{"TERM": "xterm-256color"}, false, false},
		{map[string]string{"TERM": "foot"}, false, false},
	} {
		v, known := kittyFromEnv(func(k string) string { return tc.env[k] })
		if v != tc.want || known != tc.known {
			t.Errorf("%v: got %v, %v; want %v, %v", tc.env, v, known, tc.want, tc.known)
		}
	}
}

func TestDetectKittyNotATerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "notatty")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	kitty := func(k string) string {
		if k == "TERM" {
			return "xterm-kitty"
		}
		return ""
	}
	if DetectKitty(kitty, f, 50*time.Millisecond) {
		t.Error("true for a file")
	}
	if DetectKitty(kitty, nil, 50*time.Millisecond) {
		t.Error("true for no tty")
	}
}

func TestScanReplies(t *testing.T) {
	for _, tc := range []struct {
		in      string
		ok, da1 bool
	}{
		{"", false, false},
		{"\x1b_Gi=31;OK", false, false}, // unfinished
		{"\x1b_Gi=31;OK\x1b\\", true, false},
		{"\x1b_Gi=31;OK\x1b\\\x1b[?6", true, false},
		{"\x1b_Gi=31;OK\x1b\\\x1b[?6c", true, true},
		{"junk\x1b[?1;2c", false, true},
		{"\x1b_Gi=31,p=1;OK\x1b\\\x1b[?1c", true, true},
		{"\x1b[?1;2c\x1b_Gi=31;OK\x1b\\", false, true},
	} {
		ok, d := scanReplies([]byte(tc.in))
		if ok != tc.ok || d != tc.da1 {
			t.Errorf("%q: got %v, %v; want %v, %v", tc.in, ok, d, tc.ok, tc.da1)
		}
	}
}
