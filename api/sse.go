package api

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// sseEvent is one dispatched server-sent event.
type sseEvent struct {
	name string
	data []byte
}

// sseDecoder reads server-sent events as the HTML standard describes them:
// one leading byte order mark is skipped; lines end in LF, CRLF or CR; lines
// starting with ':' are comments; data lines join with '\n'; the space after
// "field:" is optional. An event still pending at the end of the body is
// dispatched, because real servers end the body without the final blank line.
type sseDecoder struct {
	sc      *bufio.Scanner
	name    []byte
	data    bytes.Buffer
	has     bool
	err     error
	max     int  // the largest data of one event, in bytes
	started bool // the byte order mark check is done
	skipLF  bool // the last line ended in CR: an LF that follows belongs to it
}

// bom is the UTF-8 byte order mark.
var bom = []byte("\xEF\xBB\xBF")

func newSSEDecoder(r io.Reader) *sseDecoder {
	d := &sseDecoder{max: MaxEventSize}
	d.sc = bufio.NewScanner(r)
	d.sc.Buffer(make([]byte, 0, 4<<10), MaxEventSize+64)
	d.sc.Split(d.scanLines)
	return d
}

// scanLines splits on LF, CRLF or a lone CR. A line ending in CR is returned
// at once, without waiting for the next byte: an LF that then arrives first is
// swallowed as the rest of a CRLF.
func (d *sseDecoder) scanLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if !d.started {
		if !atEOF && len(data) < len(bom) && bytes.HasPrefix(bom, data) {
			return 0, nil, nil // maybe a byte order mark: wait for the rest
		}
		d.started = true
		if bytes.HasPrefix(data, bom) {
			return len(bom), nil, nil
		}
	}
	if d.skipLF && len(data) > 0 {
		d.skipLF = false
		if data[0] == '\n' {
			return 1, nil, nil
		}
	}
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
		if data[i] == '\r' {
			if i+1 < len(data) {
				if data[i+1] == '\n' {
					return i + 2, data[:i], nil
				}
			} else {
				d.skipLF = true
			}
		}
		return i + 1, data[:i], nil
	}
	if atEOF {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// Next returns the next event, or false at the end of the body or on error.
func (d *sseDecoder) Next() (sseEvent, bool) {
	for d.sc.Scan() {
		line := d.sc.Bytes()
		if len(line) == 0 {
			if ev, ok := d.dispatch(); ok {
				return ev, true
			}
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value, found := bytes.Cut(line, []byte{':'})
		if found && len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
		switch string(field) {
		case "event":
			d.name = append(d.name[:0], value...)
		case "data":
			size := d.data.Len() + len(value)
			if d.has {
				size++ // the '\n' that joins data lines
			}
			if size > d.max {
				d.err = ErrEventTooLarge
				return sseEvent{}, false
			}
			if d.has {
				d.data.WriteByte('\n')
			}
			d.data.Write(value)
			d.has = true
		}
	}
	if err := d.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = ErrEventTooLarge
		}
		d.err = err
		return sseEvent{}, false
	}
	return d.dispatch()
}

func (d *sseDecoder) dispatch() (sseEvent, bool) {
	if !d.has {
		d.name = d.name[:0]
		return sseEvent{}, false
	}
	ev := sseEvent{name: string(d.name), data: bytes.Clone(d.data.Bytes())}
	d.name = d.name[:0]
	d.data.Reset()
	d.has = false
	return ev, true
}

// Err returns the read error that ended the events, if any.
func (d *sseDecoder) Err() error { return d.err }
