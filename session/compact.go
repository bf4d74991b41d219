package session

import (
	"fmt"

	"muse/session/internal/fileio"
)

// compact rewrites the journal of sess, whose lock the caller holds, with
// one record for everything it holds: the header, the title, every entry of
// every branch whole (a reply cut short is folded from its chunks into one
// record), and the head. The new journal replaces the old one atomically, so
// a crash leaves one or the other.
func (s *Store) compact(sess *Session) error {
	created := sess.Created
	p := sess.Params.clone()
	var data []byte
	add := func(rec *record) error {
		line, err := encodeRecord(rec)
		if err != nil {
			return err
		}
		data = append(data, line...)
		return nil
	}
	if err := add(&record{V: formatVersion, Type: recHeader, Time: created, ID: sess.ID, Created: &created, Params: &p, Fork: sess.ForkedFrom}); err != nil {
		return fmt.Errorf("compact session %s: %w", sess.ID, err)
	}
	if sess.Title != "" {
		title := sess.Title
		if err := add(&record{Type: recTitle, Time: created, Title: &title}); err != nil {
			return fmt.Errorf("compact session %s: %w", sess.ID, err)
		}
	}
	for i := range sess.All {
		e := sess.All[i]
		if err := add(&record{Type: recEntry, Time: e.Time, Entry: &e}); err != nil {
			return fmt.Errorf("compact session %s: %w", sess.ID, err)
		}
	}
	head := sess.Head
	if err := add(&record{Type: recHead, Time: sess.Updated, Head: &head}); err != nil {
		return fmt.Errorf("compact session %s: %w", sess.ID, err)
	}
	if err := fileio.WriteAtomic(s.path(sess.ID), data); err != nil {
		return fmt.Errorf("compact session %s: %w", sess.ID, err)
	}
	return nil
}
