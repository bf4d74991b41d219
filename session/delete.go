package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"muse/session/internal/fileio"
)

// Delete removes the session id: its journal, its lock file, its
// attachments and its entry in the index. It refuses with an error wrapping ErrLocked while another
// muse has the session open; a lock this store holds on it is released.
func (s *Store) Delete(id string) error {
	if !validID(id) {
		return fmt.Errorf("delete session %q: invalid id: %w", id, ErrNotFound)
	}
	s.mu.Lock()
	h := s.held[id]
	s.mu.Unlock()
	if h != nil {
		defer s.release(id, h)
	} else {
		unlock, err := s.Lock(id)
		switch {
		case errors.Is(err, ErrLocked):
			return fmt.Errorf("cannot delete: %w", err)
		case errors.Is(err, ErrNotFound):
			return fmt.Errorf("delete session %s: %w", id, ErrNotFound)
		case err != nil:
			return fmt.Errorf("delete: %w", err)
		}
		defer unlock()
	}
	if err := os.Remove(s.path(id)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = ErrNotFound
		}
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	// A temporary file a crash left does not undo the deletion: the next
	// delete or open retries.
	_ = os.RemoveAll(s.AttachmentDir(id))
	s.changed(id)
	_ = s.removeSessionTemps(id)
	if err := fileio.SyncDir(s.dir); err != nil {
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	return nil
}
