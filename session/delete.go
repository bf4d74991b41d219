package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"muse/session/internal/fileio"
)

// Delete removes the session id: its journal, its lock file, its
// attachments, its generated images (the files muse named in images/<id>/,
// and the folder once empty) and its entry in the index, and leaves a
// tombstone that keeps it deleted on other machines (tombstone.go). It refuses with an error wrapping ErrLocked while another
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
	// The tombstone keeps the session deleted on the machines a sync
	// engine copies the folder to (tombstone.go). It is dated after every
	// record this machine saw, whatever its clock says, but never more
	// than maxClockSkew after it (tombstone.go).
	// It names what this machine saw: other machines keep a record it
	// did not.
	at := s.clock()
	last, seen, err := seenIn(s.path(id), at.Add(maxClockSkew))
	if err == nil && !at.After(last) {
		at = last.Add(time.Nanosecond)
		if bound := s.clock().Add(maxClockSkew); at.After(bound) {
			at = bound
		}
	}
	if err != nil {
		seen = nil // dated only, as an older muse's
	}
	if err := s.writeTomb(id, at, seen); err != nil {
		return fmt.Errorf("delete session %s: %w", id, writeHint(err))
	}
	// What this machine wrote of it ends here: a tombstone read later
	// cannot have seen more (tombsight.go).
	s.forgetSight(id)
	_, _ = s.markSight(id, at)
	return s.removeSession(id)
}

// removeSession removes the journal of the session id, whose lock the
// caller holds, with its attachments, images and temporary files.
func (s *Store) removeSession(id string) error {
	if err := os.Remove(s.path(id)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = ErrNotFound
		}
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	// A temporary file a crash left does not undo the deletion: the next
	// delete or open retries.
	if dir := s.AttachmentDir(id); s.checkOwn(dir) == nil { // a link is left, and where it leads
		_ = os.RemoveAll(dir)
	}
	_ = os.Remove(s.queuePath(id))
	s.changed(id)
	_ = s.removeSessionTemps(id)
	_ = s.removeImages(id)
	if err := fileio.SyncDir(s.dir); err != nil {
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	return nil
}

// removeImages removes the images SaveImage wrote for the session id, then
// its images folder if nothing else is left in it: files muse did not name
// stay, with their folder.
func (s *Store) removeImages(id string) error {
	dir := s.ImageDir(id)
	if err := s.checkOwn(dir); err != nil {
		return fmt.Errorf("remove the images of session %s: %w", id, err)
	}
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("remove the images of session %s: %w", id, err)
	}
	var errs []error
	for _, de := range des {
		if de.Type().IsRegular() && isImageName(de.Name()) {
			if err := os.Remove(filepath.Join(dir, de.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	_ = os.Remove(dir) // fails, as meant, while files muse did not name are left in it
	return errors.Join(errs...)
}
