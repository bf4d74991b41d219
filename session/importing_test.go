package session

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// tempsIn lists the temporary files in dir.
func tempsIn(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, de := range des {
		if strings.HasSuffix(de.Name(), ".tmp") {
			out = append(out, de.Name())
		}
	}
	return out
}

// A session whose journal appears under the import's id while it is being
// written (another muse, a sync engine) is never replaced: the import
// fails and leaves nothing of its own, and the journal there stays whole.
func TestImportNeverReplacesASession(t *testing.T) {
	s, _ := newTestStore(t)
	im, err := s.BeginImport(fullParams())
	if err != nil {
		t.Fatal(err)
	}
	if err := im.Add(userEntry("e1", "hello")); err != nil {
		t.Fatal(err)
	}
	other := []byte("{\"v\":2,\"type\":\"header\",\"id\":\"" + im.ID() + "\"}\n")
	if err := os.WriteFile(s.path(im.ID()), other, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := im.Finish("t", false, ""); err == nil {
		t.Fatal("the import replaced a session that appeared under its id")
	}
	if data, err := os.ReadFile(s.path(im.ID())); err != nil || !bytes.Equal(data, other) {
		t.Errorf("the session there was changed: %q, %v", data, err)
	}
	if left := tempsIn(t, s.dir); len(left) > 0 {
		t.Errorf("the import left %q", left)
	}
}

// An import writes its journal with mode 0600, beside the others, and
// shows nothing until it is finished: a list during it has no session.
func TestImportAppearsWhenFinished(t *testing.T) {
	s, _ := newTestStore(t)
	im, err := s.BeginImport(fullParams())
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"e1", "e2", "e3"} {
		if err := im.Add(userEntry(id, "prompt "+id)); err != nil {
			t.Fatal(err)
		}
	}
	if infos, err := s.List(); err != nil || len(infos) != 0 {
		t.Fatalf("during the import the list is %+v, %v; want nothing", infos, err)
	}
	if err := im.Finish("", false, ""); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(s.path(im.ID()))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("journal %v, %v; want mode 0600", fi, err)
	}
	sess, err := s.Load(im.ID())
	if err != nil {
		t.Fatal(err)
	}
	if len(sess.Entries) != 3 || sess.Title != "prompt e1"+ImportedSuffix || sess.Params.Model != fullParams().Model || len(sess.Warnings) > 0 {
		t.Errorf("imported %d entries titled %q, settings %+v, warnings %q", len(sess.Entries), sess.Title, sess.Params, sess.Warnings)
	}
	if left := tempsIn(t, s.dir); len(left) > 0 {
		t.Errorf("the import left %q", left)
	}
}

// What an import killed before it finished left (its temporary journal,
// for a session that never appeared) is removed by the next import once
// it is an hour old; a fresh one, or one of a session that exists, stays.
func TestImportRemovesWhatAKilledImportLeft(t *testing.T) {
	s, c := newTestStore(t)
	existing := NewWriter(s, fullParams())
	if _, err := existing.Append(userEntry("e1", "hi")); err != nil {
		t.Fatal(err)
	}
	existing.Close()
	now := c.now()
	old, fresh := now.Add(-2*time.Hour), now
	files := map[string]time.Time{
		"." + "20250301-090000-0000000000000001" + journalExt + ".123.tmp": old,   // a killed import: removed
		"." + "20250301-090000-0000000000000002" + journalExt + ".456.tmp": fresh, // one under way: kept
		"." + existing.ID() + journalExt + ".789.tmp":                      old,   // the session's: its open removes it
	}
	for name, mtime := range files {
		p := filepath.Join(s.dir, name)
		if err := os.WriteFile(p, []byte("{}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	// Each import had stored an image: the killed one's goes with its
	// temporary journal; the one under way keeps its own.
	killed, underWay := "20250301-090000-0000000000000001", "20250301-090000-0000000000000002"
	for _, id := range []string{killed, underWay} {
		if _, err := s.SaveImage(id, 1, 0, tinyPNG()); err != nil {
			t.Fatal(err)
		}
	}
	im, err := s.BeginImport(fullParams())
	if err != nil {
		t.Fatal(err)
	}
	im.Abort()
	if _, err := os.Lstat(s.ImageDir(killed)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the killed import's images are left: %v", err)
	}
	if _, err := os.Stat(s.ImageDir(underWay)); err != nil {
		t.Errorf("the images of an import under way were removed: %v", err)
	}
	left := tempsIn(t, s.dir)
	slices.Sort(left)
	if strings.Join(left, " ") != ".20250301-090000-0000000000000002.jsonl.456.tmp ."+existing.ID()+journalExt+".789.tmp" {
		t.Errorf("left %q", left)
	}
}
