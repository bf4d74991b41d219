// Package fileio holds the file primitives the session journal and the
// prompt history share: private folders and files, appends of a whole line
// with one write, files replaced atomically, the temporary files a crash
// left, lines read with a bound, and opens that never follow a link.
package fileio

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Modes of muse's folders and files: conversations are private.
const (
	DirMode  fs.FileMode = 0o700
	FileMode fs.FileMode = 0o600
)

// Chmod is os.Chmod; tests make it fail, as it does on a directory muse may
// only read (another user's, a read-only file system).
var Chmod = os.Chmod

// MakeDir creates dir and its missing parents with mode DirMode, whatever the
// umask, and sets dir itself to DirMode. Existing parents are left alone.
func MakeDir(dir string) error {
	var missing []string
	for p := dir; ; {
		if _, err := os.Lstat(p); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		missing = append(missing, p)
		parent := filepath.Dir(p)
		if parent == p {
			break
		}
		p = parent
	}
	if err := os.MkdirAll(dir, DirMode); err != nil {
		return err
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	if len(missing) == 0 {
		missing = []string{dir}
	}
	for _, p := range missing {
		if fi, err := os.Stat(p); err == nil && fi.Mode().Perm() == DirMode {
			continue
		}
		if err := Chmod(p, DirMode); err != nil && p != dir {
			return err
		}
		// An existing store that cannot be chmodded (another user's, a
		// read-only file system) can still be read.
	}
	return nil
}

// AppendLine writes line at the end of f, a regular file opened for
// reading and appending, with a single write. If the file does not end in a
// newline (an earlier write was cut short), the line is preceded by one so
// that it stays a line of its own. It reports whether the file was empty.
func AppendLine(f *os.File, path string, line []byte) (empty bool, err error) {
	fi, err := f.Stat()
	if err != nil {
		return false, err
	}
	if !fi.Mode().IsRegular() {
		return false, fmt.Errorf("%s is not a regular file", path)
	}
	if size := fi.Size(); size > 0 {
		var last [1]byte
		if _, err := f.ReadAt(last[:], size-1); err != nil {
			return false, err
		}
		if last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	if _, err = f.Write(line); err != nil {
		// A short write (a full disk) would leave half a record: take it
		// back, so that the next attempt starts on a clean line.
		_ = f.Truncate(fi.Size())
	}
	return fi.Size() == 0, err
}

// SyncDir syncs the directory dir so that a file created in it survives a
// crash. File systems that cannot sync a directory are not an error.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, errors.ErrUnsupported) && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}

// WriteAtomic replaces the file at path with data, mode 0600, so that a
// crash leaves either the old file or the new one.
func WriteAtomic(path string, data []byte) error {
	tmp, err := WriteTemp(path, data)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return SyncDir(filepath.Dir(path))
}

// WriteNew writes data to a new file at path, mode 0600, that appears whole
// or not at all: it is written beside, then linked to its name. A name
// already taken gives an error that matches fs.ErrExist, and the file there
// is left as it was.
func WriteNew(path string, data []byte) error {
	tmp, err := WriteTemp(path, data)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(path))
}

// WriteTemp writes data, synced, to a new temporary file beside path, mode
// 0600, named as RemoveTemps expects, and returns its name. A failure
// leaves no file.
func WriteTemp(path string, data []byte) (name string, err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return "", err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(FileMode); err != nil { // whatever the umask
		return "", err
	}
	if _, err := tmp.Write(data); err != nil {
		return "", err
	}
	if err := tmp.Sync(); err != nil {
		return "", err
	}
	return tmp.Name(), tmp.Close()
}

// LinkedDirError is the error for a folder muse writes in, or removes
// from, that is a symbolic link: one that came by sync (Syncthing, git)
// or was put there would have muse write, or remove, wherever it leads.
type LinkedDirError struct{ Path string }

func (e *LinkedDirError) Error() string {
	return fmt.Sprintf("%s is a symbolic link, and muse writes only into a folder of its own, never where a link leads: remove the link (its target is left as it is) and try again", e.Path)
}

// CheckDirUnder returns a *LinkedDirError when a folder between root,
// excluded, and dir, included, is a symbolic link; nil when none is, or
// when they are not there yet. dir must lie under root.
func CheckDirUnder(root, dir string) error {
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s is not a folder under %s", dir, root)
	}
	p := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return &LinkedDirError{Path: p}
		}
	}
	return nil
}

// MakeDirUnder makes dir, which lies under root, as MakeDir does, after
// CheckDirUnder: a folder between them that is a symbolic link is refused.
func MakeDirUnder(root, dir string) error {
	if err := CheckDirUnder(root, dir); err != nil {
		return err
	}
	return MakeDir(dir)
}
