package fileio

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

func TestReadLine(t *testing.T) {
	// A 16-byte buffer makes lines span several ReadSlice calls.
	r := bufio.NewReaderSize(strings.NewReader("short\n"+strings.Repeat("x", 40)+"\n"+strings.Repeat("y", 20)+"\n\nlast-no-newline"), 16)
	type want struct {
		data          string
		size          int
		newline, long bool
		err           error
	}
	for i, w := range []want{
		{"short", 6, true, false, nil},
		{"", 41, true, true, nil},
		{strings.Repeat("y", 20), 21, true, false, nil},
		{"", 1, true, false, nil},
		{"last-no-newline", 15, false, false, io.EOF},
		{"", 0, false, false, io.EOF},
	} {
		l, err := ReadLine(r, nil, 30)
		if string(l.Data) != w.data || l.Size != w.size || l.Newline != w.newline || l.TooLong != w.long || err != w.err {
			t.Errorf("line %d = {%q %d %v %v} %v, want %+v", i+1, l.Data, l.Size, l.Newline, l.TooLong, err, w)
		}
	}
}
