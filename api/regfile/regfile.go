// Package regfile reads a file the user named by its path (a config file,
// a theme, a tools or schema file) whole, up to a limit, and only if it is
// a regular file: a named pipe, a device or a directory is refused without
// waiting on it (opening a named pipe for reading waits for a writer, and
// a device such as /dev/zero never ends). It is muse's one bounded reader
// of such files; attachments, which sniff their kind first, have their own
// in ui/attach.
//
// [ReadAll] is the same bound for a stream (standard input, a command's
// output, a body, a file already open): muse's one "read at most N bytes".
//
// It sits under api/, the lowest layer, because api/demo, session and ui
// all read with it; like api, it imports nothing of muse.
package regfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// NotRegularError is the error for a path that is not a regular file.
type NotRegularError struct {
	Mode fs.FileMode
}

// Error says what the path is instead, such as "it is a named pipe, not a
// regular file".
func (e *NotRegularError) Error() string {
	return "it is " + e.What() + ", not a regular file"
}

// What names what the path is, such as "a named pipe".
func (e *NotRegularError) What() string {
	switch m := e.Mode; {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a file"
}

// TooLargeError is the error for a file larger than the limit.
type TooLargeError struct {
	Limit int64
}

// Error says what the limit is, such as "larger than 64 KiB".
func (e *TooLargeError) Error() string {
	switch {
	case e.Limit%(1<<20) == 0:
		return fmt.Sprintf("larger than %d MiB", e.Limit>>20)
	case e.Limit%(1<<10) == 0:
		return fmt.Sprintf("larger than %d KiB", e.Limit>>10)
	}
	return fmt.Sprintf("larger than %d bytes", e.Limit)
}

// Read reads the regular file at path, at most limit bytes. The path is
// opened without blocking and what was opened is checked, so a path that
// becomes a named pipe meanwhile is refused too. A file past limit is a
// [*TooLargeError], and no more than limit+1 bytes of it are read; what is
// not a regular file is a [*NotRegularError]; the errors of opening it
// (fs.ErrNotExist, fs.ErrPermission) are returned as they are.
func Read(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &NotRegularError{Mode: st.Mode()}
	}
	data, err := ReadAll(f, limit)
	if err != nil {
		return nil, err
	}
	return data, nil
}

// ReadAll reads r to its end, at most limit bytes. A longer stream is a
// [*TooLargeError], returned with its first limit bytes; no more than
// limit+1 bytes of it are read. Another error of r is returned with what
// was read before it.
func ReadAll(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return data, err
	}
	if int64(len(data)) > limit {
		return data[:limit], &TooLargeError{Limit: limit}
	}
	return data, nil
}
