package session

import (
	"errors"
	"fmt"
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
