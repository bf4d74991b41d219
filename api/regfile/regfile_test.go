package regfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A regular file is read whole up to the limit; past it, the error says
// the limit; a directory and a missing path are refused as what they are.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.toml")
	if err := os.WriteFile(path, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, err := Read(path, 10); err != nil || string(data) != "0123456789" {
		t.Errorf("Read = %q, %v", data, err)
	}
	var tooLarge *TooLargeError
	if _, err := Read(path, 9); !errors.As(err, &tooLarge) {
		t.Errorf("9 bytes allowed: %v", err)
	}
	if err := (&TooLargeError{Limit: 64 << 10}); err.Error() != "larger than 64 KiB" {
		t.Errorf("%q", err.Error())
	}
	var notRegular *NotRegularError
	if _, err := Read(dir, 10); !errors.As(err, &notRegular) || err.Error() != "it is a directory, not a regular file" {
		t.Errorf("a directory: %v", err)
	}
	if _, err := Read(filepath.Join(dir, "gone"), 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}

// TestReadAllStopsPastTheLimit checks that a stream past the limit is
// refused with its first limit bytes, after reading at most one byte more.
func TestReadAllStopsPastTheLimit(t *testing.T) {
	src := &countingReader{r: strings.NewReader(strings.Repeat("x", 1<<20))}
	data, err := ReadAll(src, 100)
	var tooLarge *TooLargeError
	if !errors.As(err, &tooLarge) || len(data) != 100 {
		t.Fatalf("ReadAll = %d bytes, %v; want 100 and a TooLargeError", len(data), err)
	}
	if src.n > 101 {
		t.Errorf("read %d bytes of the stream for a limit of 100", src.n)
	}
	if err.Error() != "larger than 100 bytes" {
		t.Errorf("error %q", err)
	}
	data, err = ReadAll(strings.NewReader("abc"), 3)
	if err != nil || string(data) != "abc" {
		t.Fatalf("ReadAll at the limit = %q, %v", data, err)
	}
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}
