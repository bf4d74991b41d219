// Package session keeps muse's conversations on disk.
//
// A Store is a directory holding one append-only journal per session (see
// journal.go for the format). Every change is appended as one record and
// synced before the call returns, so a crash loses at most the change in
// flight, and loading skips what a crash or a stray edit damaged instead of
// failing. The store writes only what it is given: the session types hold no
// credentials, and none are added here.
//
// This package is the journal: the session types, the store and its
// writer, replay, branches, compaction, locks, the index and the list.
// Beside it, session/transcript writes and reads the transcript formats
// (text, Markdown, JSON export and import), session/prompts keeps the
// prompt history, and session/dirs finds muse's folders.
package session

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"muse/session/internal/fileio"
)

// Errors returned by the store, wrapped with context; test with errors.Is.
var (
	// ErrNotFound means there is no session with the id, or the id is not valid.
	ErrNotFound = errors.New("session not found")
	// ErrDamaged means a journal holds nothing that can be loaded.
	ErrDamaged = errors.New("session journal is damaged")
	// ErrNoSessions means the store holds no session that can be loaded.
	ErrNoSessions = errors.New("no sessions")
	// ErrLocked means the session is open in another muse (see Store.Lock).
	ErrLocked = errors.New("session is locked")
	// ErrAmbiguous means a query matches more than one session (see Store.Find).
	ErrAmbiguous = errors.New("several sessions match")
)

// journalExt is the file name extension of a journal.
const journalExt = ".jsonl"

// Store keeps sessions as journals in a directory; make one with Open. Its
// methods may be called from several goroutines, but a *Session must not be
// changed by two at once.
type Store struct {
	dir    string
	now    func() time.Time // the clock, replaced by tests
	random io.Reader        // the source of id suffixes, replaced by tests
	// appendFile appends records to a journal: appendLine, or a failing
	// one in tests of full disks.
	appendFile func(path string, data []byte, sync bool) error

	mu   sync.Mutex           // guards held
	held map[string]*heldLock // the session locks this store holds, by id
	// onChange is told of every journal written (see OnChange).
	onChange changeHook
	// lister lists the sessions quicker than the journals (see SetLister).
	lister listerHook
	// machine is this machine's id (see SetMachine); notesFile is where
	// catch-ups log their notes (see SetNotesFile).
	machine   string
	notesFile string
	// places are where the store keeps what is not to travel with the
	// journals (see OpenAt).
	places Places
}

// Open returns the store in dir. It creates dir, and any of its parents that
// are missing, with mode 0700, and sets an existing dir to mode 0700 when it
// can. A directory muse may only read is a store too: reading works, and
// writing fails with an error that says why.
func Open(dir string) (*Store, error) {
	if dir == "" {
		return nil, errors.New("open session store: no directory given")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open session store %s: %w", dir, err)
	}
	if err := fileio.MakeDir(abs); err != nil {
		return nil, fmt.Errorf("open session store %s: %w", abs, err)
	}
	st := &Store{dir: abs, now: time.Now, random: rand.Reader, appendFile: appendLine, places: Places{Cache: abs, Locks: abs}}
	// Until SetMachine names this machine, a random id breaks the ties of
	// its records with another's of the same time.
	var m [4]byte
	_, _ = rand.Read(m[:])
	st.machine = hex.EncodeToString(m[:])
	return st, nil
}

// Dir returns the absolute path of the store's directory.
func (s *Store) Dir() string { return s.dir }

// path returns the journal of the session id, which must be valid.
func (s *Store) path(id string) string { return filepath.Join(s.dir, id+journalExt) }

// clock returns the time of a new record, in UTC and without a monotonic
// reading, so that it equals its value read back from the journal.
func (s *Store) clock() time.Time { return s.now().UTC() }

// create starts a new session with the settings p and title, and writes its
// journal: the header, then the title when there is one.
func (s *Store) create(p Params, title string, fork *Fork) (*Session, error) {
	now := s.clock()
	p = p.Clone()
	// A clash of ids needs two sessions in the same second with the same
	// random suffix; O_EXCL catches it, and a new suffix resolves it.
	for range 10 {
		id, err := newID(now, s.random)
		if err != nil {
			return nil, fmt.Errorf("create session: %w", err)
		}
		err = s.createJournal(id, now, p, title, fork)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("create session %s: %w", id, writeHint(err))
		}
		return &Session{ID: id, Created: now, Updated: now, Params: p, Title: title, ForkedFrom: fork}, nil
	}
	return nil, errors.New("create session: no unused id after 10 attempts")
}

// createJournal writes the journal of a new session: its header and title,
// synced with the directory entry. It appears whole or not at all.
func (s *Store) createJournal(id string, now time.Time, p Params, title string, fork *Fork) error {
	line, err := encodeRecord(&record{V: formatVersion, Type: recHeader, Time: now, M: s.machine, ID: id, Created: &now, Params: &p, Fork: fork})
	if err != nil {
		return err
	}
	if title != "" {
		t, err := encodeRecord(&record{Type: recTitle, Time: now, M: s.machine, Title: &title})
		if err != nil {
			return err
		}
		line = append(line, t...)
	}
	// Written beside and linked into place, the journal is never seen
	// empty or half written, even by a muse killed while it writes.
	return fileio.WriteNew(s.path(id), line)
}

// Clone returns a copy of p that shares no memory with it, so that a change
// to the copy never reaches p.
func (p Params) Clone() Params {
	p.Temperature = clonePtr(p.Temperature)
	p.TopP = clonePtr(p.TopP)
	p.TopK = clonePtr(p.TopK)
	p.StopSequences = slices.Clone(p.StopSequences)
	if p.Image != nil {
		v := *p.Image
		v.PromptExtend = clonePtr(v.PromptExtend)
		v.Watermark = clonePtr(v.Watermark)
		p.Image = &v
	}
	return p
}

// clonePtr returns a pointer to a copy of *v, or nil for nil.
func clonePtr[T any](v *T) *T {
	if v == nil {
		return nil
	}
	c := *v
	return &c
}

// Load reads the session id from its journal. Damage that leaves a usable
// session, such as an unfinished last record or a corrupt line, is skipped
// and described in the session's Warnings. A reply whose last record is a
// checkpoint (status "streaming") was cut short, by a crash or a kill: it
// comes back with the text of that checkpoint and StatusInterrupted, without
// a warning. An unknown or invalid id gives an
// error wrapping ErrNotFound, a journal with nothing to load one wrapping
// ErrDamaged.
func (s *Store) Load(id string) (*Session, error) {
	if !validID(id) {
		return nil, fmt.Errorf("load session %q: invalid id: %w", id, ErrNotFound)
	}
	sess, err := s.load(id)
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w", id, err)
	}
	return sess, nil
}

// load replays the journal of the valid id.
func (s *Store) load(id string) (*Session, error) {
	sess, _, err := s.loadStats(id, false)
	return sess, err
}

// Latest loads the most recently used session that can be loaded. It
// returns an error wrapping ErrNoSessions when there is none.
//
// It finds it with the store's Lister (see SetLister), so that only that
// session's journal is read.
func (s *Store) Latest() (*Session, error) {
	ls, err := s.list()
	if err != nil {
		return nil, fmt.Errorf("latest session: %w", err)
	}
	for _, l := range ls {
		if l.Damaged != "" {
			continue
		}
		sess, err := s.Load(l.ID)
		if errors.Is(err, ErrNotFound) || errors.Is(err, ErrDamaged) {
			continue // changed since it was listed
		}
		if err != nil {
			return nil, fmt.Errorf("latest session: %w", err)
		}
		return sess, nil
	}
	return nil, fmt.Errorf("latest session in %s: %w", s.dir, ErrNoSessions)
}
