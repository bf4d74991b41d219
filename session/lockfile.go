package session

import (
	"errors"
	"fmt"
	"os"
	"runtime"

	"github.com/gofrs/flock"

	"muse/session/internal/fileio"
)

// LockFile takes the lock of this file's package (flock on unix, LockFileEx
// on Windows, released by the system when its holder dies, however it dies)
// on the file at path, for a job other than a session that must run once at
// a time on a machine, such as muse sync. It does not wait: when another
// holds the lock it fails at once with an error wrapping ErrLocked that
// names the holder's pid. unlock removes the file; calling it more than once
// is harmless.
func LockFile(path, what string) (unlock func() error, err error) {
	lf, pid, err := acquire(path)
	if errors.Is(err, errHeld) {
		if pid > 0 {
			return nil, fmt.Errorf("%s is running in another muse (pid %d): %w", what, pid, ErrLocked)
		}
		return nil, fmt.Errorf("%s is running in another muse: %w", what, ErrLocked)
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", what, err)
	}
	h := &heldLock{lf: lf}
	return func() error {
		h.once.Do(func() { h.err = h.lf.release() })
		return h.err
	}, nil
}

// pidOffset is where the pid starts in a lock file: 0, or on Windows 1,
// after the byte that LockFileEx locks, which no other handle can read or
// write.
func pidOffset() int64 {
	if runtime.GOOS == "windows" {
		return 1
	}
	return 0
}

// lockFile is a lock file held by this process: fl holds the lock on it
// (github.com/gofrs/flock: flock(2) on unix, LockFileEx on Windows), f
// writes the pid.
type lockFile struct {
	fl   *flock.Flock
	f    *os.File
	path string
}

// acquire takes the lock of the lock file at path, creating the file, and
// writes this process's pid into it. When another holds the lock it
// returns errHeld and the holder's pid, 0 if unknown. It refuses a symbolic
// link, and anything but a regular file with one name, and changes nothing
// in it. Where the system has no file locks (js, wasip1), the file is
// written and removed all the same, but it locks nothing.
//
// A holder removes the file as it unlocks, so the file just locked may be
// gone, or another, by the time it is locked: then the new one is locked.
func acquire(path string) (*lockFile, int, error) {
	for range 10 {
		l, pid, err := tryAcquire(path)
		if !errors.Is(err, errReplaced) {
			return l, pid, err
		}
	}
	return nil, 0, errors.New("the lock file keeps being replaced")
}

// errReplaced is returned by tryAcquire when the file it locked is no
// longer the one at the path.
var errReplaced = errors.New("lock file replaced")

// tryAcquire is one try of acquire.
func tryAcquire(path string) (*lockFile, int, error) {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, 0, notLockFile(path, fi.Mode())
	}
	// Neither O_TRUNC nor a chmod before the lock is held: the file may be
	// another's lock.
	fl := flock.New(path, flock.SetFlag(fileio.NoFollow(os.O_RDWR|os.O_CREATE)), flock.SetPermissions(fileio.FileMode))
	ok, err := fl.TryLock()
	unsupported := errors.Is(err, errors.ErrUnsupported)
	switch {
	case err != nil && !unsupported:
		if fi, lerr := os.Lstat(path); lerr == nil && !fi.Mode().IsRegular() {
			return nil, 0, notLockFile(path, fi.Mode())
		}
		return nil, 0, err
	case !ok && !unsupported:
		return nil, heldPID(path), errHeld
	}
	l := &lockFile{fl: fl, path: path}
	// Opened again to write: the handle of fl is its own.
	l.f, err = os.OpenFile(path, fileio.NoFollow(os.O_RDWR), 0)
	if errors.Is(err, os.ErrNotExist) {
		err = errReplaced
	}
	if err == nil {
		err = l.check(unsupported)
	}
	if err == nil {
		err = l.writePID()
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

// check returns an error unless the file at l.path is a regular file with
// one name, the one opened as l.f and locked by l.fl; errReplaced when it
// is another.
func (l *lockFile) check(unsupported bool) error {
	pi, err := os.Lstat(l.path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return errReplaced
		}
		return err
	}
	if !pi.Mode().IsRegular() || fileio.Shared(pi) {
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
		return errReplaced
	}
	return nil
}

// writePID records the pid of this process in the lock file, which it
// holds.
func (l *lockFile) writePID() error {
	if err := l.f.Chmod(fileio.FileMode); err != nil && runtime.GOOS != "windows" { // whatever the umask
		return err
	}
	if err := l.f.Truncate(pidOffset()); err != nil {
		return err
	}
	_, err := l.f.WriteAt(pidLine(), pidOffset())
	return err
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

// release drops the lock and removes the lock file. On unix the file is
// removed while the lock is still held, so that no one else has it; Windows
// removes no open file, so there the lock is dropped first, and the removal
// fails when another muse opened the file meanwhile, to take the lock: the
// file is then left to it.
func (l *lockFile) release() error {
	if runtime.GOOS == "windows" {
		err := l.unlock()
		if fi, lerr := os.Lstat(l.path); lerr == nil && fi.Mode().IsRegular() {
			_ = os.Remove(l.path)
		}
		return err
	}
	var err error
	pi, lerr := os.Lstat(l.path)
	fi, ferr := l.f.Stat()
	if lerr == nil && ferr == nil && os.SameFile(fi, pi) {
		if rerr := os.Remove(l.path); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			err = rerr
		}
	}
	if uerr := l.unlock(); err == nil {
		err = uerr
	}
	return err
}

// unlock closes the file and drops the lock.
func (l *lockFile) unlock() error {
	err := l.f.Close()
	if uerr := l.fl.Unlock(); uerr != nil && err == nil && !errors.Is(uerr, errors.ErrUnsupported) {
		err = uerr
	}
	return err
}
