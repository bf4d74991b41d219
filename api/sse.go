package api

import (
	"bufio"
	"bytes"
	"io"
)

// sseEvent is one dispatched server-sent event. Its data is valid until
// the next call of Next.
type sseEvent struct {
	name string
	data []byte
	// cut is set when data passed the decoder's max: only its first max
	// bytes were kept, and the rest of the body is not read.
	cut bool
}

// sseDecoder reads server-sent events as the HTML standard describes them:
// one leading byte order mark is skipped; lines end in LF, CRLF or CR; lines
// starting with ':' are comments; data lines join with '\n'; the space after
// "field:" is optional. An event still pending at the end of the body is
// dispatched, because real servers end the body without the final blank line.
//
// Memory is bounded by max, however long a line is: a data line is copied
// into the event's data as it is read, never held whole. An event whose
// data passes max bytes is dispatched at once, cut, and ends the events:
// nothing more of the body is read.
//
// Work is bounded by idleMax: once the bytes read that added nothing to
// the reply (all but those the stream credits to events that did, and the
// data of the event being read) pass it, the events end with
// errNoProgress. The stream raises it as the reply grows. So a body of
// comments, blank lines or pings, however long, is read only so far.
type sseDecoder struct {
	r       *bufio.Reader
	max     int   // the largest data of one event that is kept, in bytes
	read    int64 // bytes of the body read
	credit  int64 // bytes of the events that added to the reply
	idleMax int64 // the most bytes read that add nothing; 0 for no limit
	name    []byte
	data    []byte
	has     bool // a data line was seen in this event
	cut     bool // data past max was dropped
	err     error
	done    bool // the body ended or failed
	started bool // the byte order mark check is done
	skipLF  bool // the last line ended in CR: an LF that follows belongs to it

	// The line being read.
	line    bool   // the line has a byte
	comment bool   // it starts with ':'
	inValue bool   // its colon was seen: what follows is the value
	space   bool   // the next byte of the value is its first: a space there is dropped
	field   []byte // the field name, at most maxField bytes
	long    bool   // the field name is longer than maxField: no field muse reads
	kind    byte   // 'd' for data, 'e' for event, 0 for a field muse ignores
}

// maxField is the longest field name kept; longer ones are none muse reads.
const maxField = 8

// maxEventName is the longest event name kept; the rest is dropped.
const maxEventName = 256

// maxKeptBuffer is the largest data buffer kept for the next event.
const maxKeptBuffer = 64 << 10

// bom is the UTF-8 byte order mark.
var bom = []byte("\xEF\xBB\xBF")

func newSSEDecoder(r io.Reader, max int) *sseDecoder {
	return &sseDecoder{r: bufio.NewReaderSize(r, 32<<10), max: max}
}

// Next returns the next event, or false at the end of the body or on error.
// A line ending in CR is taken at once, without waiting for the next byte:
// an LF that then arrives first is swallowed as the rest of a CRLF.
func (d *sseDecoder) Next() (sseEvent, bool) {
	for !d.done {
		avail, err := d.peek()
		if len(avail) == 0 {
			d.done = true
			if err != io.EOF {
				d.err = err
				return sseEvent{}, false
			}
			if d.line {
				d.endLine()
			}
			return d.dispatch()
		}
		if !d.started {
			d.started = true
			if avail[0] == bom[0] {
				// Maybe a byte order mark: wait for the rest of it.
				if b, _ := d.r.Peek(len(bom)); bytes.Equal(b, bom) {
					d.discard(len(bom))
				}
				continue
			}
		}
		if d.skipLF {
			d.skipLF = false
			if avail[0] == '\n' {
				d.discard(1)
				continue
			}
		}
		i := bytes.IndexAny(avail, "\r\n")
		if i < 0 {
			d.feed(avail)
			d.discard(len(avail))
		} else {
			d.feed(avail[:i])
			d.skipLF = avail[i] == '\r'
			d.discard(i + 1)
		}
		if d.cut {
			d.done = true
			return d.dispatch()
		}
		if d.idleMax > 0 && d.read-d.credit-int64(len(d.data)) > d.idleMax {
			d.done, d.err = true, errNoProgress
			return sseEvent{}, false
		}
		if i < 0 {
			continue
		}
		if !d.line {
			if ev, ok := d.dispatch(); ok {
				return ev, true
			}
			continue
		}
		d.endLine()
	}
	return sseEvent{}, false
}

// discard consumes n bytes of the body, which were peeked.
func (d *sseDecoder) discard(n int) {
	d.r.Discard(n)
	d.read += int64(n)
}

// eventFraming is what an event's lines take besides its name and data:
// "event: ", "data: " and the line ends.
const eventFraming = 32

// progressed tells the decoder that ev, the event it just dispatched,
// added added bytes to the reply, and how many bytes that add nothing it
// may now read in all. The event's bytes are credited up to what its
// JSON needs for what it added (each byte escaped, and some fields
// around): a megabyte of padding around a byte of text adds nothing.
func (d *sseDecoder) progressed(ev sseEvent, added int, idleMax int64) {
	d.credit += int64(min(len(ev.name)+len(ev.data), 256+6*added) + eventFraming)
	d.idleMax = idleMax
}

// peek returns the bytes buffered, reading more when there are none.
func (d *sseDecoder) peek() ([]byte, error) {
	if _, err := d.r.Peek(1); err != nil {
		return nil, err
	}
	return d.r.Peek(d.r.Buffered())
}

// feed takes the next bytes of the line being read, which hold no line end.
func (d *sseDecoder) feed(p []byte) {
	if len(p) == 0 {
		return
	}
	if !d.line {
		d.line = true
		d.comment = p[0] == ':'
	}
	if d.comment {
		return
	}
	if !d.inValue {
		j := bytes.IndexByte(p, ':')
		name := p
		if j >= 0 {
			name = p[:j]
		}
		if len(d.field)+len(name) > maxField {
			d.long = true
		} else {
			d.field = append(d.field, name...)
		}
		if j < 0 {
			return
		}
		d.startValue()
		p = p[j+1:]
	}
	if d.space && len(p) > 0 {
		d.space = false
		if p[0] == ' ' {
			p = p[1:]
		}
	}
	switch d.kind {
	case 'd':
		d.appendData(p)
	case 'e':
		d.name = append(d.name, p[:min(len(p), maxEventName-len(d.name))]...)
	}
}

// startValue begins the value of the field read so far.
func (d *sseDecoder) startValue() {
	d.inValue, d.space, d.kind = true, true, 0
	if d.long {
		return
	}
	switch string(d.field) {
	case "data":
		d.kind = 'd'
		if d.has {
			d.appendData([]byte{'\n'}) // the '\n' that joins data lines
		}
		d.has = true
	case "event":
		d.kind = 'e'
		d.name = d.name[:0]
	}
}

// endLine ends a line that held something; a line without a colon is a
// field name with an empty value.
func (d *sseDecoder) endLine() {
	if !d.comment && !d.inValue {
		d.startValue()
	}
	d.line, d.comment, d.inValue, d.space, d.long, d.kind = false, false, false, false, false, 0
	d.field = d.field[:0]
}

// appendData adds p to the event's data, dropping what passes max. The
// buffer doubles as it grows, up to maxKeptBuffer, then takes max at once,
// and a few bytes more (so that a cut event can be closed in place: see
// salvage). A small one is used again by the next event.
func (d *sseDecoder) appendData(p []byte) {
	if d.cut {
		return
	}
	if room := d.max - len(d.data); len(p) > room {
		p, d.cut = p[:max(room, 0)], true
	}
	if need := len(d.data) + len(p); need > cap(d.data) {
		size := max(2*cap(d.data), need, 256)
		if size > maxKeptBuffer {
			size = d.max // a rare event this large may well be cut: no doubling on the way
		}
		grown := make([]byte, len(d.data), min(size, d.max)+8)
		copy(grown, d.data)
		d.data = grown
	}
	d.data = append(d.data, p...)
}

// dispatch hands over the event read so far, if it has data.
func (d *sseDecoder) dispatch() (sseEvent, bool) {
	if !d.has {
		d.name = d.name[:0]
		return sseEvent{}, false
	}
	ev := sseEvent{name: string(d.name), data: d.data, cut: d.cut}
	d.name = d.name[:0]
	d.data, d.has, d.cut = d.data[:0], false, false
	if cap(d.data) > maxKeptBuffer {
		d.data = nil
	}
	return ev, true
}

// Err returns the read error that ended the events, if any.
func (d *sseDecoder) Err() error { return d.err }
