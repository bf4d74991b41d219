package session

// A session open in muse is locked, so that a second muse does not write to
// it at the same time: both would append entries with the same ids, and each
// would see only its own. The lock is an advisory lock on <id>.lock beside
// the journal (flock on unix), which the kernel releases when its holder
// dies, however it dies. The file holds the holder's pid, for the message.

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
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
func (s *Store) lockPath(id string) string { return filepath.Join(s.dir, id+lockExt) }

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
// The lock is on the file <id>.lock beside the journal: flock(2) on unix;
// elsewhere a file created exclusively, holding the owner's pid, which is
// taken over when that process no longer runs. It is advisory: it stops
// another Lock, not writes, so a muse takes it before it writes to a
// session. Delete takes it too.
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
	lf, pid, err := acquire(s.lockPath(id))
	if errors.Is(err, errHeld) {
		return nil, &lockedError{id: id, pid: pid}
	}
	if err != nil {
		return nil, fmt.Errorf("lock session %s: %w", id, err)
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

// lockFile is a lock file held by this process.
type lockFile struct {
	f    *os.File
	path string
}

// writePID records the pid of this process in the lock file.
func (l *lockFile) writePID() error {
	if err := l.f.Truncate(0); err != nil {
		return err
	}
	_, err := l.f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return err
}

// readPID returns the pid recorded in the lock file at path, 0 if there is
// none. The holder writes it just after taking the lock, so an empty file is
// read again for a moment.
func readPID(path string) int {
	for range 20 {
		b, err := os.ReadFile(path)
		if err != nil {
			return 0
		}
		if pid, err := strconv.Atoi(string(bytes.TrimSpace(b))); err == nil && pid > 0 {
			return pid
		}
		time.Sleep(5 * time.Millisecond)
	}
	return 0
}
