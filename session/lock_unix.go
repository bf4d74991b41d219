//go:build unix

package session

import (
	"errors"
	"os"
	"syscall"
)

// acquire takes the flock of the lock file at path, creating it, and writes
// this process's pid into it. When another holds the lock it returns errHeld
// and the holder's pid, 0 if unknown.
func acquire(path string) (*lockFile, int, error) {
	// A holder removes the file as it unlocks, so the file just opened may
	// be gone by the time it is locked: then lock the new one.
	for range 10 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, fileMode)
		if err != nil {
			return nil, 0, err
		}
		if err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EAGAIN) {
				return nil, readPID(path), errHeld
			}
			return nil, 0, err
		}
		if !samePath(f, path) {
			f.Close()
			continue
		}
		l := &lockFile{f: f, path: path}
		if err := f.Chmod(fileMode); err != nil { // whatever the umask
			l.release()
			return nil, 0, err
		}
		if err := l.writePID(); err != nil {
			l.release()
			return nil, 0, err
		}
		return l, 0, nil
	}
	return nil, 0, errors.New("the lock file keeps being replaced")
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
	pi, err := os.Stat(path)
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
