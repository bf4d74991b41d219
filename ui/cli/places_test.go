package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muse/session"
	"muse/session/index"
)

// placesEnv is the environment of a machine with its data, cache and
// state folders apart, as XDG lays them out.
func placesEnv(t *testing.T) map[string]string {
	t.Helper()
	base := t.TempDir()
	return map[string]string{
		"XDG_DATA_HOME":  filepath.Join(base, "data"),
		"XDG_CACHE_HOME": filepath.Join(base, "cache"),
		"XDG_STATE_HOME": filepath.Join(base, "state"),
	}
}

// dataFiles returns every file and folder under dir with its size and
// modification time.
func dataFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[p] = fi.ModTime().String() + " " + fi.Mode().String()
		if !d.IsDir() {
			out[p] += fmt.Sprint(" ", fi.Size())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The data folder an older muse left, with its index and a lock file
// beside the journals, is cleaned on the first start: the old index is
// removed (it is derived), the new one is in XDG_CACHE_HOME, the lock
// files no muse holds are removed by the first look at the sessions (and
// by the session's next opening), and the new locks are in
// XDG_STATE_HOME. The journals stay.
func TestOldLayoutCleaned(t *testing.T) {
	env := placesEnv(t)
	dir := filepath.Join(env["XDG_DATA_HOME"], "muse", "sessions")
	old, err := session.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	id := seedSession(t, old, session.Params{Model: "demo-chat"}, "", session.Entry{Kind: session.KindUser, Text: "pineapple"})
	for _, name := range []string{index.FileName, index.FileName + "-wal", index.FileName + "-shm", id + ".lock"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("left by an older muse"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	other := seedSession(t, old, session.Params{Model: "demo-chat"}, "", session.Entry{Kind: session.KindUser, Text: "other"})
	if err := os.WriteFile(filepath.Join(dir, other+".lock"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := runSessions(t, env, false, "", "sessions", "search", "pineapple"); r.code != ExitOK {
		t.Fatalf("search: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(env["XDG_CACHE_HOME"], "muse", index.FileName)); err != nil {
		t.Fatalf("the index is not in XDG_CACHE_HOME: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, other+".lock")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the first look at the sessions left an older muse's lock file no one holds: %v", err)
	}
	if r := runMain(t, env, "", "--demo", "-c", "-p", "and more"); r.code != ExitOK {
		t.Fatalf("-c -p: %+v", r)
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range des {
		if !strings.HasSuffix(de.Name(), ".jsonl") {
			t.Errorf("the sessions folder still holds %s", de.Name())
		}
	}
	if len(des) != 2 {
		t.Errorf("the sessions folder holds %d files, want the two journals", len(des))
	}
	if _, err := os.Stat(filepath.Join(env["XDG_STATE_HOME"], "muse", "locks")); err != nil {
		t.Errorf("no lock folder in XDG_STATE_HOME: %v", err)
	}
}

// A search writes nothing in the data folder, so it works in one muse may
// only read (as a user other than root, the folder is made read-only
// too); a cache folder that cannot hold the index gets one of the
// search's own, which it says.
func TestSearchInAReadOnlyDataFolder(t *testing.T) {
	env := placesEnv(t)
	dir := filepath.Join(env["XDG_DATA_HOME"], "muse", "sessions")
	store, err := session.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	id := seedSession(t, store, session.Params{Model: "demo-chat"}, "", session.Entry{Kind: session.KindUser, Text: "pineapple"})
	data := filepath.Join(env["XDG_DATA_HOME"], "muse")
	before := dataFiles(t, data)
	for _, d := range []string{dir, data} {
		if err := os.Chmod(d, 0o500); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(d, 0o700) })
	}
	r := runSessions(t, env, false, "", "sessions", "search", "pineapple")
	if r.code != ExitOK || !strings.Contains(r.stdout, "pineapple") {
		t.Fatalf("search in a read-only data folder: %+v", r)
	}
	if r := runSessions(t, env, false, "", "sessions", "list"); r.code != ExitOK || !strings.Contains(r.stdout, id) {
		t.Fatalf("list in a read-only data folder: %+v", r)
	}
	after := dataFiles(t, data)
	for p, v := range after {
		if before[p] != v && p != data && p != dir { // the chmod above
			t.Errorf("the search changed %s in the data folder", p)
		}
	}
	if len(after) != len(before) {
		t.Errorf("the data folder had %d files and holds %d", len(before), len(after))
	}

	// A file where the cache folder should be: no index can be kept.
	os.RemoveAll(env["XDG_CACHE_HOME"])
	if err := os.WriteFile(env["XDG_CACHE_HOME"], nil, 0o400); err != nil {
		t.Fatal(err)
	}
	r = runSessions(t, env, false, "", "sessions", "search", "pineapple")
	if r.code != ExitOK || !strings.Contains(r.stdout, "pineapple") || !strings.Contains(r.stderr, "built one of its own") {
		t.Fatalf("search with a cache it cannot write: %+v", r)
	}
}

// A query of 1 MB, and one with a NUL byte, are refused with a message
// that says what to do.
func TestSearchRefusesHugeAndNULQueries(t *testing.T) {
	env, _, _ := seedHostile(t)
	for q, want := range map[string]string{
		strings.Repeat("pineapple ", 100_000): "1000000 bytes, more than the 4096 a query may hold: search for a few words of it",
		"pine\x00apple":                       "NUL byte",
	} {
		r := runSessions(t, env, false, "", "sessions", "search", q)
		if r.code != ExitUsage || !strings.Contains(r.stderr, want) || len(r.stderr) > 500 {
			t.Errorf("%.20q…: code %d, %.300q; want a usage error saying %q", q, r.code, r.stderr, want)
		}
	}
}
