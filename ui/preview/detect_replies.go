package preview

import (
	"bytes"
	"os"
	"strconv"
	"sync"
	"time"
)

// maxHeld bounds what replies holds back as the start of an answer not yet
// whole: the longest answer muse asks for (a kitty graphics error, a
// terminal's name and version) is well under it, and it is less than
// Bubble Tea's read buffer (256 bytes), so Input.Read always has room for
// what it held.
const maxHeld = 128

// lateAnswers is how long after Detect gave up waiting Input still takes
// the terminal's answers out of the keys: on a link slower than that, or
// from a terminal that never answers the device attributes, an answer
// still due is taken for typed text.
const lateAnswers = 10 * time.Second

// replies reads the terminal's answers to muse's questions out of what the
// terminal sends, in order, until the primary device attributes, which
// the terminal answers last: the graphics OK, XTVERSION, DECRQM for modes
// 2026 and 2027, the cursor position and the device attributes. Anything
// else (keys typed meanwhile, another program's answer) is passed on
// whole; a sequence not yet whole that may be an answer is held back until
// the rest comes. Once the device attributes came, everything is passed
// on as it is.
type replies struct {
	got  answers
	held []byte // the start of what may be an answer
	done bool   // no answer is expected: everything is passed on
}

// take reads b, what the terminal sent next, records the answers in it,
// and appends the rest to keys, which it returns.
func (r *replies) take(b, keys []byte) []byte {
	if r.done && len(r.held) == 0 {
		return append(keys, b...)
	}
	if len(r.held) > 0 {
		b = append(r.held, b...)
		r.held = nil
	}
	for len(b) > 0 {
		j := bytes.IndexByte(b, 0x1b)
		if r.done || j < 0 {
			return append(keys, b...)
		}
		keys = append(keys, b[:j]...)
		b = b[j:]
		n, whole := r.answer(b)
		switch {
		case !whole && len(b) < maxHeld:
			r.held = append([]byte(nil), b...)
			return keys
		case n > 0:
			b = b[n:]
		default: // not an answer: the escape goes on, and what follows
			keys = append(keys, b[0])
			b = b[1:]
		}
	}
	return keys
}

// answer reads what may be an answer at the start of b, which begins with
// ESC: it returns how many bytes the answer takes (0 when this is not an
// answer) and whether the sequence is whole (false when more must come to
// tell).
func (r *replies) answer(b []byte) (n int, whole bool) {
	if len(b) < 2 {
		return 0, false
	}
	switch b[1] {
	case '_', 'P': // APC, DCS: a string up to ST (or BEL)
		body, n := stringSeq(b[2:])
		switch {
		case n < 0:
			return 0, false
		case b[1] == '_' && bytes.HasPrefix(body, []byte("G")):
			r.got.graphics = r.got.graphics || graphicsOK(body[1:])
		case b[1] == 'P' && bytes.HasPrefix(body, []byte(">|")):
			r.got.version = string(body[2:])
		default:
			return 0, true
		}
		return 2 + n, true
	case '[':
		params, inter, final, n := csiSeq(b[2:])
		switch {
		case n < 0:
			return 0, false
		case final == 'c' && inter == "" && bytes.HasPrefix(params, []byte("?")):
			r.got.complete, r.done = true, true
		case final == 'y' && inter == "$" && bytes.HasPrefix(params, []byte("?2026;")):
			ps, err := strconv.Atoi(string(params[len("?2026;"):]))
			r.got.sync = err == nil && (ps == 1 || ps == 2)
		case final == 'y' && inter == "$" && bytes.HasPrefix(params, []byte("?2027;")):
			ps, err := strconv.Atoi(string(params[len("?2027;"):]))
			r.got.graphemes = err == nil && ps >= 1 && ps <= 3
		case final == 'R' && inter == "" && cursorReport(params):
			if col, ok := bytes.CutPrefix(params, []byte("1;")); ok {
				r.got.probed, _ = strconv.Atoi(string(col))
			}
		default:
			return 0, true
		}
		return 2 + n, true
	}
	return 0, true
}

// cursorReport says whether params are those of a cursor position report,
// row;column.
func cursorReport(params []byte) bool {
	row, col, ok := bytes.Cut(params, []byte(";"))
	return ok && digits(row) && digits(col)
}

// digits says whether b is a number: one or more decimal digits.
func digits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// Input is the terminal's input for the program that reads keys after
// DetectScreen, which asked the terminal questions: the answers that came
// after DetectScreen stopped waiting (over a slow link, on a busy machine)
// are taken out, never passed on as typed text or keys. It passes on
// everything as it is once the terminal's last answer came, or lateAnswers
// after DetectScreen, if it never does.
//
// It is an *os.File for Bubble Tea: a read in flight can still be
// cancelled (Bubble Tea waits for the file's descriptor to be readable
// before it reads), and a read that took only answers returns 0 bytes.
type Input struct {
	*os.File
	mu    sync.Mutex
	r     replies
	until time.Time        // when answers stop being expected
	now   func() time.Time // the clock
}

// newInput is in, with what r still expects taken out until until.
func newInput(in *os.File, r replies, until time.Time, now func() time.Time) *Input {
	return &Input{File: in, r: r, until: until, now: now}
}

// Read reads the keys typed: what the terminal sends, less its answers.
func (in *Input) Read(p []byte) (int, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.r.done && len(in.r.held) == 0 {
		return in.File.Read(p)
	}
	if len(p) <= len(in.r.held) {
		return in.File.Read(p) // too small to take anything out
	}
	n, err := in.File.Read(p[:len(p)-len(in.r.held)])
	if !in.r.done && in.now().After(in.until) {
		in.r.done = true // it will not come: pass everything on
	}
	if n == 1 && p[0] == 0x1b && len(in.r.held) == 0 {
		// A read of ESC alone is the esc key, as Bubble Tea takes it (a
		// terminal writes each answer whole): never held back.
		return n, err
	}
	return len(in.r.take(p[:n], p[:0])), err
}
