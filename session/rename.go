package session

import (
	"errors"
	"fmt"
)

// Rename sets the title of the session id, which need not be open, by
// appending a title record to its journal. The title is made one line, its
// control characters removed and its whitespace collapsed, and cut to 200
// runes; a title left empty is an error. A muse that has the session open
// shows the new title when it next loads it.
func (s *Store) Rename(id, title string) error {
	t := cleanTitle(title)
	if t == "" {
		return fmt.Errorf("rename session %s: %w", id, errors.New("empty title"))
	}
	if err := s.write(&Session{ID: id}, &record{Type: recTitle, Title: &t}); err != nil {
		return fmt.Errorf("rename session %s: %w", id, err)
	}
	return nil
}
