package session

import (
	"fmt"
	"path/filepath"
)

// Places are the folders where a store keeps what belongs to this machine
// only, out of the data folder that a sync engine (Syncthing, Dropbox, a
// git repository) copies to others: derived files, rebuilt from the
// journals, and the locks of the sessions open here.
type Places struct {
	// Cache holds derived files: the search index (muse/session/index).
	Cache string
	// Locks holds the lock files of the sessions open in a muse (see
	// Store.Lock), which must never travel: a lock means something only
	// on the machine that holds it.
	Locks string
}

// OpenAt returns the store in dir as Open does, keeping its derived files
// in p.Cache and its locks in p.Locks (each made, mode 0700, when it is
// first written). An empty place is dir itself, as for Open.
//
// A store that keeps its locks elsewhere than dir still honours the lock
// files an older muse, which kept them in dir, may hold (see Store.Lock).
func OpenAt(dir string, p Places) (*Store, error) {
	s, err := Open(dir)
	if err != nil {
		return nil, err
	}
	for _, d := range []*string{&p.Cache, &p.Locks} {
		if *d == "" {
			*d = s.dir
			continue
		}
		abs, err := filepath.Abs(*d)
		if err != nil {
			return nil, fmt.Errorf("open session store %s: %w", dir, err)
		}
		*d = abs
	}
	s.places = p
	return s, nil
}

// CacheDir returns the folder of the store's derived files, which may be
// deleted at any time: the journals are the truth.
func (s *Store) CacheDir() string { return s.places.Cache }

// LockDir returns the folder of the store's lock files.
func (s *Store) LockDir() string { return s.places.Locks }
