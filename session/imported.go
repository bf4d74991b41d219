package session

import (
	"fmt"
	"slices"
)

// Imported is a session read from an export, which Store.SaveImported saves
// as a new one.
type Imported struct {
	Title   string
	Params  Params
	Entries []Entry
	// Tree is set for an export of every branch: each entry names its
	// parent, which the caller has checked comes before it, and Head ends
	// the active branch. Otherwise the entries are a line, each after the
	// one before it, whatever parents they name.
	Tree bool
	Head string
}

// SaveImported saves im as a new session, with a new id, through a writer,
// with one write and one sync for the entries, and returns it as loaded
// back. The title is kept as it was written (the front ends sanitize it),
// but no longer than a rename allows. A session it cannot complete is
// deleted.
func (s *Store) SaveImported(im Imported) (*Session, error) {
	sess, err := s.saveImported(im)
	if err != nil {
		return nil, fmt.Errorf("import session: %w", err)
	}
	return sess, nil
}

func (s *Store) saveImported(im Imported) (*Session, error) {
	w := NewWriter(s, im.Params)
	if t := im.Title; t != "" {
		// A 50 MiB title slowed every list.
		if r := []rune(t); len(r) > maxRenameRunes {
			t = string(r[:maxRenameRunes])
		}
		w.SetTitle(t) // written with the header
	}
	err := w.create()
	switch {
	case err != nil:
	case im.Tree:
		err = w.appendTree(im.Entries, im.Head)
	default:
		// An export of one branch is a line of entries, each after the one
		// before it, whatever parents it names.
		entries := slices.Clone(im.Entries)
		for i := range entries {
			entries[i].Parent = ""
		}
		err = w.AppendAll(entries)
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		if id := w.ID(); id != "" {
			if derr := s.Delete(id); derr != nil {
				err = fmt.Errorf("%w; the partly written session %s could not be removed either: %v", err, id, derr)
			}
		}
		return nil, err
	}
	return s.Load(w.ID())
}
