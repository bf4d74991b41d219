package index

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"muse/session"
)

// settled makes the clock of ix an hour ahead, so that the directory's
// last change is long past and a full look is noted.
func settled(ix *Index) *time.Time {
	now := time.Now().Add(time.Hour)
	ix.now = func() time.Time { return now }
	return &now
}

// unsettled sets the clock of ix to one at which no look is noted, nor
// one noted trusted: each sync is a full look.
func unsettled(ix *Index) {
	ix.now = func() time.Time { return time.Time{} }
}

// sessions makes n sessions in store and returns their ids.
func sessions(t *testing.T, store *session.Store, r *rand.Rand, n int) []string {
	t.Helper()
	var ids []string
	for range n {
		w := session.NewWriter(store, session.Params{})
		if _, err := w.Append(session.Entry{Kind: session.KindUser, Text: sentence(r, 4)}); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, w.ID())
	}
	return ids
}

// syncs runs a sync of ix and checks how many journals it read.
func syncs(t *testing.T, ix *Index, want int, why string) {
	t.Helper()
	n, err := ix.Sync(nil)
	if err != nil {
		t.Fatal(err)
	}
	if n != want {
		t.Fatalf("%s: the sync read %d journals, want %d", why, n, want)
	}
}

// appendBehind appends a prompt to the journal of id in place, as another
// program would, without its lock.
func appendBehind(t *testing.T, store *session.Store, id string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(store.Dir(), id+".jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(`{"type":"title","time":"2025-01-01T00:00:00Z","title":"changed behind"}` + "\n"); err != nil {
		t.Fatal(err)
	}
}

// While the directory keeps the stamp of the last full look, a sync stats
// only the journals of the sessions then locked: a session open in a muse
// is followed as it is written, a lock taken or released or a session
// created or deleted makes the next sync a full look, and a journal
// changed in place behind muse's back is seen at the next full look.
func TestSyncLooksAtLockedJournalsOnly(t *testing.T) {
	store := newStore(t)
	r := rand.New(rand.NewPCG(7, 8))
	ids := sessions(t, store, r, 5)
	ix, err := Open(store)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	now := settled(ix)
	syncs(t, ix, 5, "a new index")
	syncs(t, ix, 0, "nothing changed")

	// Behind muse's back, in place: not seen until the next full look.
	appendBehind(t, store, ids[0])
	syncs(t, ix, 0, "a change behind muse's back, the directory as it was")
	*now = now.Add(recheck)
	syncs(t, ix, 1, "a change behind muse's back, after recheck")
	agree(t, store, ix)

	// A session open in a muse: its lock file changes the directory, and
	// then each sync stats its journal.
	w, err := store.OpenWriter(ids[1])
	if err != nil {
		t.Fatal(err)
	}
	syncs(t, ix, 0, "a lock taken")
	if l, ok, err := ix.noted(); err != nil || !ok || len(l.locked) != 1 || l.locked[0] != ids[1] {
		t.Fatalf("the look noted %+v, %v, %v; want %s locked", l, ok, err, ids[1])
	}
	if _, err := w.Append(session.Entry{Kind: session.KindUser, Text: "zebra in place"}); err != nil {
		t.Fatal(err)
	}
	syncs(t, ix, 1, "an append to the locked session")
	syncs(t, ix, 0, "nothing changed")
	agree(t, store, ix)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	syncs(t, ix, 0, "a lock released")
	if l, _, err := ix.noted(); err != nil || len(l.locked) != 0 {
		t.Fatalf("the look noted %v locked, want none (%v)", l.locked, err)
	}

	// Created and deleted: the directory changes.
	sessions(t, store, r, 1)
	syncs(t, ix, 1, "a new session")
	if err := store.Delete(ids[2]); err != nil {
		t.Fatal(err)
	}
	syncs(t, ix, 0, "a deleted session")
	agree(t, store, ix)
}

// A look is not noted while the directory may still change in the same
// tick of its clock, or changed while it was looked at.
func TestUnsettledLookNotNoted(t *testing.T) {
	store := newStore(t)
	sessions(t, store, rand.New(rand.NewPCG(9, 10)), 2)
	ix, err := Open(store)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	dir, err := store.DirStamp()
	if err != nil {
		t.Fatal(err)
	}
	ix.now = func() time.Time { return time.Unix(0, dir.MTime).Add(settle / 2) }
	syncs(t, ix, 2, "a new index")
	if _, ok, err := ix.noted(); err != nil || ok {
		t.Fatalf("a look at a directory changed just now was noted (%v)", err)
	}
	settled(ix)
	syncs(t, ix, 0, "nothing changed")
	if _, ok, err := ix.noted(); err != nil || !ok {
		t.Fatalf("a settled look was not noted (%v)", err)
	}
}

// Opening, reading and closing the index leaves the directory's stamp as
// it was: else every command would make the next one stat every journal.
func TestIndexKeepsDirectoryStamp(t *testing.T) {
	store := newStore(t)
	sessions(t, store, rand.New(rand.NewPCG(11, 12)), 3)
	ix := openCurrent(t, store)
	ix.Close()
	before, err := store.DirStamp()
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		ix := openCurrent(t, store)
		if _, err := ix.List(); err != nil {
			t.Fatal(err)
		}
		if _, err := ix.Search(Query{Text: "zebra OR apple"}); err != nil {
			t.Fatal(err)
		}
		ix.Close()
	}
	if after, err := store.DirStamp(); err != nil || after != before {
		t.Fatalf("the directory's stamp went from %+v to %+v (%v)", before, after, err)
	}
}

// What was read of a journal that changed before it was written is not
// written: another process may have written newer meanwhile.
func TestChangedWhileReadNotWritten(t *testing.T) {
	store := newStore(t)
	ids := sessions(t, store, rand.New(rand.NewPCG(13, 14)), 2)
	ix := openCurrent(t, store)
	old := ix.load(ids[0])
	if err := store.Rename(ids[0], "renamed meanwhile"); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Update([]string{ids[0]}); err != nil { // another process, newer
		t.Fatal(err)
	}
	var changed []string
	if err := ix.write(func(tx *sql.Tx) error {
		var err error
		changed, err = ix.putAll(tx, []loaded{old})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(changed) != 1 || changed[0] != ids[0] {
		t.Fatalf("putAll skipped %v, want %s", changed, ids[0])
	}
	agree(t, store, ix)
}

// Two muses that index the same new session at once both succeed: the
// second replaces what the first wrote, which it did not see when it
// looked.
func TestTwoIndexersOfANewSession(t *testing.T) {
	store := newStore(t)
	ids := sessions(t, store, rand.New(rand.NewPCG(15, 16)), 1)
	a, err := Open(store)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(store)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	l := a.load(ids[0]) // a reads the journal, then b writes it first
	if _, err := b.Update(ids); err != nil {
		t.Fatal(err)
	}
	if err := a.write(func(tx *sql.Tx) error {
		_, err := a.putAll(tx, []loaded{l})
		return err
	}); err != nil {
		t.Fatalf("the second indexer failed: %v", err)
	}
	agree(t, store, a)
}

// A rebuild tells its progress every progressEvery journals read, and
// once at the end with the whole count, in order.
func TestRebuildProgress(t *testing.T) {
	store := newStore(t)
	sessions(t, store, rand.New(rand.NewPCG(31, 32)), 250)
	ix, err := Open(store)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	var got []int
	if _, err := ix.Sync(func(done, total int) {
		if total != 250 {
			t.Errorf("total %d", total)
		}
		got = append(got, done)
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []int{100, 200, 250}) {
		t.Errorf("progress %v, want 100, 200, 250", got)
	}
}

// The pages a full look frees, when it forgets many sessions, go back to
// the file system, and the file shrinks; a few are kept for the next
// writes.
func TestForgettingGivesPagesBack(t *testing.T) {
	store := newStore(t)
	var ids []string
	for i := range 200 {
		ids = append(ids, prompt(t, store, fmt.Sprintf("session %d: %s", i, strings.Repeat("words to index and keep ", 400))))
	}
	ix := openCurrent(t, store)
	size := func() int64 {
		t.Helper()
		var pages, free int64
		if err := ix.db.QueryRow("PRAGMA page_count").Scan(&pages); err != nil {
			t.Fatal(err)
		}
		if err := ix.db.QueryRow("PRAGMA freelist_count").Scan(&free); err != nil {
			t.Fatal(err)
		}
		if free >= vacuumMin {
			t.Errorf("%d free pages kept, of %d", free, pages)
		}
		return pages
	}
	before := size()
	for _, id := range ids[:150] {
		if err := store.Delete(id); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ix.Sync(nil); err != nil {
		t.Fatal(err)
	}
	if after := size(); after > before/2 {
		t.Errorf("%d pages after forgetting 150 sessions of 200, %d before", after, before)
	}
}
