package transcript

import (
	"bytes"
	"io"
)

// CleanWriter writes what is written to it through a cleaning function,
// such as the sanitizer's, a whole number of lines at a time: a line is
// never split, so neither is a rune or what the function looks at within a
// line, and a long transcript is cleaned as it is written, not held whole.
type CleanWriter struct {
	w     io.Writer
	clean func([]byte) []byte
	buf   []byte // what follows the last newline written
	err   error
}

// NewCleanWriter returns a CleanWriter that writes to w what clean makes
// of each run of whole lines. Flush writes the last line, if it has no
// newline.
func NewCleanWriter(w io.Writer, clean func([]byte) []byte) *CleanWriter {
	return &CleanWriter{w: w, clean: clean}
}

// Write writes the whole lines of p, with what was written before them,
// and keeps the rest for the next Write or Flush.
func (c *CleanWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	i := bytes.LastIndexByte(p, '\n')
	if i < 0 {
		c.buf = append(c.buf, p...)
		return len(p), nil
	}
	lines := p[:i+1]
	if len(c.buf) > 0 {
		c.buf = append(c.buf, lines...)
		lines = c.buf
	}
	if _, err := c.w.Write(c.clean(lines)); err != nil {
		c.err = err
		return 0, err
	}
	c.buf = append(c.buf[:0], p[i+1:]...)
	return len(p), nil
}

// Flush writes what waits: the last line, which has no newline.
func (c *CleanWriter) Flush() error {
	if c.err != nil || len(c.buf) == 0 {
		return c.err
	}
	_, err := c.w.Write(c.clean(c.buf))
	c.buf = c.buf[:0]
	c.err = err
	return err
}
