package session

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A tombstone of 10 MB of garbage that came by sync, with no journal of
// its session: a catch-up sets it aside whole, renamed, and says so once,
// in the catch-up's notes (which muse doctor lists), and then as a file
// left beside the sessions; before, it stayed, silently, for ever.
func TestHugeTombIsSetAside(t *testing.T) {
	s, _ := newTestStore(t)
	s.SetNotesFile(filepath.Join(t.TempDir(), "notes.jsonl"))
	id := oneSession(t, s)
	if err := os.Remove(s.path(id)); err != nil { // deleted elsewhere, say
		t.Fatal(err)
	}
	junk := bytes.Repeat([]byte("not a tombstone "), 10<<20/16)
	if err := os.WriteFile(s.tombPath(id), junk, 0o600); err != nil {
		t.Fatal(err)
	}
	notes := catchUp(t, s)
	aside := id + tombExt + unmergedExt
	if len(notes) != 1 || notes[0].File != aside || !strings.Contains(notes[0].Text, "not a tombstone muse can read: it holds 10 MiB,") ||
		!strings.Contains(notes[0].Text, "the session was not deleted") {
		t.Fatalf("notes %+v", notes)
	}
	if data, err := os.ReadFile(filepath.Join(s.Dir(), aside)); err != nil || !bytes.Equal(data, junk) {
		t.Errorf("the file set aside is not whole: %d bytes, %v", len(data), err)
	}
	if _, err := os.Lstat(s.tombPath(id)); !os.IsNotExist(err) {
		t.Errorf("the tombstone is still in place: %v", err)
	}
	if again := catchUp(t, s); len(again) != 0 {
		t.Errorf("said again: %+v", again)
	}
	all, err := s.Notes()
	if err != nil {
		t.Fatal(err)
	}
	said := 0
	for _, n := range all {
		if n.File == aside {
			said++
		}
	}
	if said != 2 { // the catch-up's note, and the file left beside
		t.Errorf("muse doctor's notes name it %d times: %+v", said, all)
	}
}

// The read is bounded: a tombstone of a terabyte (sparse) is set aside as
// fast, from its size, and the one read of it stops after maxTomb bytes.
func TestTombReadIsBounded(t *testing.T) {
	s, _ := newTestStore(t)
	id := "20250301-090000-abcdef"
	f, err := os.Create(s.tombPath(id))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 40); err != nil {
		f.Close()
		if os.Getenv("CI") != "" {
			t.Fatal("no sparse files in CI's temporary folder:", err)
		}
		t.Skip("no sparse files here:", err)
	}
	f.Close()
	if _, err := readTomb(s.tombPath(id)); err == nil || !strings.Contains(err.Error(), "it holds 1048576 MiB,") {
		t.Errorf("read: %v", err)
	}
	if notes := catchUp(t, s); len(notes) != 1 || notes[0].File != id+tombExt+unmergedExt {
		t.Errorf("notes %+v", notes)
	}
}

// A tombstone that is short garbage, a link, or a folder, beside the
// journal of its session: the session stays, the file is set aside with
// its reason, and a second one that arrives later does not replace the
// first set aside.
func TestBadTombBesideItsSessionIsSetAside(t *testing.T) {
	s, _ := newTestStore(t)
	id := oneSession(t, s)
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte(`{"type":"deleted","time":"2025-03-01T09:00:00Z"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct {
		make func(path string) error
		why  string
	}{
		{func(p string) error { return os.WriteFile(p, []byte("{oops"), 0o600) }, "no line of JSON with the time of a delete"},
		{func(p string) error { return os.Symlink(secret, p) }, "a symbolic link"},
		{func(p string) error { return os.Mkdir(p, 0o700) }, "a directory"},
	} {
		if err := c.make(s.tombPath(id)); err != nil {
			t.Fatal(err)
		}
		notes := catchUp(t, s)
		aside := id + tombExt + unmergedExt
		if i > 0 {
			aside = id + tombExt + "." + string(rune('1'+i)) + unmergedExt
		}
		if len(notes) != 1 || notes[0].File != aside || !strings.Contains(notes[0].Text, c.why) {
			t.Errorf("%s: notes %+v", c.why, notes)
		}
		if _, err := os.Stat(s.path(id)); err != nil {
			t.Fatalf("%s: the session is gone: %v", c.why, err)
		}
	}
	if fi, err := os.Lstat(filepath.Join(s.Dir(), id+tombExt+unmergedExt)); err != nil || fi.Size() != int64(len("{oops")) {
		t.Errorf("the first file set aside was replaced: %v", err)
	}
	if data, err := os.ReadFile(secret); err != nil || !strings.Contains(string(data), "deleted") {
		t.Errorf("the link's target changed: %v", err)
	}
}

// A tombstone's conflict copy arrives beside a tombstone that is garbage:
// the garbage is set aside, not written over, and the copy's delete
// applies.
func TestTombCopyDoesNotOverwriteABadTomb(t *testing.T) {
	s, c := newPlacedStore(t)
	id := oneSession(t, s)
	if err := os.WriteFile(s.tombPath(id), []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	writeTombCopy(t, s, id+" (conflicted copy 2025-03-01 101010)"+tombExt, id, "peer", c.now().Add(time.Hour))
	notes := catchUp(t, s)
	if len(notes) != 1 || notes[0].File != id+tombExt+unmergedExt {
		t.Errorf("notes %+v", notes)
	}
	if data, err := os.ReadFile(filepath.Join(s.Dir(), id+tombExt+unmergedExt)); err != nil || string(data) != "garbage" {
		t.Errorf("set aside: %q, %v", data, err)
	}
	if _, err := os.Stat(s.path(id)); !os.IsNotExist(err) {
		t.Errorf("the copy's delete did not apply: %v", err)
	}
}
