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
	"time"
)

// List returns every session of the store, the most recently updated first.
// A journal that cannot be loaded is listed too, with the reason in Damaged
// and in the title, as "(damaged: reason)".
//
// It reads only the journals that changed since the last List: the
// directory's index.json keeps what List found in each journal, with the
// journal's size and modification time, and is rewritten when anything
// changed. A missing or corrupt index is rebuilt from the journals.
func (s *Store) List() ([]Info, error) {
	infos, err := s.list()
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	return infos, nil
}

func (s *Store) list() ([]Info, error) {
	des, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, err
	}
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	old := s.readIndex()
	next := make(map[string]indexEntry, len(des))
	var infos []Info
	var stale []scanJob
	for _, de := range des {
		id, ok := strings.CutSuffix(de.Name(), journalExt)
		if !ok || !validID(id) || !de.Type().IsRegular() {
			continue
		}
		fi, err := de.Info()
		if err != nil {
			continue // removed since ReadDir
		}
		stamp := indexEntry{Size: fi.Size(), MTime: fi.ModTime().UnixNano()}
		if e, ok := old[id]; ok && e.Size == stamp.Size && e.MTime == stamp.MTime {
			next[id] = e
			infos = append(infos, e.Info)
			continue
		}
		stale = append(stale, scanJob{id: id, mtime: fi.ModTime(), entry: stamp})
	}
	s.scanAll(stale)
	for _, j := range stale {
		if !j.ok {
			continue // removed since ReadDir
		}
		if j.keep {
			j.entry.Info = j.info
			next[j.id] = j.entry
		}
		infos = append(infos, j.info)
	}
	changed := old == nil || len(stale) > 0
	if (changed || len(next) != len(old)) && (len(next) > 0 || old != nil) {
		// The index only saves work: List works without it, so failing to
		// write it (a read-only directory, a full disk) is not an error.
		_ = s.writeIndex(next)
	}
	sortInfos(infos)
	return infos, nil
}

// sortInfos sorts infos the most recently updated first.
func sortInfos(infos []Info) {
	slices.SortFunc(infos, func(a, b Info) int {
		if c := b.Updated.Compare(a.Updated); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
}

// scanJob is a journal that List reads because the index has no valid
// entry for it, and what it found.
type scanJob struct {
	id    string
	mtime time.Time
	entry indexEntry // the journal's size and time, as listed
	info  Info
	keep  bool // info may go in the index
	ok    bool // the journal was there
}

// scanAll reads the journals of jobs, several at a time when there are many.
func (s *Store) scanAll(jobs []scanJob) {
	const perWorker = 8
	workers := min(runtime.GOMAXPROCS(0), (len(jobs)+perWorker-1)/perWorker)
	if workers <= 1 {
		for i := range jobs {
			j := &jobs[i]
			j.info, j.keep, j.ok = s.scan(j.id, j.mtime)
		}
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(jobs); i += workers {
				j := &jobs[i]
				j.info, j.keep, j.ok = s.scan(j.id, j.mtime)
			}
		})
	}
	wg.Wait()
}

// scan returns the Info of the journal of id, modified at mtime, and whether
// it may be kept in the index: an error that is not damage to the journal,
// such as a permission, may pass. ok is false when the journal is gone.
func (s *Store) scan(id string, mtime time.Time) (info Info, keep, ok bool) {
	sess, _, err := s.loadStats(id, true) // the list needs no reply's content
	if err == nil {
		return sess.info(), true, true
	}
	if errors.Is(err, ErrNotFound) {
		return Info{}, false, false
	}
	why := reason(err)
	info = Info{ID: id, Title: "(damaged: " + why + ")", Damaged: why, Updated: mtime.UTC()}
	info.Created = info.Updated
	if t, ok := idTime(id); ok {
		info.Created = t
	}
	return info, errors.Is(err, ErrDamaged), true
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
