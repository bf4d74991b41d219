package index

import (
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"muse/session"
	"muse/session/index/indextest"
)

// hits returns the sessions a search for text finds in ix.
func hits(t *testing.T, ix *Index, text string) []string {
	t.Helper()
	res, err := ix.Search(Query{Text: text})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range res.Hits {
		ids = append(ids, h.Session)
	}
	return ids
}

// prompt makes a session in store whose prompt is text.
func prompt(t *testing.T, store *session.Store, text string) string {
	t.Helper()
	w := session.NewWriter(store, session.Params{})
	if _, err := w.Append(session.Entry{Kind: session.KindUser, Text: text}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.ID()
}

// While another program holds the index's write lock (an sqlite3 shell in
// BEGIN EXCLUSIVE, another muse's rebuild), opening the index gives up on
// it instead of waiting: the index comes back as it was, Stale, and a
// search reads that snapshot. Once the lock is free, the next sync
// catches up.
func TestHeldLockIsNotWaitedFor(t *testing.T) {
	store := newStore(t)
	old := prompt(t, store, "aardvark first")
	openCurrent(t, store).Close()
	release := indextest.HoldLock(t, filepath.Join(store.CacheDir(), FileName))
	added := prompt(t, store, "aardvark second")

	ix := openCurrent(t, store)
	if !ix.Stale() {
		t.Fatal("the index synced while another held its lock")
	}
	if got := hits(t, ix, "aardvark"); len(got) != 1 || got[0] != old {
		t.Fatalf("the snapshot found %v, want only %s", got, old)
	}
	if _, err := ix.Sync(nil); !IsBusy(err) || !ix.Stale() {
		t.Fatalf("a sync under the lock gave %v, stale %v; want a busy error", err, ix.Stale())
	}

	release()
	if _, err := ix.Sync(nil); err != nil || ix.Stale() {
		t.Fatalf("after the lock: %v, stale %v", err, ix.Stale())
	}
	if got := hits(t, ix, "aardvark"); len(got) != 2 {
		t.Fatalf("after the lock the search found %v, want %s and %s", got, old, added)
	}
}

// An updater whose writes meet another's lock keeps the changes and
// writes them once the lock is free; its Close at the lock neither waits
// nor opens an index it had not opened.
func TestUpdaterAtAHeldLock(t *testing.T) {
	store := newStore(t)
	shared := NewShared(store)
	u := NewUpdater(shared, time.Hour) // flushed by the test
	prompt(t, store, "wombat one")
	if err := u.Flush(); err != nil {
		t.Fatal(err)
	}
	release := indextest.HoldLock(t, filepath.Join(store.CacheDir(), FileName))
	id := prompt(t, store, "wombat two")
	if err := u.Flush(); !IsBusy(err) {
		t.Fatalf("a flush under the lock gave %v, want a busy error", err)
	}
	release()
	if err := u.Flush(); err != nil {
		t.Fatal(err)
	}
	ix, _ := shared.Get()
	if got := hits(t, ix, "two"); len(got) != 1 || got[0] != id {
		t.Fatalf("the change kept through the lock: found %v, want %s", got, id)
	}
	indextest.HoldLock(t, filepath.Join(store.CacheDir(), FileName))
	prompt(t, store, "wombat three")
	if err := u.Close(); !IsBusy(err) {
		t.Fatalf("Close under the lock gave %v, want a busy error, not a wait", err)
	}

	// An updater that never opened the index leaves it closed.
	other := newStore(t)
	u = NewUpdater(NewShared(other), time.Hour)
	prompt(t, other, "never indexed")
	if err := u.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(other.CacheDir(), FileName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Close opened the index: %v", err)
	}
}

// The index lives in the store's cache folder, never beside the journals;
// an index an older muse left there is removed; and a cache folder muse
// may not write gets an index of the process's own, removed on Close.
func TestIndexPlace(t *testing.T) {
	store := newStore(t)
	for _, name := range []string{FileName, FileName + "-wal", FileName + "-shm"} {
		if err := os.WriteFile(filepath.Join(store.Dir(), name), []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	id := prompt(t, store, "quokka")
	ix := openCurrent(t, store)
	if ix.Private() || filepath.Dir(ix.Path()) != store.CacheDir() {
		t.Fatalf("the index is at %s, want in %s", ix.Path(), store.CacheDir())
	}
	des, err := os.ReadDir(store.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range des {
		if de.Name() != id+".jsonl" {
			t.Errorf("the sessions folder holds %s", de.Name())
		}
	}
	ix.Close()

	ix = openCurrent(t, cacheless(t, store))
	if !ix.Private() {
		t.Fatalf("the index is at %s, in a cache that cannot hold it", ix.Path())
	}
	if got := hits(t, ix, "quokka"); len(got) != 1 || got[0] != id {
		t.Fatalf("the private index found %v, want %s", got, id)
	}
	tmp := filepath.Dir(ix.Path())
	ix.Close()
	if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the private index's folder stays: %v", err)
	}
}

// OpenKept never builds an index of its own where the cache folder cannot
// hold one: a list has no use for it.
func TestOpenKeptBuildsNoPrivateIndex(t *testing.T) {
	store := newStore(t)
	prompt(t, store, "quokka")
	if ix, err := OpenKept(cacheless(t, store), nil); !errors.Is(err, ErrNotKept) {
		if ix != nil {
			ix.Close()
		}
		t.Fatalf("OpenKept with a cache that cannot hold the index: %v, want ErrNotKept", err)
	}
}

// cacheless returns the store of the journals of store with a cache folder
// that cannot hold an index: a file where the folder should be (a folder's
// mode would not stop root, who runs CI).
func cacheless(t *testing.T, store *session.Store) *session.Store {
	t.Helper()
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o400); err != nil {
		t.Fatal(err)
	}
	s, err := session.OpenAt(store.Dir(), session.Places{Cache: file})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// An index file no one can read while another holds it (one not in WAL
// mode, inside BEGIN EXCLUSIVE) is not taken for a foreign file: Open
// says it is busy, and neither removes it nor builds one of its own.
func TestUnreadableWhileHeldIsNotRemoved(t *testing.T) {
	store := newStore(t)
	if err := os.MkdirAll(store.CacheDir(), 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(store.CacheDir(), FileName)
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("PRAGMA journal_mode = DELETE; CREATE TABLE other(a)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	release := indextest.HoldLock(t, path)
	ix, err := Open(store)
	if ix != nil || !IsBusy(err) {
		t.Fatalf("Open of an index held exclusively: %v, %v; want a busy error", ix, err)
	}
	release()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the held file was removed: %v", err)
	}
}

// While another holds the index's lock, ListCurrent lists what the
// journals hold, as they are: sessions added, grown, renamed and deleted
// since the index last looked, read from their journals, the others from
// the index.
func TestListCurrentUnderAHeldLock(t *testing.T) {
	store := newStore(t)
	ids := sessions(t, store, rand.New(rand.NewPCG(3, 4)), 6)
	openCurrent(t, store).Close()
	indextest.HoldLock(t, filepath.Join(store.CacheDir(), FileName))
	prompt(t, store, "added under the lock")
	appendBehind(t, store, ids[0])
	if err := store.Rename(ids[1], "renamed under the lock"); err != nil {
		t.Fatal(err)
	}
	if err := store.Delete(ids[2]); err != nil {
		t.Fatal(err)
	}
	ix := openCurrent(t, store)
	if !ix.Stale() {
		t.Fatal("the index synced under the lock")
	}
	got, err := ix.ListCurrent()
	if err != nil {
		t.Fatal(err)
	}
	want, err := store.List() // the journals: no Lister here
	if err != nil {
		t.Fatal(err)
	}
	brief := func(infos []session.Info) (out []string) {
		for _, in := range infos {
			out = append(out, fmt.Sprintf("%s %q %d %s", in.ID, in.Title, in.Messages, in.Updated.UTC()))
		}
		return out
	}
	if g, w := brief(got), brief(want); !slices.Equal(g, w) {
		t.Fatalf("ListCurrent:\n%s\nthe journals:\n%s", strings.Join(g, "\n"), strings.Join(w, "\n"))
	}
}
