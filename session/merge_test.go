package session

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// machine is a muse on one machine: a store of its own folder, with its
// own clock and machine id.
type machine struct {
	s *Store
	c *testClock
}

func newMachine(t *testing.T, name string, skew time.Duration) machine {
	t.Helper()
	s, c := newPlacedStore(t)
	c.t = c.t.Add(skew)
	s.SetMachine(name)
	return machine{s, c}
}

// newPlacedStore opens a store as muse does (cli.openStore): with a
// folder of this machine's own for its locks, out of the data folder, and
// a test clock.
func newPlacedStore(t *testing.T) (*Store, *testClock) {
	t.Helper()
	root := t.TempDir()
	s, err := OpenAt(filepath.Join(root, "sessions"), Places{Locks: filepath.Join(root, "state", "locks")})
	if err != nil {
		t.Fatal(err)
	}
	c := &testClock{t: clockStart}
	s.now = c.now
	return s, c
}

// copyJournal copies the journal of id from one machine's folder to
// another's under the name as, as a sync engine would.
func copyJournal(t *testing.T, from, to *Store, id, as string) {
	t.Helper()
	data, err := os.ReadFile(from.path(id))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(to.Dir(), as), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func appendTo(t *testing.T, s *Store, id, text string) Entry {
	t.Helper()
	w, err := s.OpenWriter(id)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	e, err := w.Append(Entry{Kind: KindUser, Text: text})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func catchUp(t *testing.T, s *Store) []Note {
	t.Helper()
	notes, err := s.CatchUp()
	if err != nil {
		t.Fatal(err)
	}
	return notes
}

func TestConflictNames(t *testing.T) {
	id := "20250301-090000-0102030405060708"
	for name, want := range map[string]bool{
		id + ".sync-conflict-20250301-101010-ABCDEF7.jsonl": true,
		id + " (Ada's conflicted copy 2025-03-01).jsonl":    true,
		id + " (conflicted copy 2025-03-01 101010).jsonl":   true,
		id + " 2.jsonl":  true,
		id + " 13.jsonl": true,
		id + ".jsonl":    false,
		id + " 1.jsonl":  false,
		id + ".sync-conflict-20250301-101010-ABCDEF7.jsonl.unmerged": false,
		"../x.sync-conflict-20250301-101010-A.jsonl":                 false,
		id + ".lock": false,
	} {
		got, ok := conflictOf(name)
		if ok != want || ok && got != id {
			t.Errorf("conflictOf(%q) = %q, %v; want %v", name, got, ok, want)
		}
	}
}

// The same session continued on two machines before they synced: each
// sync engine's conflict copy is merged, and the session ends with both
// continuations as sibling branches under their common parent, the newest
// active, whichever way round the merge went. Merging the copy again
// changes nothing, and the copy is gone.
func TestContinuedOnTwoMachinesMerges(t *testing.T) {
	for _, name := range []string{".sync-conflict-20250301-101010-ABCDEF7.jsonl", " (Ada's conflicted copy 2025-03-01).jsonl", " 2.jsonl"} {
		a, b := newMachine(t, "a", 0), newMachine(t, "b", 0)
		w := NewWriter(a.s, Params{Model: "m"})
		first, err := w.Append(Entry{Kind: KindUser, Text: "hello"})
		if err != nil {
			t.Fatal(err)
		}
		id := w.ID()
		w.Close()
		copyJournal(t, a.s, b.s, id, id+journalExt)
		onA := appendTo(t, a.s, id, "from a")
		b.c.t = b.c.t.Add(time.Hour) // b's continuation is the newer
		onB := appendTo(t, b.s, id, "from b")
		for _, m := range []struct{ to, from machine }{{a, b}, {b, a}} {
			copyJournal(t, m.from.s, m.to.s, id, id+name)
			if notes := catchUp(t, m.to.s); len(notes) != 0 {
				t.Errorf("notes %v", notes)
			}
			if _, err := os.Stat(filepath.Join(m.to.s.Dir(), id+name)); !os.IsNotExist(err) {
				t.Errorf("the conflict copy %q is still there: %v", name, err)
			}
		}
		la, err := a.s.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		lb, err := b.s.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(la.All); len(got) != 3 || !slices.Contains(got, onA.ID) || !slices.Contains(got, onB.ID) {
			t.Fatalf("%q: entries %v", name, got)
		}
		for _, l := range []*Session{la, lb} {
			if l.Head != onB.ID || !slices.Equal(ids(l.Entries), []string{first.ID, onB.ID}) {
				t.Errorf("%q: head %s, branch %v; want the newest, %s", name, l.Head, ids(l.Entries), onB.ID)
			}
			pos, _ := l.Tree().Positions(l.Entries)
			if p := pos[onB.ID]; len(p.Siblings) != 2 {
				t.Errorf("%q: siblings %v", name, p.Siblings)
			}
		}
		if !sameRecords(t, a.s, b.s, id) {
			t.Errorf("%q: the machines hold different records", name)
		}
		// Idempotent: the same copy again adds nothing.
		before, _ := os.ReadFile(a.s.path(id))
		copyJournal(t, b.s, a.s, id, id+name)
		catchUp(t, a.s)
		after, _ := os.ReadFile(a.s.path(id))
		if string(before) != string(after) {
			t.Errorf("%q: merging the same copy twice changed the journal", name)
		}
		// Opened, the merged journal is rewritten in the order its
		// records apply, so that its last lines are its newest.
		w2, err := a.s.OpenWriter(id)
		if err != nil {
			t.Fatal(err)
		}
		w2.Close()
		var prev time.Time
		for _, l := range journalLines(t, a.s, id)[1:] {
			if k := keyLine([]byte(l)); k.t.Before(prev) {
				t.Errorf("%q: out of order after opening: %s", name, l)
			} else {
				prev = k.t
			}
		}
		if again, _ := a.s.Load(id); again.Head != onB.ID || len(again.All) != 3 {
			t.Errorf("%q: rewriting changed the session", name)
		}
	}
}

// sameRecords reports whether two machines' journals of id hold the same
// records, whatever their order.
func sameRecords(t *testing.T, a, b *Store, id string) bool {
	t.Helper()
	la, lb := journalLines(t, a, id), journalLines(t, b, id)
	slices.Sort(la)
	slices.Sort(lb)
	return slices.Equal(la, lb)
}

// A copy with a damaged line has its whole records merged, and is left
// beside the session, named so, with a note; so is one that holds
// another session, and a symbolic link, which is never followed.
func TestCopiesThatCannotBeMergedAreLeft(t *testing.T) {
	a, b := newMachine(t, "a", 0), newMachine(t, "b", 0)
	w := NewWriter(a.s, Params{})
	w.Append(Entry{Kind: KindUser, Text: "hello"})
	id := w.ID()
	w.Close()
	copyJournal(t, a.s, b.s, id, id+journalExt)
	e := appendTo(t, b.s, id, "from b")
	lines := journalLines(t, b.s, id)
	damaged := strings.Join(lines, "\n") + "\n{\"type\":\"entry\",broken\n"
	os.WriteFile(filepath.Join(a.s.Dir(), id+" 2.jsonl"), []byte(damaged), 0o600)
	other := NewWriter(a.s, Params{})
	other.Append(Entry{Kind: KindUser, Text: "another"})
	otherID := other.ID()
	other.Close()
	copyJournal(t, a.s, a.s, otherID, id+" 3.jsonl")
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("not yours"), 0o600)
	os.Symlink(secret, filepath.Join(a.s.Dir(), id+" 4.jsonl"))

	notes := catchUp(t, a.s)
	if len(notes) != 3 {
		t.Fatalf("notes %v; want three", notes)
	}
	for _, n := range notes {
		if !strings.HasSuffix(n.File, unmergedExt) || n.Session != id {
			t.Errorf("note %+v", n)
		}
		if _, err := os.Lstat(filepath.Join(a.s.Dir(), n.File)); err != nil {
			t.Errorf("%s was not left: %v", n.File, err)
		}
	}
	got, _ := a.s.Load(id)
	if !slices.Contains(ids(got.All), e.ID) {
		t.Errorf("the whole records of the damaged copy were not merged: %v", ids(got.All))
	}
	if data, _ := os.ReadFile(secret); string(data) != "not yours" {
		t.Error("the symbolic link's target changed")
	}
	// Left files are not tried again, and Notes lists them.
	if again := catchUp(t, a.s); len(again) != 0 {
		t.Errorf("second catch-up noted %v", again)
	}
	listed, err := a.s.Notes()
	if err != nil || len(listed) != 3 {
		t.Errorf("Notes = %v, %v", listed, err)
	}
}

// A conflict copy whose journal is not there becomes the journal; a
// journal whose last line is unfinished (a sync engine still writing it)
// is not appended to until it is whole.
func TestCopyWithoutJournalAndUnfinishedJournal(t *testing.T) {
	a, b := newMachine(t, "a", 0), newMachine(t, "b", 0)
	w := NewWriter(a.s, Params{})
	w.Append(Entry{Kind: KindUser, Text: "hello"})
	id := w.ID()
	w.Close()
	copyJournal(t, a.s, b.s, id, id+" 2.jsonl")
	catchUp(t, b.s)
	if _, err := b.s.Load(id); err != nil {
		t.Fatalf("the copy did not become the journal: %v", err)
	}
	e := appendTo(t, b.s, id, "from b")
	copyJournal(t, b.s, a.s, id, id+" 2.jsonl")
	whole, _ := os.ReadFile(a.s.path(id))
	os.WriteFile(a.s.path(id), append(slices.Clone(whole), `{"type":"ent`...), 0o600)
	catchUp(t, a.s)
	if _, err := os.Stat(filepath.Join(a.s.Dir(), id+" 2.jsonl")); err != nil {
		t.Errorf("the copy was merged into an unfinished journal: %v", err)
	}
	os.WriteFile(a.s.path(id), whole, 0o600) // the sync engine finished
	catchUp(t, a.s)
	got, _ := a.s.Load(id)
	if !slices.Contains(ids(got.All), e.ID) {
		t.Errorf("not merged once whole: %v", ids(got.All))
	}
}

// A deleted session stays deleted when an old copy of it arrives; one
// changed after the delete on a machine that had not seen it is kept, and
// noted.
func TestDeleteStaysDeleted(t *testing.T) {
	a, b := newMachine(t, "a", 0), newMachine(t, "b", 0)
	w := NewWriter(a.s, Params{})
	w.Append(Entry{Kind: KindUser, Text: "hello"})
	id := w.ID()
	w.Close()
	copyJournal(t, a.s, b.s, id, id+journalExt)
	if err := a.s.Delete(id); err != nil {
		t.Fatal(err)
	}
	// The old journal arrives again, then a conflict copy of it.
	copyJournal(t, b.s, a.s, id, id+journalExt)
	copyJournal(t, b.s, a.s, id, id+" 2.jsonl")
	if notes := catchUp(t, a.s); len(notes) != 0 {
		t.Errorf("notes %v", notes)
	}
	if ls, err := a.s.List(); err != nil || len(ls) != 0 {
		t.Errorf("the deleted session came back: %v (%v)", ls, err)
	}
	// b goes on with the session, not having seen the delete.
	b.c.t = a.c.t.Add(time.Hour)
	e := appendTo(t, b.s, id, "still here")
	copyJournal(t, b.s, a.s, id, id+journalExt)
	notes := catchUp(t, a.s)
	if len(notes) != 1 || !strings.Contains(notes[0].Text, "changed afterwards") {
		t.Errorf("notes %v", notes)
	}
	got, err := a.s.Load(id)
	if err != nil || !slices.Contains(ids(got.All), e.ID) {
		t.Errorf("the edit made after the delete was lost: %v", err)
	}
}

// A clock ten years ahead on one machine: its records merged in, the
// other machine's next record still comes after them, so its new entry is
// the active one and its rename wins.
func TestClockTenYearsAhead(t *testing.T) {
	a, b := newMachine(t, "a", 0), newMachine(t, "b", 10*365*24*time.Hour)
	w := NewWriter(a.s, Params{})
	w.Append(Entry{Kind: KindUser, Text: "hello"})
	id := w.ID()
	w.Close()
	copyJournal(t, a.s, b.s, id, id+journalExt)
	appendTo(t, b.s, id, "from the future")
	if err := b.s.Rename(id, "future"); err != nil {
		t.Fatal(err)
	}
	copyJournal(t, b.s, a.s, id, id+" 2.jsonl")
	catchUp(t, a.s)
	e := appendTo(t, a.s, id, "now")
	if err := a.s.Rename(id, "present"); err != nil {
		t.Fatal(err)
	}
	got, _ := a.s.Load(id)
	if got.Head != e.ID || got.Title != "present" {
		t.Errorf("head %s, title %q; want %s, present", got.Head, got.Title, e.ID)
	}
}

// A git conflict left in a journal is read as both sides, and opening the
// session writes it without the markers.
func TestGitConflictInJournal(t *testing.T) {
	a, b := newMachine(t, "a", 0), newMachine(t, "b", 0)
	w := NewWriter(a.s, Params{})
	w.Append(Entry{Kind: KindUser, Text: "hello"})
	id := w.ID()
	w.Close()
	copyJournal(t, a.s, b.s, id, id+journalExt)
	common := len(journalLines(t, a.s, id))
	ea := appendTo(t, a.s, id, "from a")
	eb := appendTo(t, b.s, id, "from b")
	la, lb := journalLines(t, a.s, id), journalLines(t, b.s, id)
	conflict := append(slices.Clone(la[:common]), "<<<<<<< HEAD")
	conflict = append(conflict, la[common:]...)
	conflict = append(conflict, "=======")
	conflict = append(conflict, lb[common:]...)
	conflict = append(conflict, ">>>>>>> theirs")
	writeJournal(t, a.s, id, conflict, "")
	got, err := a.s.Load(id)
	if err != nil || len(got.Warnings) != 0 || !slices.Contains(ids(got.All), ea.ID) || !slices.Contains(ids(got.All), eb.ID) {
		t.Fatalf("load: %v, warnings %q, entries %v", err, got.Warnings, ids(got.All))
	}
	w2, err := a.s.OpenWriter(id)
	if err != nil {
		t.Fatal(err)
	}
	w2.Close()
	for _, l := range journalLines(t, a.s, id) {
		if gitMarker([]byte(l)) {
			t.Errorf("marker left: %s", l)
		}
	}
}

// Thousands of conflict copies at once are merged a bounded number per
// catch-up, with a note, and all of them in the end.
func TestThousandsOfCopies(t *testing.T) {
	a := newMachine(t, "a", 0)
	w := NewWriter(a.s, Params{})
	w.Append(Entry{Kind: KindUser, Text: "hello"})
	id := w.ID()
	w.Close()
	data, _ := os.ReadFile(a.s.path(id))
	n := maxCopiesAtOnce + 50
	for i := range n {
		e := Entry{ID: fmt.Sprintf("x%d", i), Kind: KindUser, Text: "copy"}
		line, _ := encodeRecord(&record{Type: recEntry, Time: clockStart.Add(time.Duration(i) * time.Hour), M: "b", Entry: &e})
		os.WriteFile(filepath.Join(a.s.Dir(), fmt.Sprintf("%s.sync-conflict-20250301-101010-D%d.jsonl", id, i)), append(slices.Clone(data), line...), 0o600)
	}
	notes := catchUp(t, a.s)
	if len(notes) != 1 || !strings.Contains(notes[0].Text, "wait to be merged") {
		t.Errorf("notes %v", notes)
	}
	catchUp(t, a.s)
	got, _ := a.s.Load(id)
	if len(got.All) != n+1 {
		t.Errorf("%d entries, want %d", len(got.All), n+1)
	}
}

// An image made on another machine is named in the journal by its path
// there; once the synced folder has brought the file, the session shows
// it from this machine's images folder.
func TestImagesOfAnotherMachine(t *testing.T) {
	a, b := newMachine(t, "a", 0), newMachine(t, "b", 0)
	w := NewWriter(b.s, Params{})
	w.Append(Entry{Kind: KindUser, Text: "draw"})
	id := w.ID()
	saved, err := b.s.SaveImage(id, 1, 1, encodePNG(t, testImage(4, 4)))
	if err != nil {
		t.Fatal(err)
	}
	w.Append(Entry{Kind: KindImage, ImagePrompt: "a fox", Images: []Image{{Index: 1, Path: saved.Path}}})
	w.Close()
	copyJournal(t, b.s, a.s, id, id+journalExt)
	os.MkdirAll(a.s.ImageDir(id), 0o700)
	copyFile(t, saved.Path, filepath.Join(a.s.ImageDir(id), filepath.Base(saved.Path)))
	got, err := a.s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if p := got.Entries[1].Images[0].Path; p != filepath.Join(a.s.ImageDir(id), filepath.Base(saved.Path)) {
		t.Errorf("image path %s, want it in this machine's folder", p)
	}
}

// Links planted in a synced folder are never followed or written through,
// and a 1 GB journal that arrives is not read: each is told, and left as
// it is.
func TestPlantedLinksAndHugeJournal(t *testing.T) {
	a := newMachine(t, "a", 0)
	outside := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(outside, []byte("not a journal\n"), 0o600)

	sym := "20250301-090000-00000000000000a1"
	os.Symlink(outside, a.s.path(sym))
	if _, err := a.s.Load(sym); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("load through a symbolic link: %v", err)
	}

	w := NewWriter(a.s, Params{})
	w.Append(Entry{Kind: KindUser, Text: "hello"})
	hard := w.ID()
	w.Close()
	data, _ := os.ReadFile(a.s.path(hard))
	os.WriteFile(outside, data, 0o600)
	os.Remove(a.s.path(hard))
	if err := os.Link(outside, a.s.path(hard)); err != nil {
		t.Fatal(err)
	}
	if err := a.s.Rename(hard, "through the link"); err == nil || !strings.Contains(err.Error(), "hard link") {
		t.Errorf("rename through a hard link: %v", err)
	}
	if got, _ := os.ReadFile(outside); string(got) != string(data) {
		t.Error("the file behind the hard link was written")
	}

	huge := "20250301-090000-00000000000000b2"
	f, _ := os.Create(a.s.path(huge))
	f.Truncate(1 << 30) // sparse: no gigabyte is written or read
	f.Close()
	if _, err := a.s.Load(huge); err == nil || !strings.Contains(err.Error(), "more than the 512 MiB muse reads") {
		t.Errorf("load of 1 GB: %v", err)
	}
	ls, err := a.s.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ls {
		if l.ID == huge && !strings.Contains(l.Damaged, "more than the 64 MiB a list reads") {
			t.Errorf("listed as %+v", l)
		}
	}
	if fi, _ := os.Stat(a.s.path(huge)); fi.Size() != 1<<30 {
		t.Error("the huge journal changed")
	}
	copyName := huge + ".sync-conflict-20250301-101010-B.jsonl"
	f, _ = os.Create(filepath.Join(a.s.Dir(), copyName))
	f.Truncate(1 << 30)
	f.Close()
	notes := catchUp(t, a.s)
	if len(notes) != 1 || !strings.Contains(notes[0].Text, "more than the 64 MiB merged automatically") || !strings.HasSuffix(notes[0].File, unmergedExt) {
		t.Errorf("notes %v", notes)
	}
}

// A journal one machine wrote applies in the order of its lines, as it
// always did, even where its clock went back between two records: the
// reply written after its prompt stays the head.
func TestOneMachineKeepsLineOrder(t *testing.T) {
	s, _ := newTestStore(t)
	id := "20250301-090000-0102030405060708"
	lines := []string{
		`{"v":2,"type":"header","time":"2025-03-01T09:00:00Z","id":"` + id + `","params":{}}`,
		`{"type":"entry","time":"2025-03-01T09:00:10Z","entry":{"id":"e1","kind":"user","time":"2025-03-01T09:00:10Z","text":"hi"}}`,
		`{"type":"entry","time":"2025-03-01T09:00:05Z","entry":{"id":"e2","parent":"e1","kind":"notice","time":"2025-03-01T09:00:05Z","text":"the clock went back"}}`,
		`{"type":"entry","time":"2025-03-01T09:00:06Z","m":"a","entry":{"id":"e3","parent":"e2","kind":"user","time":"2025-03-01T09:00:06Z","text":"after an upgrade"}}`,
	}
	writeJournal(t, s, id, lines, "")
	got, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Head != "e3" || len(got.Entries) != 3 {
		t.Errorf("head %s, branch %v", got.Head, ids(got.Entries))
	}
}

// Two machines that continued a session with an older muse both wrote an
// entry e3: merged, the newer is shown with a warning, and the journal,
// which keeps both, is not compacted.
func TestSameIDDifferentContent(t *testing.T) {
	s, _ := newTestStore(t)
	id := "20250301-090000-0102030405060708"
	lines := []string{
		`{"v":2,"type":"header","time":"2025-03-01T09:00:00Z","id":"` + id + `","params":{}}`,
		`{"type":"entry","time":"2025-03-01T09:00:01Z","entry":{"id":"e1","kind":"user","time":"2025-03-01T09:00:01Z","text":"hi"}}`,
		`{"type":"entry","time":"2025-03-01T09:00:02Z","m":"a","entry":{"id":"e2","parent":"e1","kind":"user","time":"2025-03-01T09:00:02Z","text":"on a"}}`,
		`{"type":"entry","time":"2025-03-01T09:00:03Z","m":"b","entry":{"id":"e2","parent":"e1","kind":"user","time":"2025-03-01T09:00:03Z","text":"on b"}}`,
	}
	writeJournal(t, s, id, lines, "")
	got, err := s.Load(id)
	if err != nil || !hasWarning(got, "two different entries have the id e2") {
		t.Fatalf("%v, warnings %q", err, got.Warnings)
	}
	w, err := s.OpenWriter(id)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if n := len(journalLines(t, s, id)); n != 4 {
		t.Errorf("the journal has %d lines after opening, want all 4 kept", n)
	}
}

// A damaged copy's lines that are JSON but no record (a bare number, an
// object of no known type) are counted bad, never appended to the
// journal (attack review: "5" and "7" ended up in it).
func TestMergeTakesOnlyRecords(t *testing.T) {
	copy := "5\n{}\n{\"type\":\"nonsense\"}\n\"text\"\n"
	add, bad, _, err := missing(strings.NewReader(copy), "s1", map[[16]byte]bool{})
	if err != nil || len(add) != 0 || bad != 4 {
		t.Errorf("missing = %q, %d bad, %v; want nothing added, 4 bad", add, bad, err)
	}
}
