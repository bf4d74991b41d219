package session

// What a derived index of the journals (see muse/session/index) needs of
// the store: the journals with their stamps and the sessions locked, found
// cheaply, a journal loaded together with the stamp of exactly the bytes
// replayed, and a word when a journal changes.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync/atomic"
	"time"
)

// Stamp is a journal's size and modification time: an index built from a
// journal is current while the journal still has the same stamp.
type Stamp struct {
	Size  int64
	MTime int64 // nanoseconds since 1970
}

// stampOf returns the stamp of the file fi describes.
func stampOf(fi os.FileInfo) Stamp {
	return Stamp{Size: fi.Size(), MTime: fi.ModTime().UnixNano()}
}

// DirStamp is what a directory's metadata says of its names: it changes
// when a file is created, removed or renamed in it, not when a file is
// written in place.
type DirStamp struct {
	// MTime and CTime are the directory's modification and change times,
	// in nanoseconds since 1970 (CTime is 0 where the system has none).
	MTime, CTime int64
	// Dev and Ino identify the directory (0 where unknown).
	Dev, Ino uint64
	// LocksMTime, LocksCTime, LocksDev and LocksIno are the same of the
	// store's lock folder (see Places), when it is not the directory
	// itself; 0 while it is missing. A lock taken or released changes
	// them.
	LocksMTime, LocksCTime int64
	LocksDev, LocksIno     uint64
}

// Scan is what Store.Scan found in the store's directory.
type Scan struct {
	// Journals is the stamp of every journal, by session id.
	Journals map[string]Stamp
	// Locked are the sessions that have a lock file: a muse may be
	// writing to them, in place, without changing the directory.
	Locked []string
	// Dir is the directory's stamp as the scan began; Steady says it
	// still had it when the scan ended, so that Journals and Locked are
	// what the directory held at that stamp.
	Dir    DirStamp
	Steady bool
}

// Scan returns the stamp of every journal in the store and the sessions
// that have a lock file, with the directory's stamp. It reads the
// directory and the journals' metadata, never their content.
//
// A muse changes a journal in place only while it holds the session's
// lock, whose file it creates before and removes after: so while the
// directory keeps the stamp of a steady scan, only the journals of the
// sessions then locked can differ from what the scan found. A lock file
// an older muse left beside a journal, and no one holds, is removed.
//
// It catches up first (see CatchUp) when the directory holds conflict
// copies or tombstones, so that what it finds is merged.
func (s *Store) Scan() (Scan, error) {
	sc, caught, err := s.scanDir(true)
	if err == nil && caught {
		sc, _, err = s.scanDir(false)
	}
	return sc, err
}

// scanDir is Scan; with catchUp it catches up when something waits, and
// reports whether it did.
func (s *Store) scanDir(catchUp bool) (Scan, bool, error) {
	before, err := s.DirStamp()
	if err != nil {
		return Scan{}, false, err
	}
	des, err := os.ReadDir(s.dir)
	if err != nil {
		return Scan{}, false, fmt.Errorf("list journals: %w", err)
	}
	if catchUp && waiting(des) {
		s.catchUp(dirNames(des))
		return Scan{}, true, nil
	}
	sc := Scan{Journals: make(map[string]Stamp, len(des)), Dir: before}
	if s.places.Locks != s.dir {
		locks, err := os.ReadDir(s.places.Locks)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return Scan{}, false, fmt.Errorf("list locks: %w", err)
		}
		for _, de := range locks {
			if id, ok := strings.CutSuffix(de.Name(), lockExt); ok && validID(id) {
				sc.Locked = append(sc.Locked, id)
			}
		}
	}
	// The store's directory holds the locks of older muses, and of a
	// store whose lock folder it is. An older muse's lock file that no
	// one holds is removed: it would travel with the data folder.
	for _, de := range des {
		name := de.Name()
		if id, ok := strings.CutSuffix(name, lockExt); ok && validID(id) {
			if _, held := s.oldLockHeld(id); held || s.places.Locks == s.dir {
				sc.Locked = append(sc.Locked, id)
			}
			continue
		}
		if id, fi, ok := journalEntry(de); ok {
			sc.Journals[id] = stampOf(fi)
		}
	}
	after, err := s.DirStamp()
	sc.Steady = err == nil && after == before
	return sc, false, nil
}

// DirStamp returns the stamp of the store's directory, and of its lock
// folder.
func (s *Store) DirStamp() (DirStamp, error) {
	fi, err := os.Stat(s.dir)
	if err != nil {
		return DirStamp{}, fmt.Errorf("stat session directory: %w", err)
	}
	d := dirStampOf(fi)
	if s.places.Locks != s.dir {
		fi, err := os.Stat(s.places.Locks)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return DirStamp{}, fmt.Errorf("stat lock folder: %w", err)
		}
		if err == nil {
			l := dirStampOf(fi)
			d.LocksMTime, d.LocksCTime, d.LocksDev, d.LocksIno = l.MTime, l.CTime, l.Dev, l.Ino
		}
	}
	return d, nil
}

// StampsOf returns the stamps of the journals of the sessions ids; a
// journal that is not there has none.
func (s *Store) StampsOf(ids []string) map[string]Stamp {
	out := make(map[string]Stamp, len(ids))
	for _, id := range ids {
		if !validID(id) {
			continue
		}
		if fi, err := os.Lstat(s.path(id)); err == nil && fi.Mode().IsRegular() {
			out[id] = stampOf(fi)
		}
	}
	return out
}

// LoadStamped loads the session id as Load does, with what a list shows of
// it and the stamp of the journal as it was read: exactly Size bytes are
// replayed, so a record appended meanwhile changes the stamp and is never
// half counted. A journal that cannot be loaded comes back with a nil
// session and an Info whose Damaged says why, without an error; a missing
// one gives an error wrapping ErrNotFound.
func (s *Store) LoadStamped(id string) (*Session, Info, Stamp, error) {
	f, _, err := s.openJournal(id)
	if errors.Is(err, ErrNotFound) {
		return nil, Info{}, Stamp{}, fmt.Errorf("load session %s: %w", id, ErrNotFound)
	}
	if err != nil {
		var de *damageError
		if errors.As(err, &de) {
			return nil, s.damagedInfo(id, err, 0), Stamp{}, nil
		}
		return nil, Info{}, Stamp{}, fmt.Errorf("load session %s: %w", id, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, Info{}, Stamp{}, fmt.Errorf("load session %s: %w", id, err)
	}
	st := stampOf(fi)
	if st.Size > maxListed {
		return nil, s.tooLarge(id, st.Size, st.MTime), st, nil
	}
	sess, _, err := replayStats(io.LimitReader(f, st.Size), id, false)
	if err != nil {
		return nil, s.damagedInfo(id, err, st.MTime), st, nil
	}
	return sess, sess.info(), st, nil
}

// damagedInfo is what a list shows of the journal of id that could not be
// loaded for err, modified at mtime (nanoseconds since 1970).
func (s *Store) damagedInfo(id string, err error, mtime int64) Info {
	why := reason(err)
	info := Info{ID: id, Title: "(damaged: " + why + ")", Damaged: why}
	info.Updated = time.Unix(0, mtime).UTC()
	info.Created = info.Updated
	if t, ok := idTime(id); ok {
		info.Created = t
	}
	return info
}

// OnChange has f called with the id of a session each time its journal
// was written, created, compacted or deleted by this store, after the
// change is on disk; nil stops it. f runs on the writer's path: it must
// return at once (queue the id and do the work elsewhere).
func (s *Store) OnChange(f func(id string)) {
	if f == nil {
		s.onChange.Store(nil)
		return
	}
	s.onChange.Store(&f)
}

// changed tells the OnChange function, if any, that the journal of id
// changed.
func (s *Store) changed(id string) {
	if f := s.onChange.Load(); f != nil {
		(*f)(id)
	}
}

// changeHook is the type of Store.onChange.
type changeHook = atomic.Pointer[func(id string)]
