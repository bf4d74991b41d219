package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// copyTomb copies the tombstone of id from one machine's folder to
// another's, as a sync engine would.
func copyTomb(t *testing.T, from, to *Store, id string) {
	t.Helper()
	data, err := os.ReadFile(from.tombPath(id))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(to.Dir(), id+tombExt), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// A machine whose clock runs 23 hours ahead (a skew muse takes) deletes a
// session. Another, whose clock is right and which had not seen the
// delete, adds a turn after it: dated 22 hours before the delete by the
// clocks. The tombstone deletes what its machine saw, not what came after:
// the turn and its session are kept, with a note, where the tombstone
// arrives after it, whether as the journal or as a conflict copy; a
// machine that holds only what the delete saw removes the session. Before,
// the turn was older than the delete by the clocks, and went with it.
func TestDeleteAheadKeepsATurnItDidNotSee(t *testing.T) {
	a, b, c := newMachine(t, "a", 23*time.Hour), newMachine(t, "b", 0), newMachine(t, "c", 0)
	w := NewWriter(b.s, Params{})
	if _, err := w.Append(Entry{Kind: KindUser, Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	id := w.ID()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	copyJournal(t, b.s, a.s, id, id+journalExt)
	copyJournal(t, b.s, c.s, id, id+journalExt)
	if err := a.s.Delete(id); err != nil {
		t.Fatal(err)
	}
	// Where no turn came after it, the delete applies.
	copyTomb(t, a.s, c.s, id)
	if notes := catchUp(t, c.s); len(notes) != 0 {
		t.Errorf("c: notes %+v", notes)
	}
	if _, err := os.Stat(c.s.path(id)); !os.IsNotExist(err) {
		t.Errorf("c kept the session the delete saw whole: %v", err)
	}

	b.c.t = b.c.t.Add(time.Hour)
	appendTo(t, b.s, id, "a turn after the delete")
	copyTomb(t, a.s, b.s, id)
	notes := catchUp(t, b.s)
	if _, err := os.Stat(b.s.path(id)); err != nil {
		t.Fatalf("the session went with the turn added after its delete: %v (notes %+v)", err, notes)
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0].Text, "kept: ") {
		t.Errorf("notes %+v", notes)
	}
	if _, err := os.Lstat(b.s.tombPath(id)); !os.IsNotExist(err) {
		t.Errorf("the tombstone stays: %v", err)
	}

	// The turn arrives as a conflict copy where the journal is gone.
	copyName := id + " (conflicted copy 2025-03-01 101010)" + journalExt
	copyJournal(t, b.s, a.s, id, copyName)
	if notes := catchUp(t, a.s); len(notes) != 1 || !strings.HasPrefix(notes[0].Text, "kept: ") {
		t.Errorf("the copy: notes %+v", notes)
	}
	if _, err := os.Stat(a.s.path(id)); err != nil {
		t.Errorf("the copy that holds the turn did not become the journal: %v", err)
	}
}
