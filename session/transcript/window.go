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
//
// What it keeps is a buffer and, once that holds a segment's worth, whole
// segments after it, which are never copied to grow: a buffer grown to
// hold an entry too large for a record held the old buffer and the new
// at once, twice the limit; the segments are joined into the buffer only
// when a value of them is wanted whole (see slice).
type window struct {
	r    io.Reader
	buf  []byte // the input from base on, as read
	base int64  // the offset of buf[0]
	// over are the segments that follow buf, each of segment bytes
	// but the last; overLen is their length.
	over    [][]byte
	overLen int
	// served is how much of the input the decoder has been given.
	served int64
	// lines are the newlines before base; col the runes between the last
	// of them (or the start) and base.
	lines, col int
	tooLarge   bool
	readErr    error // a failure to read, other than the end
	eof        bool
}

// readChunk is how much window reads at a time; segment the size of a
// segment.
const (
	readChunk = 64 << 10
	segment   = 1 << 20
)

// held returns how many bytes the window holds.
func (w *window) held() int { return len(w.buf) + w.overLen }

// end returns the offset just past what has been read.
func (w *window) end() int64 { return w.base + int64(w.held()) }

// room returns where the next bytes read go: the buffer, grown as needed
// until it is a segment, or the last segment, or a new one.
func (w *window) room() []byte {
	if len(w.over) == 0 && (cap(w.buf)-len(w.buf) >= readChunk || cap(w.buf) < segment) {
		if cap(w.buf)-len(w.buf) < readChunk {
			w.buf = slices.Grow(w.buf, readChunk)
		}
		return w.buf[len(w.buf):cap(w.buf)]
	}
	if n := len(w.over); n == 0 || len(w.over[n-1]) == segment {
		w.over = append(w.over, make([]byte, 0, segment))
	}
	last := w.over[len(w.over)-1]
	return last[len(last):segment]
}

// fill reads more of the input; it reports false when there is no more.
func (w *window) fill() bool {
	for !w.eof {
		room := w.room()
		want := min(len(room), readChunk, int(max(0, maxImport+1-w.end())))
		n, err := w.r.Read(room[:want])
		if len(w.over) == 0 {
			w.buf = w.buf[:len(w.buf)+n]
		} else {
			last := &w.over[len(w.over)-1]
			*last = (*last)[:len(*last)+n]
			w.overLen += n
		}
		if over := w.end() - maxImport; over > 0 {
			w.drop(int(over))
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

// drop drops the last n bytes read.
func (w *window) drop(n int) {
	if len(w.over) == 0 {
		w.buf = w.buf[:len(w.buf)-n]
		return
	}
	last := &w.over[len(w.over)-1]
	*last = (*last)[:len(*last)-n]
	w.overLen -= n
}

// at returns the bytes held from the offset off on, up to the end of the
// buffer or segment that holds it: off must be held.
func (w *window) at(off int64) []byte {
	k := int(off - w.base)
	if k < len(w.buf) {
		return w.buf[k:]
	}
	k -= len(w.buf)
	return w.over[k/segment][k%segment:]
}

// Read gives the decoder the input, from what was read ahead first.
func (w *window) Read(p []byte) (int, error) {
	if w.served == w.end() && !w.fill() {
		return 0, io.EOF
	}
	n := copy(p, w.at(w.served))
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
	if k := off - w.base; k < int64(len(w.buf)) {
		return w.buf[k], true
	}
	return w.at(off)[0], true
}

// join joins the segments to the buffer, in one of the size of both.
func (w *window) join() {
	if len(w.over) == 0 {
		return
	}
	b := make([]byte, 0, w.held()+readChunk)
	b = append(b, w.buf...)
	for _, s := range w.over {
		b = append(b, s...)
	}
	w.buf, w.over, w.overLen = b, nil, 0
}

// slice returns the bytes of the input from the offset from to to, which
// must have been read and not dropped; it is valid until the next mark.
func (w *window) slice(from, to int64) []byte {
	if to-w.base > int64(len(w.buf)) {
		w.join()
	}
	return w.buf[from-w.base : to-w.base : to-w.base]
}

// rewind makes the offset off, which must not lie before the mark, the
// next byte Read gives.
func (w *window) rewind(off int64) { w.served = off }

// from returns what has been read from the offset off on.
func (w *window) from(off int64) []byte {
	w.join()
	return w.buf[min(max(off-w.base, 0), int64(len(w.buf))):]
}

// mark drops the bytes before the offset off, which are not needed again,
// once they are many: off starts a token, never a rune's middle. The bytes
// kept move to the front of the buffer, or to a buffer of their size when
// they fill little of a large one or follow it in segments.
func (w *window) mark(off int64) {
	k := int(off - w.base)
	if k < readChunk || k > w.held() {
		return
	}
	w.lines, w.col = w.count(k)
	if rest := w.held() - k; len(w.over) > 0 || cap(w.buf) > 16*readChunk && rest < cap(w.buf)/4 {
		b := make([]byte, 0, max(rest, readChunk)+readChunk)
		for at := off; at < w.end(); {
			piece := w.at(at)
			b = append(b, piece...)
			at += int64(len(piece))
		}
		w.buf, w.over, w.overLen = b, nil, 0
	} else {
		w.buf = w.buf[:copy(w.buf, w.buf[k:])]
	}
	w.base = off
}

// count returns the newlines before the byte k held, and the runes between
// the last of them and it. A rune may lie across two segments.
func (w *window) count(k int) (lines, col int) {
	lines, col = w.lines, w.col
	for at := w.base; at < w.base+int64(k); {
		piece := w.at(at)
		head := piece[:min(len(piece), int(w.base+int64(k)-at))]
		if nl := bytes.Count(head, []byte{'\n'}); nl > 0 {
			lines, col = lines+nl, 0
			head = head[bytes.LastIndexByte(head, '\n')+1:]
		}
		col += runeStarts(head)
		at += int64(len(piece))
	}
	return lines, col
}

// runeStarts counts the runes that start in b, which may begin or end in
// the middle of one: of valid UTF-8, utf8.RuneCount.
func runeStarts(b []byte) int {
	n := 0
	for _, c := range b {
		if utf8.RuneStart(c) {
			n++
		}
	}
	return n
}

// position returns the line and the column, both from 1, of the offset
// off: at or after the mark, at most the end of what was read.
func (w *window) position(off int64) (line, col int) {
	k := int(min(max(off-w.base, 0), int64(w.held())))
	lines, c := w.count(k)
	return lines + 1, c + 1
}
