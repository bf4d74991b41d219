package fileio

import (
	"bufio"
	"errors"
)

// Line is one line of a file as read by ReadLine.
type Line struct {
	Data    []byte // the line without its newline; empty when TooLong
	Size    int    // bytes read, newline included
	Newline bool   // the line ended in a newline
	TooLong bool   // the line held more than max bytes, which were discarded
}

// ReadLine reads the next line from r into buf[:0], keeping at most max bytes
// of it. It returns io.EOF with the last line when that has no newline, and
// with an empty line at the end of the input.
func ReadLine(r *bufio.Reader, buf []byte, max int) (Line, error) {
	l := Line{Data: buf[:0]}
	for {
		chunk, err := r.ReadSlice('\n')
		l.Size += len(chunk)
		if err == nil {
			chunk = chunk[:len(chunk)-1]
			l.Newline = true
		}
		if !l.TooLong {
			if len(l.Data)+len(chunk) > max {
				l.TooLong = true
				l.Data = l.Data[:0]
			} else {
				l.Data = append(l.Data, chunk...)
			}
		}
		switch {
		case err == nil:
			return l, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return l, err
		}
	}
}
