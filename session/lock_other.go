//go:build !unix

package session

import (
	"errors"
	"fmt"
	"os"

	"github.com/gofrs/flock"

	"muse/session/internal/fileio"
)

// pidOffset is where the pid starts in a lock file: after the byte that
// LockFileEx locks, which no other handle can read or write.
const pidOffset = 1

// lockFile is a lock file held by this process: fl holds the lock on it, f
// writes the pid.
type lockFile struct {
	fl   *flock.Flock
	f    *os.File
	path string
}

// acquire takes the lock of the lock file at path (LockFileEx on Windows),
// creating the file, and writes this process's pid into it. When another
// holds the lock it returns errHeld and the holder's pid, 0 if unknown. It
// refuses a symbolic link, and anything but a regular file, and changes
// nothing in it. Where the system has no file locks (js, wasip1), the file
// is written and removed all the same, but it locks nothing.
func acquire(path string) (*lockFile, int, error) {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, 0, notLockFile(path, fi.Mode())
	}
	fl := flock.New(path, flock.SetFlag(fileio.NoFollow(os.O_RDWR|os.O_CREATE)), flock.SetPermissions(fileio.FileMode))
	ok, err := fl.TryLock()
	unsupported := errors.Is(err, errors.ErrUnsupported)
	switch {
	case err != nil && !unsupported:
		return nil, 0, err
	case !ok && !unsupported:
		return nil, heldPID(path), errHeld
	}
	l := &lockFile{fl: fl, path: path}
	// Opened again to write: the handle of fl is its own.
	l.f, err = os.OpenFile(path, fileio.NoFollow(os.O_RDWR|os.O_CREATE), fileio.FileMode)
	if err == nil {
		err = l.check(unsupported)
	}
	if err == nil {
		// The pid goes after the locked byte, and the rest of the file is
		// not read: a failed truncate leaves nothing that matters.
		_ = l.f.Truncate(pidOffset)
		_, err = l.f.WriteAt(pidLine(), pidOffset)
	}
	if err != nil {
		if l.f != nil {
			l.f.Close()
		}
		fl.Unlock()
		return nil, 0, err
	}
	return l, 0, nil
}

// check returns an error unless the file at l.path is a regular file, the
// one opened as l.f and locked by l.fl.
func (l *lockFile) check(unsupported bool) error {
	pi, err := os.Lstat(l.path)
	if err != nil {
		return err
	}
	if !pi.Mode().IsRegular() {
		return notLockFile(l.path, pi.Mode())
	}
	fi, err := l.f.Stat()
	if err != nil {
		return err
	}
	same := os.SameFile(fi, pi)
	if !unsupported {
		li, err := l.fl.Stat()
		same = same && err == nil && os.SameFile(li, pi)
	}
	if !same {
		return fmt.Errorf("%s was replaced while it was being locked", l.path)
	}
	return nil
}

// heldPID returns the pid in the lock file at path, which another holds, 0
// if unknown.
func heldPID(path string) int {
	f, err := os.OpenFile(path, fileio.NoFollow(os.O_RDONLY), 0)
	if err != nil {
		return 0
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	return readPID(f)
}

// release closes the lock file, which drops the lock, and removes it. The
// removal fails when another muse opened the file meanwhile, to take the
// lock: the file is then left to it.
func (l *lockFile) release() error {
	err := l.f.Close()
	if uerr := l.fl.Unlock(); uerr != nil && err == nil && !errors.Is(uerr, errors.ErrUnsupported) {
		err = uerr
	}
	if fi, lerr := os.Lstat(l.path); lerr == nil && fi.Mode().IsRegular() {
		_ = os.Remove(l.path)
	}
	return err
}
