package session

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// advance moves the test clock c on by d.
func advance(c *testClock, d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// writeSeenTomb writes, as a sync engine would, the tombstone of id dated
// when, from machine m, that says it saw the records seen says.
func writeSeenTomb(t *testing.T, s *Store, id, m string, when time.Time, seen map[string]time.Time) {
	t.Helper()
	data, err := json.Marshal(tomb{Type: "deleted", ID: id, Time: when, M: m, Seen: seen})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.tombPath(id), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// tombKind names the tombstones of a test: an older muse's, dated ahead,
// or one whose entry for this machine is.
func tombKind(legacy bool) string {
	if legacy {
		return "dated"
	}
	return "seen"
}

// dirNamesOf returns the names in dir.
func dirNamesOf(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dirNames(des)
}

// The attacker's schedule (attack2): a tombstone dated 23 hours ahead
// (within the clock skew taken) arrives while the session is open here,
// as an older muse's (no Seen), or as one whose entry for this machine is
// dated so. The user goes on writing for 20 hours, and closes the session.
// The next catch-up keeps the session, with a note: the turns were
// written after the tombstone arrived, so no delete saw them. Before, it
// removed the journal with no note. What muse remembers of the tombstone
// is in this machine's own folder, never beside the journals, and goes
// with the tombstone.
func TestTombAheadSparesTurnsAfterItArrived(t *testing.T) {
	for _, legacy := range []bool{true, false} {
		t.Run(tombKind(legacy), func(t *testing.T) { spareTurnsAfter(t, legacy) })
	}
}

// spareTurnsAfter is TestTombAheadSparesTurnsAfterItArrived of one kind
// of tombstone.
func spareTurnsAfter(t *testing.T, legacy bool) {
	s, c := newPlacedStore(t)
	s.SetMachine("me")
	w := NewWriter(s, Params{})
	if _, err := w.Append(Entry{Kind: KindUser, Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	id := w.ID()
	ahead := c.now().Add(23 * time.Hour)
	if legacy {
		writeTombCopy(t, s, id+tombExt, id, "peer", ahead)
	} else {
		writeSeenTomb(t, s, id, "peer", c.now(), map[string]time.Time{"me": ahead})
	}
	if notes := catchUp(t, s); len(notes) != 0 {
		t.Errorf("catch-up while open: notes %+v", notes)
	}
	if got := dirNamesOf(t, s.Dir()); !slices.Equal(got, []string{id + tombExt, id + journalExt}) {
		t.Errorf("the data folder holds %q", got)
	}
	sightFile := filepath.Join(s.LockDir(), sightDir, id+".json")
	if _, err := os.Stat(sightFile); err != nil {
		t.Errorf("first sight not remembered in the machine's own folder: %v", err)
	}
	advance(c, 20*time.Hour)
	if _, err := w.Append(Entry{Kind: KindUser, Text: "20 hours of work after the tombstone arrived"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	notes := catchUp(t, s)
	if _, err := os.Stat(s.path(id)); err != nil {
		t.Fatalf("edits written 20h after the tombstone arrived were deleted: %v (notes %+v)", err, notes)
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0].Text, "kept: ") {
		t.Errorf("notes %+v", notes)
	}
	if _, err := os.Stat(sightFile); !os.IsNotExist(err) {
		t.Errorf("the first sight outlives its tombstone: %v", err)
	}
	advance(c, 30*time.Hour) // past the tombstone's date
	if notes := catchUp(t, s); len(notes) != 0 {
		t.Errorf("later: notes %+v", notes)
	}
	if _, err := os.Stat(s.path(id)); err != nil {
		t.Errorf("deleted later: %v", err)
	}
}

// What such a tombstone can have seen it deletes: with no turn after it
// arrived, the session goes, with no note, once it is closed, and stays
// gone when a copy of what the delete saw arrives after its date.
func TestTombAheadDeletesWhatItCanHaveSeen(t *testing.T) {
	for _, legacy := range []bool{true, false} {
		t.Run(tombKind(legacy), func(t *testing.T) {
			s, c := newPlacedStore(t)
			s.SetMachine("me")
			w := NewWriter(s, Params{})
			if _, err := w.Append(Entry{Kind: KindUser, Text: "hello"}); err != nil {
				t.Fatal(err)
			}
			id := w.ID()
			data, err := os.ReadFile(s.path(id))
			if err != nil {
				t.Fatal(err)
			}
			ahead := c.now().Add(23 * time.Hour)
			if legacy {
				writeTombCopy(t, s, id+tombExt, id, "peer", ahead)
			} else {
				writeSeenTomb(t, s, id, "peer", c.now(), map[string]time.Time{"me": ahead})
			}
			catchUp(t, s)
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if notes := catchUp(t, s); len(notes) != 0 {
				t.Errorf("notes %+v", notes)
			}
			if _, err := os.Stat(s.path(id)); !os.IsNotExist(err) {
				t.Errorf("the delete did not apply: %v", err)
			}
			advance(c, 30*time.Hour)
			copyName := id + " (conflicted copy 2025-03-01 101010)" + journalExt
			if err := os.WriteFile(filepath.Join(s.Dir(), copyName), data, 0o600); err != nil {
				t.Fatal(err)
			}
			if notes := catchUp(t, s); len(notes) != 0 {
				t.Errorf("the copy: notes %+v", notes)
			}
			if got := dirNamesOf(t, s.Dir()); !slices.Equal(got, []string{id + tombExt}) {
				t.Errorf("the data folder holds %q", got)
			}
		})
	}
}

// A tombstone's entry for this machine dated year 9999 names no machine:
// it counts none of this machine's records as seen, so they keep the
// session, with a note. Before, it counted every record this machine
// would ever write as seen.
func TestTombSeenFarAheadSeesNothing(t *testing.T) {
	s, c := newPlacedStore(t)
	s.SetMachine("me")
	id := oneSession(t, s)
	writeSeenTomb(t, s, id, "peer", c.now(), map[string]time.Time{"me": farFuture})
	notes := catchUp(t, s)
	if _, err := os.Stat(s.path(id)); err != nil {
		t.Fatalf("deleted by a tombstone that claims to have seen year 9999: %v (notes %+v)", err, notes)
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0].Text, "kept: ") {
		t.Errorf("notes %+v", notes)
	}
}

// A store without a folder of its own (session.Open, as shell completion
// opens one) cannot remember a tombstone's first sight: one that claims
// more than this machine can have written is set aside, with a note,
// instead of deleting the turns written after it arrived.
func TestTombAheadSetAsideWithoutAFolderOfItsOwn(t *testing.T) {
	for _, legacy := range []bool{true, false} {
		t.Run(tombKind(legacy), func(t *testing.T) {
			s, c := newTestStore(t)
			s.SetMachine("me")
			id := oneSession(t, s)
			ahead := c.now().Add(23 * time.Hour)
			if legacy {
				writeTombCopy(t, s, id+tombExt, id, "peer", ahead)
			} else {
				writeSeenTomb(t, s, id, "peer", c.now(), map[string]time.Time{"me": ahead})
			}
			notes := catchUp(t, s)
			if len(notes) != 1 || notes[0].File != id+tombExt+unmergedExt || !strings.Contains(notes[0].Text, "so it would delete edits made after it arrived") {
				t.Errorf("notes %+v", notes)
			}
			if got := dirNamesOf(t, s.Dir()); !slices.Equal(got, []string{id + tombExt + unmergedExt, id + journalExt}) {
				t.Errorf("the data folder holds %q", got)
			}
		})
	}
}

// An honest tombstone may name a record of this machine dated after its
// clock: one written after a record of a machine whose clock is ahead
// (Writer dates it after the newest). The delete that saw it applies,
// with no note, in a store with a folder of its own or without.
func TestTombSeenOfRecordAheadOfThisClockApplies(t *testing.T) {
	for _, placed := range []bool{true, false} {
		a := newMachine(t, "a", 23*time.Hour)
		b := newMachine(t, "b", 0)
		if !placed {
			b.s.places = Places{Cache: b.s.dir, Locks: b.s.dir}
		}
		id := oneSession(t, a.s)
		copyJournal(t, a.s, b.s, id, id+journalExt)
		appendTo(t, b.s, id, "after a's, by the record's date")
		copyJournal(t, b.s, a.s, id, id+journalExt)
		if err := a.s.Delete(id); err != nil {
			t.Fatal(err)
		}
		tb, err := readTomb(a.s.tombPath(id))
		if err != nil {
			t.Fatal(err)
		}
		if !tb.Seen["b"].After(b.c.now()) {
			t.Fatalf("b's record is dated %v, not after b's clock", tb.Seen["b"])
		}
		copyTomb(t, a.s, b.s, id)
		if notes := catchUp(t, b.s); len(notes) != 0 {
			t.Errorf("placed %v: notes %+v", placed, notes)
		}
		if _, err := os.Stat(b.s.path(id)); !os.IsNotExist(err) {
			t.Errorf("placed %v: the delete that saw b's record did not apply: %v", placed, err)
		}
	}
}

// A delete made here of a journal that holds a peer's record dated year
// 9999 (not believed) still saw the peer's other records: a copy of the
// journal that arrives later goes too. A tombstone names no record too far
// ahead to be believed, as a reader leaves such an entry out.
func TestDeleteOfRecordFarAheadSawTheRest(t *testing.T) {
	s, _ := newPlacedStore(t)
	s.SetMachine("me")
	id := oneSession(t, s)
	lines := journalLines(t, s, id)
	peer := mustJSON(t, map[string]any{"type": "title", "time": clockStart.Add(time.Minute), "m": "peer", "title": "peer's"})
	ahead := mustJSON(t, map[string]any{"type": "title", "time": farFuture, "m": "peer", "title": "far"})
	writeJournal(t, s, id, append(lines, peer), "")
	data, err := os.ReadFile(s.path(id))
	if err != nil {
		t.Fatal(err)
	}
	writeJournal(t, s, id, append(lines, peer, ahead), "")
	if err := s.Delete(id); err != nil {
		t.Fatal(err)
	}
	copyName := id + " (conflicted copy 2025-03-01 101010)" + journalExt
	if err := os.WriteFile(filepath.Join(s.Dir(), copyName), data, 0o600); err != nil {
		t.Fatal(err)
	}
	if notes := catchUp(t, s); len(notes) != 0 {
		t.Errorf("notes %+v", notes)
	}
	if got := dirNamesOf(t, s.Dir()); !slices.Equal(got, []string{id + tombExt}) {
		t.Errorf("the data folder holds %q", got)
	}
}

// A machine deletes a session whose newest record of its own is dated
// after its clock (behind a record of a machine whose clock is ahead).
// An older copy of the journal, without that record, arrives whole, then
// a copy with it: both go, with no note, as on every other machine.
// What this machine wrote was remembered when its journal left: without
// it, the older journal's arrival was taken as the tombstone's first
// sight, and the record, after it, kept the session here alone.
func TestOwnDeleteOfRecordAheadStaysDeleted(t *testing.T) {
	a := newMachine(t, "a", 23*time.Hour)
	b := newMachine(t, "b", 0)
	id := oneSession(t, a.s)
	copyJournal(t, a.s, b.s, id, id+journalExt)
	older, err := os.ReadFile(b.s.path(id))
	if err != nil {
		t.Fatal(err)
	}
	appendTo(t, b.s, id, "after a's, by the record's date")
	newer, err := os.ReadFile(b.s.path(id))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.s.Delete(id); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b.s.path(id), older, 0o600); err != nil {
		t.Fatal(err)
	}
	if notes := catchUp(t, b.s); len(notes) != 0 {
		t.Errorf("the older journal: notes %+v", notes)
	}
	copyName := id + " (conflicted copy 2025-03-01 101010)" + journalExt
	if err := os.WriteFile(filepath.Join(b.s.Dir(), copyName), newer, 0o600); err != nil {
		t.Fatal(err)
	}
	if notes := catchUp(t, b.s); len(notes) != 0 {
		t.Errorf("the copy: notes %+v", notes)
	}
	if got := dirNamesOf(t, b.s.Dir()); !slices.Equal(got, []string{id + tombExt}) {
		t.Errorf("the data folder holds %q", got)
	}
}
