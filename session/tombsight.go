package session

// What a tombstone can honestly claim of this machine's records.
//
// A delete sees records that were written before it: it cannot have seen
// a record this machine writes after the tombstone arrived here. So, when
// this machine holds the session's journal, a tombstone is judged at its
// first sight against U, the newest record this machine could have
// written by then: its clock, or the journal's newest record if that is
// later (a record dated after a peer's record ahead of this clock, as
// Writer dates them). Every record this machine writes afterwards is dated
// after U. A tombstone that claims more than U is capped at U:
//
//   - an older muse's tombstone (no Seen), dated after U, by its date: it
//     deletes this machine's records dated up to U, not up to its date
//     (those of the others by its date, as before: what they wrote is
//     theirs to judge, by their clocks and first sights). Before, one dated
//     up to a day ahead (within the clock skew taken) deleted the turns
//     written here after it arrived: a catch-up skipped it while the
//     session was open, and the next one, after more turns and a close,
//     removed the journal with no note.
//   - a tombstone whose Seen names this machine at a time after U: it saw
//     this machine's records up to U. Before, an entry dated 9999 counted
//     every record this machine would ever write as seen.
//
// A claim up to U at first sight needs nothing more: every later record is
// dated after U, so after the claim. One beyond U needs U remembered, as
// time moves on and the journal grows: it is kept in this machine's own
// folder (Places.Locks, never synced, with the locks), in sightDir, one
// small file a session, written once and removed with the tombstone. It is
// never written beside the journals: a store without a folder of its own
// sets such a tombstone aside, with a note, as one dated too far ahead
// (kept, never lost, when in doubt).
//
// U is remembered too when the journal leaves this machine, deleted here
// or by a tombstone: nothing this machine writes after that is in any
// copy a tombstone read later judges, and what it wrote before is up to U
// (a tombstone that names this machine's record dated after its clock,
// behind a peer's ahead, is honest: TestTombSeenOfRecordAheadOfThisClockApplies).
//
// The remembered U is this machine's, compared with its own records by its
// own clock; nothing synced changes, so an honest tombstone is taken
// alike by every machine (TestMergeProperty checks none is set aside).

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"muse/session/internal/fileio"
)

// sightDir is the folder, in the store's lock folder, of the first sights
// remembered.
const sightDir = "deletes-seen"

// sight is what a store remembers of a tombstone that claimed more than
// it could have seen: U, as Upto.
type sight struct {
	Upto time.Time `json:"upto"`
}

// sightFolder returns the folder of the first sights remembered, or ""
// where the store has no folder of its own.
func (s *Store) sightFolder() string {
	if s.places.Locks == "" || s.places.Locks == s.dir {
		return ""
	}
	return filepath.Join(s.places.Locks, sightDir)
}

// sightPath returns the file of the first sight of the session id's
// tombstone, or "" where the store has no folder of its own.
func (s *Store) sightPath(id string) string {
	if dir := s.sightFolder(); dir != "" {
		return filepath.Join(dir, id+".json")
	}
	return ""
}

// sightOf returns the U remembered for the session id, if one is.
func (s *Store) sightOf(id string) (time.Time, bool) {
	path := s.sightPath(id)
	if path == "" {
		return time.Time{}, false
	}
	data, err := os.ReadFile(path)
	var sg sight
	if err != nil || json.Unmarshal(data, &sg) != nil || sg.Upto.IsZero() {
		return time.Time{}, false
	}
	return sg.Upto, true
}

// markSight remembers U for the session id, unless one is remembered:
// the first wins, whoever writes it.
func (s *Store) markSight(id string, upto time.Time) (time.Time, error) {
	path := s.sightPath(id)
	if path == "" {
		return time.Time{}, errors.New("the store has no folder of its own, out of the synced one")
	}
	data, err := json.Marshal(sight{Upto: upto})
	if err != nil {
		return time.Time{}, err
	}
	if err := fileio.MakeDir(filepath.Dir(path)); err != nil {
		return time.Time{}, err
	}
	err = fileio.WriteNew(path, data)
	if errors.Is(err, fs.ErrExist) {
		if u, ok := s.sightOf(id); ok {
			return u, nil
		}
		err = fileio.WriteAtomic(path, data) // damaged: written again
	}
	return upto, err
}

// forgetSight forgets the first sight of the session id's tombstone.
func (s *Store) forgetSight(id string) {
	if path := s.sightPath(id); path != "" {
		_ = os.Remove(path)
	}
}

// pruneSights forgets the first sights of sessions with no tombstone
// (removed by a sync engine): tombs are the ids that have one.
func (s *Store) pruneSights(tombs []string) {
	dir := s.sightFolder()
	if dir == "" {
		return
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	have := make(map[string]bool, len(tombs))
	for _, id := range tombs {
		have[id] = true
	}
	for _, de := range des {
		if id, ok := strings.CutSuffix(de.Name(), ".json"); ok && !have[id] {
			_ = os.Remove(filepath.Join(dir, de.Name()))
		}
	}
}

// upto returns U for the session id, whose journal this machine holds:
// the clock, or the journal's newest record believed if later.
func (s *Store) upto(id string) time.Time {
	_, u, _ := s.unseen(s.path(id), tomb{Seen: map[string]time.Time{}})
	return u
}

// claim returns what the tombstone t claims to have seen of this
// machine's records: all up to its date, for an older muse's; up to its
// entry for this machine, if it has one.
func (t tomb) claim(here string) (time.Time, bool) {
	if t.Seen == nil {
		return t.Time, true
	}
	at, ok := t.Seen[here]
	return at, ok
}

// capped returns t claiming at most u of this machine's records.
func (t tomb) capped(here string, u time.Time) tomb {
	c, ok := t.claim(here)
	if !ok || !c.After(u) {
		return t
	}
	if t.Seen == nil {
		t.upto, t.here = u, here
		return t
	}
	seen := make(map[string]time.Time, len(t.Seen))
	for m, at := range t.Seen {
		seen[m] = at
	}
	seen[here] = u
	t.Seen = seen
	return t
}
