package transcript

import (
	"bytes"
	"io"
	"slices"
	"unicode/utf8"
)

// window is the input of Import as its json.Decoder reads it: it keeps
// the bytes from a mark on (the value being read, and what was read ahead
// of it), and counts the lines and columns of those it drops, so that an
// error can say where it is in the input without the input being kept.
// It reads at most maxImport bytes: past that it sets tooLarge and ends.
type window struct {
	r    io.Reader
	buf  []byte // the input from base on, as read
	base int64  // the offset of buf[0]
	// served is how much of the input the decoder has been given.
	served int64
	// lines are the newlines before base; col the runes between the last
	// of them (or the start) and base.
	lines, col int
	tooLarge   bool
	readErr    error // a failure to read, other than the end
	eof        bool
}

// readChunk is how much window reads at a time.
const readChunk = 64 << 10

// end returns the offset just past what has been read.
func (w *window) end() int64 { return w.base + int64(len(w.buf)) }

// fill reads more of the input; it reports false when there is no more.
func (w *window) fill() bool {
	for !w.eof {
		if cap(w.buf)-len(w.buf) < readChunk {
			w.buf = slices.Grow(w.buf, readChunk)
		}
		want := min(cap(w.buf)-len(w.buf), int(max(0, maxImport+1-w.end())))
		n, err := w.r.Read(w.buf[len(w.buf) : len(w.buf)+want])
		w.buf = w.buf[:len(w.buf)+n]
		if w.end() > maxImport {
			w.buf = w.buf[:len(w.buf)-int(w.end()-maxImport)]
			w.tooLarge, w.eof = true, true
		}
		if err != nil {
			if err != io.EOF {
				w.readErr = err
			}
			w.eof = true
		}
		if n > 0 {
			return true
		}
	}
	return false
}

// Read gives the decoder the input, from what was read ahead first.
func (w *window) Read(p []byte) (int, error) {
	if w.served == w.end() && !w.fill() {
		return 0, io.EOF
	}
	n := copy(p, w.buf[w.served-w.base:])
	w.served += int64(n)
	return n, nil
}

// byteAt returns the byte of the input at off, reading ahead to it; ok
// is false past the end. off must not lie before the mark.
func (w *window) byteAt(off int64) (c byte, ok bool) {
	for off >= w.end() {
		if !w.fill() {
			return 0, false
		}
	}
	return w.buf[off-w.base], true
}

// from returns what has been read from the offset off on.
func (w *window) from(off int64) []byte { return w.buf[min(max(off-w.base, 0), int64(len(w.buf))):] }

// mark drops the bytes before the offset off, which are not needed again,
// once they are many: off starts a token, never a rune's middle.
func (w *window) mark(off int64) {
	k := int(off - w.base)
	if k < readChunk || k > len(w.buf) {
		return
	}
	w.lines, w.col = w.count(k)
	w.buf = w.buf[:copy(w.buf, w.buf[k:])]
	w.base = off
}

// count returns the newlines before buf[k], and the runes between the last
// of them and buf[k].
func (w *window) count(k int) (lines, col int) {
	head := w.buf[:k]
	nl := bytes.Count(head, []byte{'\n'})
	if nl == 0 {
		return w.lines, w.col + utf8.RuneCount(head)
	}
	return w.lines + nl, utf8.RuneCount(head[bytes.LastIndexByte(head, '\n')+1:])
}

// position returns the line and the column, both from 1, of the offset
// off: at or after the mark, at most the end of what was read.
func (w *window) position(off int64) (line, col int) {
	k := int(min(max(off-w.base, 0), int64(len(w.buf))))
	lines, c := w.count(k)
	return lines + 1, c + 1
}
