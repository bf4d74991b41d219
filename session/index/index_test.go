package index

import (
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"muse/api"
	"muse/session"
	"muse/session/internal/fileio"
)

// newStore opens a store in a fresh directory.
func newStore(t *testing.T) *session.Store {
	t.Helper()
	s, err := storeIn(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// storeIn opens the store of a machine whose folders are under base: its
// sessions in data/sessions, its index in cache, its locks in
// state/locks, as muse lays them out.
func storeIn(base string) (*session.Store, error) {
	return session.OpenAt(filepath.Join(base, "data", "sessions"), session.Places{Cache: filepath.Join(base, "cache"), Locks: filepath.Join(base, "state", "locks")})
}

// openCurrent opens the index of store, up to date, closed with the test.
func openCurrent(t *testing.T, store *session.Store) *Index {
	t.Helper()
	ix, err := OpenCurrent(store, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// dumped is what the index holds, or should hold, of a session.
type dumped struct {
	Title, Model, Damaged string
	Created, Updated      int64
	Messages, Size        int64
	MTime                 int64
	Rows                  []row
}

// journals returns the stamps of the journals of store.
func journals(t *testing.T, store *session.Store) map[string]session.Stamp {
	t.Helper()
	scan, err := store.Scan()
	if err != nil {
		t.Fatal(err)
	}
	return scan.Journals
}

// expected reads what the index should hold from the journals.
func expected(t *testing.T, store *session.Store) map[string]dumped {
	t.Helper()
	stamps := journals(t, store)
	out := map[string]dumped{}
	for id := range stamps {
		sess, in, st, err := store.LoadStamped(id)
		if err != nil {
			t.Fatal(err)
		}
		d := dumped{Title: in.Title, Model: in.Model, Damaged: in.Damaged, Created: in.Created.UnixNano(), Updated: in.Updated.UnixNano(),
			Messages: int64(in.Messages), Size: st.Size, MTime: st.MTime}
		if sess != nil {
			if rows := rowsOf(sess); len(rows) > 0 {
				d.Rows = rows
			}
		}
		out[id] = d
	}
	return out
}

// actual reads what the index holds, and checks that its full-text table
// finds every entry by the first word of its text.
func actual(t *testing.T, ix *Index) map[string]dumped {
	t.Helper()
	out := map[string]dumped{}
	rows, err := ix.db.Query("SELECT id, title, model, damaged, created, updated, messages, size, mtime FROM sessions")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		var d dumped
		if err := rows.Scan(&id, &d.Title, &d.Model, &d.Damaged, &d.Created, &d.Updated, &d.Messages, &d.Size, &d.MTime); err != nil {
			t.Fatal(err)
		}
		out[id] = d
	}
	rows.Close()
	rows, err = ix.db.Query("SELECT e.rowid, s.id, e.entry, e.leaf, e.active, e.turn, e.kind, e.role, e.model, e.time, coalesce(t.text, '') FROM entries e LEFT JOIN texts t ON t.rowid = e.rowid JOIN sessions s ON s.first = " + sessionOf + " AND e.rowid < s.first + s.entries ORDER BY e.rowid")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var r row
		var id string
		var rowid int64
		if err := rows.Scan(&rowid, &id, &r.entry, &r.leaf, &r.active, &r.turn, &r.kind, &r.role, &r.model, &r.time, &r.text); err != nil {
			t.Fatal(err)
		}
		d, ok := out[id]
		if !ok {
			t.Fatalf("entry %s of session %s, which the index does not list", r.entry, id)
		}
		d.Rows = append(d.Rows, r)
		out[id] = d
		if ws := strings.FieldsFunc(r.text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }); len(ws) > 0 {
			var found int
			if err := ix.db.QueryRow("SELECT count(*) FROM texts WHERE texts MATCH ? AND rowid = ?", quote(ws[0]), rowid).Scan(&found); err != nil {
				t.Fatal(err)
			}
			if found != 1 {
				t.Fatalf("the full-text table does not find entry %s of %s by %q", r.entry, id, ws[0])
			}
		}
	}
	var texts, withText int
	ix.db.QueryRow("SELECT count(*) FROM texts").Scan(&texts)
	ix.db.QueryRow("SELECT count(*) FROM entries e JOIN texts t ON t.rowid = e.rowid").Scan(&withText)
	if texts != withText {
		t.Fatalf("the full-text table holds %d texts, %d of them of entries", texts, withText)
	}
	return out
}

// agree fails the test unless the index holds what the journals do.
func agree(t *testing.T, store *session.Store, ix *Index) {
	t.Helper()
	want, got := expected(t, store), actual(t, ix)
	if !reflect.DeepEqual(want, got) {
		for id := range want {
			if !reflect.DeepEqual(want[id], got[id]) {
				t.Fatalf("session %s:\nindex    %+v\njournals %+v", id, got[id], want[id])
			}
		}
		for id := range got {
			if _, ok := want[id]; !ok {
				t.Fatalf("the index holds session %s, which has no journal", id)
			}
		}
	}
}

// vocabulary is what the random sessions say.
var vocabulary = strings.Fields("zebra unicorn apple banana cherry delta echo foxtrot golf hotel india juliet kilo lima mike café naïve Straße 東京 emoji🎉 <b>&amp;</b> \x1b[31mred")

func sentence(r *rand.Rand, n int) string {
	var ws []string
	for range n {
		ws = append(ws, vocabulary[r.IntN(len(vocabulary))])
	}
	return strings.Join(ws, " ")
}

// fataler is what randomOps needs of a test: a child process that is
// killed (see TestKilledAtRandomMoments) has none.
type fataler interface {
	Helper()
	Fatal(args ...any)
}

// randomOps changes the sessions of store at random, n times: new
// sessions, prompts and replies, branches, head moves, renames, deletes,
// imports and forks.
func randomOps(t fataler, store *session.Store, r *rand.Rand, n int) {
	t.Helper()
	for range n {
		scan, err := store.Scan()
		if err != nil {
			t.Fatal(err)
		}
		stamps := scan.Journals
		var ids []string
		for id := range stamps {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		pick := func() string { return ids[r.IntN(len(ids))] }
		switch op := r.IntN(10); {
		case op < 2 || len(ids) == 0:
			w := session.NewWriter(store, session.Params{Model: []string{"claude-a", "claude-b"}[r.IntN(2)]})
			if _, err := w.Append(session.Entry{Kind: session.KindUser, Text: sentence(r, 5)}); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
		case op < 6:
			w, err := store.OpenWriter(pick())
			if err != nil {
				t.Fatal(err)
			}
			snap := w.Snapshot()
			if len(snap.All) > 0 && r.IntN(3) == 0 {
				// A branch: an edited prompt after a random entry.
				at := snap.All[r.IntN(len(snap.All))]
				if _, err := w.AppendAt(session.Entry{Kind: session.KindUser, Text: sentence(r, 4)}, at.Parent); err != nil {
					t.Fatal(err)
				}
			} else {
				w.Append(session.Entry{Kind: session.KindUser, Text: sentence(r, 6)})
			}
			w.Append(session.Entry{Kind: session.KindAssistant, Message: &api.Message{Model: "claude-x", Content: []api.ContentBlock{
				{Type: api.BlockThinking, Thinking: sentence(r, 3)},
				{Type: api.BlockText, Text: sentence(r, 12)},
				{Type: api.BlockToolUse, Name: "run", Input: []byte(`{"cmd":"ls golf"}`)},
			}}})
			if r.IntN(2) == 0 {
				w.Append(session.Entry{Kind: session.KindTool, ToolResults: []session.ToolResult{{Name: "run", Output: sentence(r, 3)}}})
			}
			if r.IntN(3) == 0 {
				w.Append(session.Entry{Kind: session.KindImage, ImagePrompt: sentence(r, 3), Images: []session.Image{{RevisedPrompt: sentence(r, 4)}}})
			}
			if snap := w.Snapshot(); r.IntN(3) == 0 && len(snap.All) > 1 {
				if err := w.SetHead(snap.All[r.IntN(len(snap.All))].ID); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
		case op < 7:
			if err := store.Rename(pick(), sentence(r, 2)); err != nil {
				t.Fatal(err)
			}
		case op < 8:
			if err := store.Delete(pick()); err != nil {
				t.Fatal(err)
			}
		case op < 9:
			if _, err := store.SaveImported(session.Imported{Title: sentence(r, 2), Entries: []session.Entry{
				{Kind: session.KindUser, Text: sentence(r, 3)},
				{Kind: session.KindAssistant, Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: sentence(r, 5)}}}},
			}}); err != nil {
				t.Fatal(err)
			}
		default:
			id := pick()
			if sess, err := store.Load(id); err == nil && len(sess.Entries) == 0 {
				continue // nothing to fork: a muse killed before its first entry
			}
			if _, err := store.Fork(id, 0, sentence(r, 2)); err != nil && !errors.Is(err, session.ErrDamaged) {
				t.Fatal(err)
			}
		}
	}
}

// The index agrees with the journals after random changes, kept current
// by an updater, and after a sync of changes the updater did not see.
func TestAgreesWithJournals(t *testing.T) {
	store := newStore(t)
	shared := NewShared(store)
	u := NewUpdater(shared, time.Hour) // flushed by the test
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 6 {
		randomOps(t, store, r, 15)
		if err := u.Flush(); err != nil {
			t.Fatal(err)
		}
		ix, err := shared.Get()
		if err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprint("round", round), func(t *testing.T) { agree(t, store, ix) })
	}
	if err := u.Close(); err != nil {
		t.Fatal(err)
	}
	// Changes with no updater: the next sync reads them.
	randomOps(t, store, r, 20)
	ix := openCurrent(t, store)
	agree(t, store, ix)
	// Deleting the file loses nothing.
	ix.Close()
	if err := removeFiles(ix.Path()); err != nil {
		t.Fatal(err)
	}
	agree(t, store, openCurrent(t, store))
}

// Sync reads only the journals that changed: its work grows with the
// changes, not with the history.
func TestSyncReadsOnlyWhatChanged(t *testing.T) {
	store := newStore(t)
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		w := session.NewWriter(store, session.Params{})
		w.Append(session.Entry{Kind: session.KindUser, Text: sentence(r, 4)})
		w.Close()
	}
	ix := openCurrent(t, store)
	if n, err := ix.Sync(nil); err != nil || n != 0 {
		t.Fatalf("a sync with nothing changed read %d journals (%v)", n, err)
	}
	for id := range journals(t, store) {
		if err := store.Rename(id, "renamed"); err != nil {
			t.Fatal(err)
		}
		break
	}
	if n, err := ix.Sync(nil); err != nil || n != 1 {
		t.Fatalf("a sync after one rename read %d journals (%v), want 1", n, err)
	}
	agree(t, store, ix)
}

// A damaged journal is listed as damaged, and a journal cut by a crash in
// the middle of a record is indexed as what loads of it.
func TestDamagedAndTornJournals(t *testing.T) {
	store := newStore(t)
	w := session.NewWriter(store, session.Params{})
	w.Append(session.Entry{Kind: session.KindUser, Text: "zebra crossing"})
	w.Append(session.Entry{Kind: session.KindAssistant, Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: "unicorn reply"}}}})
	w.Close()
	id := w.ID()
	ix := openCurrent(t, store)
	unsettled(ix) // the journal is cut in place, behind muse's back
	path := filepath.Join(store.Dir(), id+".jsonl")
	data, _ := os.ReadFile(path)
	os.WriteFile(path, data[:len(data)-10], 0o600) // a torn last record
	if _, err := ix.Sync(nil); err != nil {
		t.Fatal(err)
	}
	agree(t, store, ix)
	if res, err := ix.Search(Query{Text: "unicorn"}); err != nil || len(res.Hits) != 0 {
		t.Fatalf("the torn reply is still found: %+v (%v)", res.Hits, err)
	}
	os.WriteFile(filepath.Join(store.Dir(), "20250101-000000-abcd.jsonl"), []byte("not json\n"), 0o600)
	if _, err := ix.Sync(nil); err != nil {
		t.Fatal(err)
	}
	agree(t, store, ix)
	infos, _ := ix.List()
	if len(infos) != 2 || infos[0].Damaged == "" && infos[1].Damaged == "" {
		t.Fatalf("the damaged journal is not listed as damaged: %+v", infos)
	}
}

// A corrupt, foreign or other-version index file is rebuilt from the
// journals.
func TestBadIndexFileRebuilt(t *testing.T) {
	for name, spoil := range map[string]func(t *testing.T, path string){
		"garbage": func(t *testing.T, path string) {
			os.WriteFile(path, []byte(strings.Repeat("not a database ", 500)), 0o600)
		},
		"truncated": func(t *testing.T, path string) {
			data, _ := os.ReadFile(path)
			os.WriteFile(path, data[:len(data)/2], 0o600)
		},
		"scribbled": func(t *testing.T, path string) {
			data, _ := os.ReadFile(path)
			for i := 4096; i < len(data); i += 97 {
				data[i] ^= 0x5a
			}
			os.WriteFile(path, data, 0o600)
		},
		"foreign": func(t *testing.T, path string) {
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			db.Exec("CREATE TABLE other(x); PRAGMA user_version = 0")
		},
		"other version": func(t *testing.T, path string) {
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec("PRAGMA user_version = 99"); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			store := newStore(t)
			randomOps(t, store, rand.New(rand.NewPCG(5, 6)), 12)
			ix, err := OpenCurrent(store, nil)
			if err != nil {
				t.Fatal(err)
			}
			path := ix.Path()
			// Checkpoint the WAL into the file, so spoiling it spoils all.
			ix.db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
			ix.Close()
			removeFiles(path + "-nothing") // keeps the file
			os.Remove(path + "-wal")
			os.Remove(path + "-shm")
			spoil(t, path)
			ix = openCurrent(t, store)
			agree(t, store, ix)
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != 0o600 {
				t.Fatalf("the index has mode %v, want 0600", fi.Mode().Perm())
			}
		})
	}
}

// A symbolic or hard link where the index or its WAL belongs is removed,
// never written through: the file it names keeps its mode and its bytes,
// and holds no session text.
func TestIndexNeverFollowsALink(t *testing.T) {
	if runtime.GOOS == "windows" && os.Getenv("CI") == "" {
		t.Skip("symbolic links need privileges on Windows")
	}
	for _, c := range []struct {
		name string
		link func(old, new string) error
	}{{FileName, os.Symlink}, {FileName + "-wal", os.Symlink}, {FileName, os.Link}, {FileName + "-wal", os.Link}} {
		name := c.name
		store := newStore(t)
		sessions(t, store, rand.New(rand.NewPCG(21, 22)), 2)
		victim := filepath.Join(store.Dir(), "..", "victim") // a hard link stays on its file system
		if err := os.WriteFile(victim, []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chmod(victim, 0o644)
		if err := c.link(victim, filepath.Join(store.Dir(), name)); err != nil {
			t.Fatal(err)
		}
		ix := openCurrent(t, store)
		agree(t, store, ix)
		fi, err := os.Stat(victim)
		data, _ := os.ReadFile(victim)
		if err != nil || fi.Mode().Perm() != 0o644 || string(data) != "mine" {
			t.Errorf("%s: the link's target became %v, %q (%v)", name, fi.Mode(), data, err)
		}
		if fi, err := os.Lstat(filepath.Join(store.Dir(), name)); err == nil && (!fi.Mode().IsRegular() || fileio.Shared(fi)) {
			t.Errorf("%s is still a link", name)
		}
	}
}
