package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// farFuture is a date a sync peer may write to win every merge.
var farFuture = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)

// oneSession writes a session of one prompt and returns its id.
func oneSession(t *testing.T, s *Store) string {
	t.Helper()
	w := NewWriter(s, Params{})
	if _, err := w.Append(Entry{Kind: KindUser, Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.ID()
}

// A tombstone written straight into the folder (not a conflict copy) and
// dated year 9999 deletes nothing: it is set aside, renamed, with a note,
// once; the session stays. Before, it deleted the session at every sync,
// and every edit made before 9999.
func TestFutureTombIsSetAside(t *testing.T) {
	s, c := newPlacedStore(t)
	id := oneSession(t, s)
	writeTombCopy(t, s, id+tombExt, id, "peer", farFuture)
	notes := catchUp(t, s)
	if len(notes) != 1 || notes[0].File != id+tombExt+unmergedExt || !strings.Contains(notes[0].Text, "9999-12-31T00:00:00Z, more than a day after now") {
		t.Fatalf("notes %+v", notes)
	}
	if _, err := os.Stat(s.path(id)); err != nil {
		t.Fatalf("the session is gone: %v", err)
	}
	if _, err := os.Lstat(s.tombPath(id)); !os.IsNotExist(err) {
		t.Errorf("the tombstone is still there: %v", err)
	}
	if notes := catchUp(t, s); len(notes) != 0 {
		t.Errorf("said again: %+v", notes)
	}
	// A day of clock skew is taken: that delete applies.
	writeTombCopy(t, s, id+tombExt, id, "peer", c.now().Add(23*time.Hour))
	if notes := catchUp(t, s); len(notes) != 0 {
		t.Errorf("notes %+v", notes)
	}
	if _, err := os.Stat(s.path(id)); !os.IsNotExist(err) {
		t.Errorf("a delete dated 23 hours ahead did not apply: %v", err)
	}
}

// Nor does it delete a sync engine's copy of the journal that arrives
// while the journal is away: the copy becomes the journal.
func TestFutureTombKeepsArrivingCopies(t *testing.T) {
	s, _ := newTestStore(t)
	id := oneSession(t, s)
	copyName := id + " (conflicted copy 2025-03-01 101010)" + journalExt
	if err := os.Rename(s.path(id), filepath.Join(s.Dir(), copyName)); err != nil {
		t.Fatal(err)
	}
	writeTombCopy(t, s, id+tombExt, id, "peer", farFuture)
	notes := catchUp(t, s)
	if _, err := os.Stat(s.path(id)); err != nil {
		t.Fatalf("the copy did not become the journal: %v (notes %+v)", err, notes)
	}
	if len(notes) != 2 || !strings.Contains(notes[0].Text, "more than a day after now") {
		t.Errorf("notes %+v", notes)
	}
}

// A record dated year 9999 in a journal is no edit made after a delete:
// the session deleted on another machine goes. Deleted here, its
// tombstone is dated no later than a day ahead, so other machines take it.
func TestFutureRecordDoesNotOutliveDelete(t *testing.T) {
	for _, here := range []bool{false, true} {
		s, c := newTestStore(t)
		c.mu.Lock()
		c.t = farFuture
		c.mu.Unlock()
		id := oneSession(t, s)
		c.mu.Lock()
		c.t = clockStart.Add(time.Hour)
		c.mu.Unlock()
		if here {
			if err := s.Delete(id); err != nil {
				t.Fatal(err)
			}
			tb, err := readTomb(s.tombPath(id))
			if err != nil || tb.Time.After(c.now().Add(maxClockSkew)) {
				t.Errorf("the tombstone says %v, %v: other machines would refuse it", tb.Time, err)
			}
			continue
		}
		writeTombCopy(t, s, id+tombExt, id, "peer", c.now())
		if notes := catchUp(t, s); len(notes) != 0 {
			t.Errorf("notes %+v", notes)
		}
		if _, err := os.Stat(s.path(id)); !os.IsNotExist(err) {
			t.Errorf("a session with a record dated 9999 outlived its delete: %v", err)
		}
	}
}

// A journal whose newest record is dated at the last time JSON can write
// (a synced record written to come last) still takes new turns: they are
// dated there too, saved, and load back after it in the order written.
// Before, every turn failed to save ("year outside of range [0,9999]").
func TestJournalDatedAtTheEndOfTimeTakesNewTurns(t *testing.T) {
	s, _ := newTestStore(t)
	id := oneSession(t, s)
	lines := journalLines(t, s, id)
	title := mustJSON(t, map[string]any{"type": "title", "time": maxRecordTime, "m": "ffffffffffffffff", "title": "last"})
	writeJournal(t, s, id, append(lines, title), "")
	w, err := s.OpenWriter(id)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"one", "two"} {
		if _, err := w.Append(Entry{Kind: KindUser, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatalf("the turns were not saved: %v", err)
	}
	sess, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, e := range sess.Entries {
		texts = append(texts, e.Text)
	}
	if got := strings.Join(texts, ","); got != "hello,one,two" {
		t.Errorf("entries %q, want hello,one,two", got)
	}
}
