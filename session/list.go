package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// A Lister lists the sessions of a store from somewhere quicker than the
// journals: a derived index (see muse/session/index), which this package
// cannot import.
type Lister func() ([]Info, error)

// SetLister makes List, Find, Latest and OpenLatestAsync ask l for the
// sessions; nil makes them read every journal. When l fails they read
// every journal too: the journals are the truth, and l only quicker.
func (s *Store) SetLister(l Lister) {
	if l == nil {
		s.lister.Store(nil)
		return
	}
	s.lister.Store(&l)
}

// listerHook is the type of Store.lister.
type listerHook = atomic.Pointer[Lister]

// List returns every session of the store, the most recently updated first.
// A journal that cannot be loaded is listed too, with the reason in Damaged
// and in the title, as "(damaged: reason)".
//
// It asks the store's Lister (see SetLister), if any; else, or when that
// fails, it reads every journal, only what a list shows of each.
func (s *Store) List() ([]Info, error) {
	infos, err := s.list()
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	return infos, nil
}

func (s *Store) list() ([]Info, error) {
	if l := s.lister.Load(); l != nil {
		if infos, err := (*l)(); err == nil {
			SortInfos(infos, s.clock()) // by this store's clock
			return infos, nil
		}
	}
	des, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, err
	}
	if waiting(des) {
		s.catchUp(dirNames(des))
		if des, err = os.ReadDir(s.dir); err != nil {
			return nil, err
		}
	}
	var jobs []scanJob
	for _, de := range des {
		if id, fi, ok := journalEntry(de); ok {
			jobs = append(jobs, scanJob{id: id, mtime: fi.ModTime(), size: fi.Size()})
		}
	}
	s.scanAll(jobs)
	var infos []Info
	for _, j := range jobs {
		if j.ok {
			infos = append(infos, j.info)
		}
	}
	SortInfos(infos, s.clock())
	return infos, nil
}

// journalEntry returns the session id and the file info of de when it is a
// journal: a regular file named by a valid id and journalExt. ok is false
// for anything else, and for a file removed since its directory was read.
func journalEntry(de fs.DirEntry) (id string, fi fs.FileInfo, ok bool) {
	id, ok = strings.CutSuffix(de.Name(), journalExt)
	if !ok || !validID(id) || !de.Type().IsRegular() {
		return "", nil, false
	}
	fi, err := de.Info()
	if err != nil {
		return "", nil, false
	}
	return id, fi, true
}

// SortInfos sorts infos the most recently updated first, by the dates
// believed at now, as a tombstone's is (tombstone.go): a session updated
// more than maxClockSkew (a day) after now is marked Ahead and comes after
// every other, as its date was written by a clock far ahead or to come
// first (a synced record dated 2262, say); so the newest session
// believed is the first, which muse -c resumes. Ahead ones are among
// themselves the most recently updated first; ties go by id, the greater
// first.
func SortInfos(infos []Info, now time.Time) {
	bound := now.Add(maxClockSkew)
	for i := range infos {
		infos[i].Ahead = infos[i].Updated.After(bound)
	}
	slices.SortFunc(infos, func(a, b Info) int {
		switch {
		case a.Ahead && !b.Ahead:
			return 1
		case b.Ahead && !a.Ahead:
			return -1
		}
		if c := b.Updated.Compare(a.Updated); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
}

// scanJob is a journal that List reads, and what it found.
type scanJob struct {
	id    string
	mtime time.Time
	size  int64
	info  Info
	ok    bool // the journal was there
}

// scanAll reads the journals of jobs, several at a time when there are many.
func (s *Store) scanAll(jobs []scanJob) {
	const perWorker = 8
	workers := min(runtime.GOMAXPROCS(0), (len(jobs)+perWorker-1)/perWorker)
	if workers <= 1 {
		for i := range jobs {
			j := &jobs[i]
			j.info, j.ok = s.scan(j.id, j.mtime, j.size)
		}
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(jobs); i += workers {
				j := &jobs[i]
				j.info, j.ok = s.scan(j.id, j.mtime, j.size)
			}
		})
	}
	wg.Wait()
}

// scan returns the Info of the journal of id, modified at mtime, of size
// bytes. ok is false when the journal is gone. A journal over maxListed is
// not read (tooLarge); one over bigJournal is read one at a time, as
// reading takes about four times its size in memory.
func (s *Store) scan(id string, mtime time.Time, size int64) (info Info, ok bool) {
	if size > maxListed {
		return s.tooLarge(id, size, mtime.UnixNano()), true
	}
	if size > bigJournal {
		bigScan.Lock()
		defer bigScan.Unlock()
	}
	sess, _, err := s.loadStats(id, true) // the list needs no reply's content
	if err == nil {
		return sess.info(), true
	}
	if errors.Is(err, ErrNotFound) {
		return Info{}, false
	}
	return s.damagedInfo(id, err, mtime.UnixNano()), true
}

// maxListed is the largest journal a list or the search index reads: one
// larger is listed as too large, and opens by its id (up to maxJournal). A
// session of 10,000 messages is about 4 MB.
const maxListed = 64 << 20

// bigJournal is the size over which a list reads journals one at a time.
const bigJournal = 8 << 20

// bigScan is held while a list reads a journal over bigJournal.
var bigScan sync.Mutex

// tooLarge is the Info of the journal of id, of size bytes and modified at
// mtime, that a list does not read.
func (s *Store) tooLarge(id string, size, mtime int64) Info {
	info := s.damagedInfo(id, fmt.Errorf("%d MiB, more than the %d MiB a list reads; open it by its id", size>>20, maxListed>>20), mtime)
	info.Title = "(too large to list: " + info.Damaged + ")"
	return info
}

// reason says briefly why a journal could not be loaded.
func reason(err error) string {
	var de *damageError
	if errors.As(err, &de) {
		return de.reason
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
