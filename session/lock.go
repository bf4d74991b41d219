package session

// A session open in muse is locked, so that a second muse does not write to
// it at the same time: both would append entries with the same ids, and each
// would see only its own. The lock is an advisory lock on <id>.lock in the
// store's lock folder (Store.LockDir: this machine's state folder, never
// the data folder a sync engine copies; flock on unix, LockFileEx on
// Windows), which the system releases when its holder dies, however it
// dies. The file holds the holder's pid, for the message.
//
// Older muses kept the lock file beside the journal. Lock honours such a
// file while an older muse holds it, and removes it once none does.
//
// The lock file is opened without following a symbolic link, and only a
// regular file with no other name is used: it is truncated, and the pid
// written, only once its lock is held.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"muse/session/internal/fileio"
)

// lockExt is the file name extension of a session's lock file.
const lockExt = ".lock"

// errHeld is returned by acquire when another holds the lock.
var errHeld = errors.New("lock held")

// lockedError is a session locked by another muse. It wraps ErrLocked.
type lockedError struct {
	id  string
	pid int // 0 when unknown
}

func (e *lockedError) Error() string {
	if e.pid > 0 {
		return fmt.Sprintf("session %s is open in another muse (pid %d)", e.id, e.pid)
	}
	return fmt.Sprintf("session %s is open in another muse", e.id)
}

func (e *lockedError) Unwrap() error { return ErrLocked }

// lockPath returns the lock file of the session id, which must be valid.
func (s *Store) lockPath(id string) string { return filepath.Join(s.places.Locks, id+lockExt) }

// heldLock is a lock this store holds.
type heldLock struct {
	once sync.Once
	lf   *lockFile
	err  error
}

// Lock takes an exclusive advisory lock on the session id, which must exist,
// so that no other muse opens it until unlock is called or this process
// ends, however it ends. It does not wait: when another process holds the
// lock, or this one through another call to Lock, it fails at once with an
// error wrapping ErrLocked that says "session <id> is open in another muse
// (pid N)". Calling unlock more than once is harmless.
//
// The lock is on the file <id>.lock in the lock folder: flock(2) on unix,
// LockFileEx on Windows. The file is removed by unlock. Lock refuses a lock
// file that is a symbolic link or not a regular file, and leaves it as it
// is. The lock is advisory: it stops another Lock, not writes, so a muse
// takes it before it writes to a session. Delete takes it too.
func (s *Store) Lock(id string) (unlock func() error, err error) {
	if !validID(id) {
		return nil, fmt.Errorf("lock session %q: invalid id: %w", id, ErrNotFound)
	}
	if _, err := os.Stat(s.path(id)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = ErrNotFound
		}
		return nil, fmt.Errorf("lock session %s: %w", id, err)
	}
	if s.places.Locks != s.dir {
		if err := fileio.MakeDir(s.places.Locks); err != nil {
			return nil, fmt.Errorf("lock session %s: %w", id, err)
		}
	}
	lf, pid, err := acquire(s.lockPath(id))
	if errors.Is(err, errHeld) {
		return nil, &lockedError{id: id, pid: pid}
	}
	if err != nil {
		return nil, fmt.Errorf("lock session %s: %w", id, err)
	}
	if pid, held := s.oldLockHeld(id); held {
		lf.release()
		return nil, &lockedError{id: id, pid: pid}
	}
	h := &heldLock{lf: lf}
	s.mu.Lock()
	if s.held == nil {
		s.held = make(map[string]*heldLock)
	}
	s.held[id] = h
	s.mu.Unlock()
	return func() error {
		s.release(id, h)
		if h.err != nil {
			return fmt.Errorf("unlock session %s: %w", id, h.err)
		}
		return nil
	}, nil
}

// oldLockHeld reports whether an older muse, which kept its lock files
// beside the journals, holds the lock of the session id there, with its
// pid; a lock file there that no one holds is removed. A file that cannot
// be looked at (a directory muse may only read) holds nothing.
func (s *Store) oldLockHeld(id string) (pid int, held bool) {
	if s.places.Locks == s.dir {
		return 0, false
	}
	old := filepath.Join(s.dir, id+lockExt)
	if fi, err := os.Lstat(old); err != nil || !fi.Mode().IsRegular() {
		return 0, false
	}
	lf, pid, err := acquire(old)
	if errors.Is(err, errHeld) {
		return pid, true
	}
	if err == nil {
		lf.release() // removes the file
	}
	return 0, false
}

// release releases h, the lock of id, once.
func (s *Store) release(id string, h *heldLock) {
	h.once.Do(func() {
		s.mu.Lock()
		if s.held[id] == h {
			delete(s.held, id)
		}
		s.mu.Unlock()
		h.err = h.lf.release()
	})
}

// notLockFile says why the file at path, of mode m, is not used as a lock
// file.
func notLockFile(path string, m fs.FileMode) error {
	what := "not a regular file"
	switch {
	case m&fs.ModeSymlink != 0:
		what = "a symbolic link"
	case m.IsDir():
		what = "a directory"
	case m.IsRegular():
		what = "a file with several names (hard links)"
	}
	return fmt.Errorf("%s is %s, not a lock file: remove it to open the session", path, what)
}

// readPID returns the pid recorded in the open lock file f, 0 if there is
// none. The holder writes it just after taking the lock, so an empty file is
// read again for a moment.
func readPID(f *os.File) int {
	buf := make([]byte, 32)
	for range 20 {
		n, err := f.ReadAt(buf, pidOffset())
		if n == 0 && err != nil && !errors.Is(err, io.EOF) {
			return 0
		}
		// The pid is whole once its newline is there.
		line, _, whole := bytes.Cut(buf[:n], []byte("\n"))
		if pid, err := strconv.Atoi(string(bytes.TrimSpace(line))); whole && err == nil && pid > 0 {
			return pid
		}
		time.Sleep(5 * time.Millisecond)
	}
	return 0
}

// pidLine is what a lock file holds after pidOffset.
func pidLine() []byte { return []byte(strconv.Itoa(os.Getpid()) + "\n") }
