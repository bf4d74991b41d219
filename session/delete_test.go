package session

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func TestRename(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{})
	if err != nil {
		t.Fatal(err)
	}
	for title, want := range map[string]string{
		"  New\n\ttitle\x1b[31m  ":     "New title [31m",
		"a\u202eb":                     "ab",
		strings.Repeat("é", 250) + "x": strings.Repeat("é", 200),
		strings.Repeat("ab ", 100):     strings.TrimSpace(strings.Repeat("ab ", 67)),
	} {
		if err := s.Rename(sess.ID, title); err != nil {
			t.Fatal(err)
		}
		got, err := s.Load(sess.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Title != want {
			t.Errorf("Rename(%q): title %q, want %q", title, got.Title, want)
		}
	}
	if err := s.Rename(sess.ID, " \n\t "); err == nil {
		t.Error("an empty title was accepted")
	}
	if err := s.Rename("20990101-000000-ffffff", "x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Rename of a missing session: %v, want ErrNotFound", err)
	}
	if err := s.Rename("../x", "x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Rename of an invalid id: %v, want ErrNotFound", err)
	}
}

func TestDelete(t *testing.T) {
	s, _ := newTestStore(t)
	keep, err := s.Create(Params{})
	if err != nil {
		t.Fatal(err)
	}
	gone, err := s.Create(Params{})
	if err != nil {
		t.Fatal(err)
	}
	mustList(t, s) // both in the index
	png := encodePNG(t, testImage(2, 2))
	for _, id := range []string{keep.ID, gone.ID} {
		if _, err := s.SaveImage(id, 1, 1, png); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Delete(gone.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.ImageDir(keep.ID)); err != nil {
		t.Errorf("the images of the session kept went: %v", err)
	}
	for _, p := range []string{s.path(gone.ID), s.lockPath(gone.ID), s.ImageDir(gone.ID)} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is left: %v", p, err)
		}
	}
	if infos := mustList(t, s); len(infos) != 1 || infos[0].ID != keep.ID {
		t.Errorf("List after Delete: %+v", infos)
	}
	if err := s.Delete(gone.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("second Delete: %v, want ErrNotFound", err)
	}
	if err := s.Delete("../x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Delete of an invalid id: %v, want ErrNotFound", err)
	}

	// Locked by another muse: refused.
	other, err := Open(s.Dir())
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := other.Lock(keep.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(keep.ID); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "open in another muse") {
		t.Errorf("Delete of a locked session: %v, want ErrLocked", err)
	}
	if _, err := os.Stat(s.path(keep.ID)); err != nil {
		t.Fatalf("a locked session was deleted: %v", err)
	}
	// Locked through the store deleting it: allowed, and the lock goes.
	if err := other.Delete(keep.ID); err != nil {
		t.Fatalf("Delete by the lock's holder: %v", err)
	}
	if err := unlock(); err != nil {
		t.Errorf("unlock after Delete: %v", err)
	}
	entries, err := os.ReadDir(s.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), tombExt) { // tombstones stay, see tombstone.go
			t.Errorf("left in the store: %s", e.Name())
		}
	}
}
