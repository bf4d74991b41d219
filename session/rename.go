package session

import (
	"errors"
	"fmt"
)

// Rename sets the title of the session id, which need not be open, by
// appending a title record to its journal. The title is made one line, its
// control characters removed and its whitespace collapsed, and cut to 200
// runes; a title left empty is an error. The title is written by the
// session's writer, so a session open in another muse is refused (rename it
// there); the order of the sessions stays, since renaming is not using.
func (s *Store) Rename(id, title string) error {
	t := cleanTitle(title)
	if t == "" {
		return fmt.Errorf("rename session %s: %w", id, errors.New("empty title"))
	}
	w, err := s.OpenWriter(id)
	if err != nil {
		return fmt.Errorf("rename session %s: %w", id, err)
	}
	err = w.SetTitle(t)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("rename session %s: %w", id, err)
	}
	return nil
}
