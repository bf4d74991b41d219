package preview

import (
	"io"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// ask is listen for the tests that read only the answers.
func ask(rw io.ReadWriter, deadline func(time.Time) error, q string, timeout time.Duration) answers {
	return listen(rw, deadline, q, timeout).got
}

// scanAnswers reads b as the terminal's whole answer.
func scanAnswers(b []byte) answers {
	var r replies
	r.take(b, nil)
	return r.got
}

// Every answer muse asks for, alone, as terminals give them.
var replyShapes = []struct {
	name, reply string
	want        answers
}{
	{"graphics OK", "\x1b_Gi=31;OK\x1b\\", answers{graphics: true}},
	{"graphics error", "\x1b_Gi=31;ENOENT:no such image\x1b\\", answers{}},
	{"graphics OK ended by BEL", "\x1b_Gi=31;OK\x07", answers{graphics: true}},
	{"XTVERSION (tmux)", "\x1bP>|tmux 3.3a\x1b\\", answers{version: "tmux 3.3a"}},
	{"XTVERSION (kitty)", "\x1bP>|kitty(0.35.2)\x1b\\", answers{version: "kitty(0.35.2)"}},
	{"DECRQM 2026", "\x1b[?2026;2$y", answers{sync: true}},
	{"DECRQM 2026 unknown", "\x1b[?2026;0$y", answers{}},
	{"DECRQM 2027", "\x1b[?2027;1$y", answers{graphemes: true}},
	{"cursor position", "\x1b[1;13R", answers{probed: 13}},
	{"cursor position off the first row", "\x1b[3;7R", answers{}},
	{"device attributes", "\x1b[?62;22c", answers{complete: true}},
	{"device attributes (kitty)", "\x1b[?62;c", answers{complete: true}},
}

// Each answer is taken out of the keys around it, and recorded, however
// the terminal's bytes are cut into reads: at every byte boundary, and a
// byte at a time.
func TestRepliesTakeEachAnswerOutAtEverySplit(t *testing.T) {
	for _, tc := range replyShapes {
		in := "ab" + tc.reply + "cd"
		for i := 0; i <= len(in); i++ {
			var r replies
			keys := r.take([]byte(in[:i]), nil)
			keys = r.take([]byte(in[i:]), keys)
			if string(keys) != "abcd" || r.got != tc.want || len(r.held) != 0 {
				t.Errorf("%s cut at %d: keys %q, answers %+v, held %q; want \"abcd\", %+v", tc.name, i, keys, r.got, r.held, tc.want)
			}
		}
		var r replies
		var keys []byte
		for i := range len(in) {
			keys = r.take([]byte{in[i]}, keys)
		}
		if string(keys) != "abcd" || r.got != tc.want {
			t.Errorf("%s a byte at a time: keys %q, answers %+v", tc.name, keys, r.got)
		}
	}
}

// The answers of tmux 3.3a to the chat screen's question, all in one, cut
// into two reads at every byte, with keys typed before: only the keys are
// left, and the answers are those of the whole.
func TestRepliesTakeTheWholeAnswerOutAtEverySplit(t *testing.T) {
	tmux := "\x1bP>|tmux 3.3a\x1b\\" + "\x1b[?2026;2$y" + "\x1b[?2027;0$y" + "\x1b[1;9R" + "\x1b[?1;2;4c"
	want := answers{version: "tmux 3.3a", sync: true, probed: 9, complete: true}
	in := "hi" + tmux + "\x1b[1;9R" // after the device attributes, nothing is taken
	for i := 0; i <= len(in); i++ {
		var r replies
		keys := r.take([]byte(in[:i]), nil)
		keys = r.take([]byte(in[i:]), keys)
		if string(keys) != "hi\x1b[1;9R" || r.got != want {
			t.Errorf("cut at %d: keys %q, answers %+v", i, keys, r.got)
		}
	}
}

// Keys, even those that begin as an answer does, are passed on whole.
func TestRepliesPassKeysOn(t *testing.T) {
	for _, keys := range []string{
		"hello", "\x1b[A", "\x1b[1;5C", "\x1bx", "\x1b\x1b[A", "\x1b[200~pasted\x1b[201~", "é👍🏽",
		"\x1b[>1;4000;29c",                 // secondary device attributes: not the last answer
		"\x1b[?2004;2$y",                   // a mode muse did not ask about
		"\x1b]11;rgb:1e1e/1e1e/2e2e\x07",   // another question's answer
		"\x1bPq#0;2;0;0;0#0!10~-\x1b\\",    // a DCS that is no XTVERSION
		"\x1b[" + strings.Repeat("1", 300), // too long to be an answer
	} {
		for i := 0; i <= len(keys); i++ {
			var r replies
			got := r.take([]byte(keys[:i]), nil)
			got = r.take([]byte(keys[i:]), got)
			got = r.take([]byte("\x1b[?62c"), got) // the answer that ends it
			if string(got) != keys {
				t.Errorf("%q cut at %d: passed on %q", keys, i, got)
			}
		}
	}
}

// The cost of reading is in proportion to what is read: a long paste with
// no answer in it is passed on at once, never held back.
func TestRepliesHoldOnlyTheStartOfAnAnswer(t *testing.T) {
	var r replies
	paste := strings.Repeat("x", 1<<16)
	if got := r.take([]byte(paste+"\x1b[?20"), nil); string(got) != paste || string(r.held) != "\x1b[?20" {
		t.Errorf("passed on %d bytes, held %q", len(got), r.held)
	}
}

// Input, on the terminal's side of a pipe: answers that come after the
// wait are taken out of the keys read, however they are cut, until the
// last; then, or once lateAnswers has passed, everything is passed on.
func TestInputTakesLateAnswersOut(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	now := time.Date(2026, 11, 28, 15, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	// Detect stopped waiting halfway through the XTVERSION answer.
	var r replies
	r.take([]byte("\x1bP>|tmu"), nil)
	in := newInput(pr, r, now.Add(lateAnswers), clock)
	buf := make([]byte, 256)
	read := func(typed string) string {
		t.Helper()
		if _, err := pw.WriteString(typed); err != nil {
			t.Fatal(err)
		}
		n, err := in.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		return string(buf[:n])
	}
	for _, step := range []struct{ typed, read string }{
		{"x 3.3a\x1b", ""},
		{"\\a", "a"},
		{"\x1b[?2026;2$yb\x1b[1;", "b"},
		{"9R", ""},
		{"\x1b[?62;c\x1b[1;9R", "\x1b[1;9R"}, // the last answer: keys after it go on as they are
		{"\x1bP>|tmux 3.3a\x1b\\", "\x1bP>|tmux 3.3a\x1b\\"},
	} {
		if got := read(step.typed); got != step.read {
			t.Errorf("typed %q: read %q, want %q", step.typed, got, step.read)
		}
	}

	// A terminal that never gives its last answer: after lateAnswers, what
	// it held back and everything after goes on.
	in = newInput(pr, replies{}, now.Add(lateAnswers), clock)
	if got := read("\x1b"); got != "\x1b" {
		t.Errorf("esc, read alone, gave %q: the key is never held back", got)
	}
	if got := read("\x1b[?2026;2$y\x1b"); got != "" {
		t.Errorf("read %q before lateAnswers", got)
	}
	now = now.Add(lateAnswers + time.Second)
	if got := read("[1;9R"); got != "\x1b[1;9R" {
		t.Errorf("read %q after lateAnswers", got)
	}
}

// countingTerm counts the reads of its terminal in flight.
type countingTerm struct {
	*fakeTerm
	inFlight atomic.Int32
}

func (c *countingTerm) Read(p []byte) (int, error) {
	c.inFlight.Add(1)
	defer c.inFlight.Add(-1)
	return c.fakeTerm.Read(p)
}

// Once listen returns, whether the last answer came or the wait ended, no
// read of the terminal is left in flight to take the keys typed next
// from the program that reads them.
func TestListenLeavesNoReadInFlight(t *testing.T) {
	for _, answer := range []string{kitty035, "", "\x1bP>|tmu"} {
		f := &countingTerm{fakeTerm: newFakeTerm(answer)}
		r := listen(f, f.setDeadline, question(true), 20*time.Millisecond)
		if n := f.inFlight.Load(); n != 0 {
			t.Errorf("answer %q: %d reads in flight", answer, n)
		}
		if r.done != (answer == kitty035) {
			t.Errorf("answer %q: done %v", answer, r.done)
		}
	}
}
