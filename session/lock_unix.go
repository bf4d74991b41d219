//go:build unix

package session

import (
	"errors"
	"os"
	"syscall"

	"muse/session/internal/fileio"
)

// pidOffset is where the pid starts in a lock file.
const pidOffset = 0

// lockFile is a lock file held by this process.
type lockFile struct {
	f    *os.File
	path string
}

// acquire takes the flock of the lock file at path, creating it, and writes
// this process's pid into it. When another holds the lock it returns errHeld
// and the holder's pid, 0 if unknown. It refuses a symbolic link, and
// anything but a regular file with one name, and changes nothing in it.
func acquire(path string) (*lockFile, int, error) {
	// A holder removes the file as it unlocks, so the file just opened may
	// be gone by the time it is locked: then lock the new one.
	for range 10 {
		// Neither O_TRUNC nor a chmod before the lock is held: the file
		// may be another's lock.
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, fileio.FileMode)
		if err != nil {
			if fi, lerr := os.Lstat(path); lerr == nil && !fi.Mode().IsRegular() {
				return nil, 0, notLockFile(path, fi.Mode())
			}
			return nil, 0, err
		}
		if err := checkLockFile(f, path); err != nil {
			f.Close()
			return nil, 0, err
		}
		if err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			defer f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EAGAIN) {
				return nil, readPID(f), errHeld
			}
			return nil, 0, err
		}
		if !samePath(f, path) {
			f.Close()
			continue
		}
		l := &lockFile{f: f, path: path}
		if err := l.writePID(); err != nil {
			l.release()
			return nil, 0, err
		}
		return l, 0, nil
	}
	return nil, 0, errors.New("the lock file keeps being replaced")
}

// checkLockFile returns an error unless f, opened at path, is a regular file
// with no other name.
func checkLockFile(f *os.File, path string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return notLockFile(path, fi.Mode())
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && uint64(st.Nlink) > 1 {
		return notLockFile(path, fi.Mode())
	}
	return nil
}

// writePID records the pid of this process in the lock file, which it holds.
func (l *lockFile) writePID() error {
	if err := l.f.Chmod(fileio.FileMode); err != nil { // whatever the umask
		return err
	}
	if err := l.f.Truncate(0); err != nil {
		return err
	}
	_, err := l.f.WriteAt(pidLine(), pidOffset)
	return err
}

// flock applies how to f, retrying when a signal interrupts it.
func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// samePath reports whether path still names the open file f.
func samePath(f *os.File, path string) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	pi, err := os.Lstat(path)
	return err == nil && os.SameFile(fi, pi)
}

// release removes the lock file, while still holding the lock so that no
// one else has it, and closes it, which drops the lock.
func (l *lockFile) release() error {
	var err error
	if samePath(l.f, l.path) {
		if rerr := os.Remove(l.path); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			err = rerr
		}
	}
	if cerr := l.f.Close(); cerr != nil && err == nil {
		err = cerr
	}
	return err
}
