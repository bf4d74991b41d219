//go:build !unix

package session

import (
	"errors"
	"io/fs"
	"os"
	"time"
)

// staleAfter is how old a lock file without a pid must be to be taken over:
// its holder died between creating it and writing its pid.
const staleAfter = 10 * time.Second

// acquire creates the lock file at path exclusively and writes this
// process's pid into it. When the file exists and the process it names still
// runs, it returns errHeld and that pid. A file left by a process that died
// is taken over.
func acquire(path string) (*lockFile, int, error) {
	for range 3 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, fileMode)
		if err == nil {
			l := &lockFile{f: f, path: path}
			if err := l.writePID(); err != nil {
				l.release()
				return nil, 0, err
			}
			return l, 0, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, 0, err
		}
		pid := readPID(path)
		if pid > 0 && running(pid) {
			return nil, pid, errHeld
		}
		if pid == 0 {
			if fi, err := os.Stat(path); err == nil && time.Since(fi.ModTime()) < staleAfter {
				return nil, 0, errHeld
			}
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, 0, err
		}
	}
	return nil, 0, errors.New("the lock file keeps coming back")
}

// running reports whether the process pid still runs. Where that cannot be
// told, it says it does.
func running(pid int) bool {
	if pid == os.Getpid() {
		return true
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}

// release closes and removes the lock file.
func (l *lockFile) release() error {
	err := l.f.Close()
	if rerr := os.Remove(l.path); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) && err == nil {
		err = rerr
	}
	return err
}
