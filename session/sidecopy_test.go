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

func TestSideCopyNames(t *testing.T) {
	id := "20250301-090000-0102030405060708"
	for name, want := range map[string]string{
		id + ".sync-conflict-20250301-101010-ABCDEF7.deleted": tombExt,
		id + " (conflicted copy 2025-03-01 101010).queue":     queueExt,
		id + " 2.deleted": tombExt,
		id + " 3.queue":   queueExt,
		id + ".sync-conflict-20250301-101010-ABCDEF7.jsonl": journalExt,
		id + ".deleted": "",
		id + ".queue":   "",
		id + ".sync-conflict-20250301-101010-ABCDEF7.deleted.unmerged": "",
		id + ".sync-conflict-20250301-101010-ABCDEF7.lock":             "",
	} {
		got, ext, ok := copyOf(name)
		if ok != (want != "") || ok && (got != id || ext != want) {
			t.Errorf("copyOf(%q) = %q, %q, %v; want %q", name, got, ext, ok, want)
		}
	}
}

// writeTombCopy writes a conflict copy of the tombstone of id, deleted by
// machine m at when, as a sync engine would.
func writeTombCopy(t *testing.T, s *Store, name, id, m string, when time.Time) {
	t.Helper()
	data, err := json.Marshal(tomb{Type: "deleted", ID: id, Time: when, M: m})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Dir(), name), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// The session was deleted on two machines, and edited on the second
// between the deletes: the later delete wins, so the edit, older than it,
// goes too. Before tombstones' copies were merged, the earlier delete
// alone applied and the session came back.
func TestTwoDeletesKeepTheLater(t *testing.T) {
	a, b := newMachine(t, "a", 0), newMachine(t, "b", 0)
	w := NewWriter(a.s, Params{})
	if _, err := w.Append(Entry{Kind: KindUser, Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	id := w.ID()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	copyJournal(t, a.s, b.s, id, id+journalExt)
	if err := a.s.Delete(id); err != nil {
		t.Fatal(err)
	}
	first, ok := a.s.tombOf(id)
	if !ok {
		t.Fatal("no tombstone")
	}
	// b edits an hour later, then deletes an hour after that; its
	// journal and its tombstone (as a conflict copy) arrive.
	b.c.t = first.Add(time.Hour)
	appendTo(t, b.s, id, "an edit before b's delete")
	later := first.Add(2 * time.Hour)
	copyJournal(t, b.s, a.s, id, id+journalExt)
	copyName := id + ".sync-conflict-20250301-111111-BBBBBBB.deleted"
	writeTombCopy(t, a.s, copyName, id, "b", later)

	if notes := catchUp(t, a.s); len(notes) != 0 {
		t.Errorf("notes %v", notes)
	}
	if got, ok := a.s.tombOf(id); !ok || !got.Equal(later) {
		t.Errorf("tombstone at %v (%v), want the later delete %v", got, ok, later)
	}
	if _, err := os.Stat(filepath.Join(a.s.Dir(), copyName)); !os.IsNotExist(err) {
		t.Errorf("the copy is still there: %v", err)
	}
	if _, err := os.Stat(a.s.path(id)); !os.IsNotExist(err) {
		t.Errorf("the journal, older than the later delete, is still there: %v", err)
	}

	// An older copy changes nothing, and goes.
	older := id + " 2.deleted"
	writeTombCopy(t, a.s, older, id, "c", first)
	if notes := catchUp(t, a.s); len(notes) != 0 {
		t.Errorf("notes %v", notes)
	}
	if got, _ := a.s.tombOf(id); !got.Equal(later) {
		t.Errorf("an older copy replaced the tombstone: %v", got)
	}
	if _, err := os.Stat(filepath.Join(a.s.Dir(), older)); !os.IsNotExist(err) {
		t.Errorf("the older copy is still there: %v", err)
	}

	// A copy that is not a tombstone is left, renamed, and noted.
	bad := id + " 3.deleted"
	if err := os.WriteFile(filepath.Join(a.s.Dir(), bad), []byte("not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	notes := catchUp(t, a.s)
	if len(notes) != 1 || notes[0].File != bad+unmergedExt || !strings.Contains(notes[0].Text, "not a tombstone") {
		t.Errorf("notes %v", notes)
	}
	if _, err := os.Stat(filepath.Join(a.s.Dir(), bad+unmergedExt)); err != nil {
		t.Errorf("the bad copy was not kept: %v", err)
	}
}

// Prompts queued on two machines: the queue holds its own, then those of
// the copy it lacked; not while the session is open.
func TestQueueCopiesMerge(t *testing.T) {
	s, _ := newTestStore(t)
	w := NewWriter(s, Params{})
	if _, err := w.Append(Entry{Kind: KindUser, Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	id := w.ID()
	if err := w.SaveQueue(1, []QueuedPrompt{{Text: "one"}, {Text: "two"}}); err != nil {
		t.Fatal(err)
	}
	copyName := id + " (conflicted copy 2025-03-01 101010).queue"
	data, err := json.Marshal(queueFile{V: 1, Prompts: []QueuedPrompt{{Text: "two"}, {Text: "three"}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Dir(), copyName), data, 0o600); err != nil {
		t.Fatal(err)
	}
	texts := func() []string {
		t.Helper()
		q, warnings := s.loadQueue(id)
		if len(warnings) != 0 {
			t.Fatalf("warnings %v", warnings)
		}
		var out []string
		for _, p := range q {
			out = append(out, p.Text)
		}
		return out
	}

	// Open here: left for a later catch-up.
	if notes := catchUp(t, s); len(notes) != 0 {
		t.Errorf("notes %v", notes)
	}
	if got := texts(); !slices.Equal(got, []string{"one", "two"}) {
		t.Errorf("merged while open: %q", got)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	if notes := catchUp(t, s); len(notes) != 0 {
		t.Errorf("notes %v", notes)
	}
	if got := texts(); !slices.Equal(got, []string{"one", "two", "three"}) {
		t.Errorf("queue %q, want one, two, three", got)
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), copyName)); !os.IsNotExist(err) {
		t.Errorf("the copy is still there: %v", err)
	}
	fi, err := os.Stat(s.queuePath(id))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("queue file %v (%v), want mode 0600", fi, err)
	}
}

// A tombstone's copy dated after now (by more than a day of clock skew)
// is left and noted: taken, it would delete every later edit.
func TestFutureTombCopyIsLeft(t *testing.T) {
	s, c := newTestStore(t)
	w := NewWriter(s, Params{})
	if _, err := w.Append(Entry{Kind: KindUser, Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	id := w.ID()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	name := id + " (conflicted copy 2025-03-01 101010).deleted"
	writeTombCopy(t, s, name, id, "b", c.now().Add(365*24*time.Hour))
	notes := catchUp(t, s)
	if len(notes) != 1 || !strings.Contains(notes[0].Text, "after now") {
		t.Errorf("notes %v", notes)
	}
	if _, ok := s.tombOf(id); ok {
		t.Error("the future delete was taken")
	}
	if _, err := os.Stat(s.path(id)); err != nil {
		t.Errorf("the session is gone: %v", err)
	}
}
