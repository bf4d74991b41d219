package session

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"muse/session/sessiontest"
)

// TestForeignImagePathIsNotRead: a journal that came by sync or was
// written by hand can name any file as an image (~/.ssh/id_rsa). The
// session's ReadImage, through which /attach image and selection's a
// attach an image, refuses it, before and after the session is loaded.
func TestForeignImagePathIsNotRead(t *testing.T) {
	a := newMachine(t, "a", 0)
	secret := filepath.Join(t.TempDir(), "id_rsa")
	if err := os.WriteFile(secret, []byte("KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	w := NewWriter(a.s, Params{})
	w.Append(Entry{Kind: KindUser, Text: "draw"})
	w.Append(Entry{Kind: KindImage, ImagePrompt: "a fox", Images: []Image{{Index: 1, Path: secret}}})
	id := w.ID()
	if _, err := w.ReadImage(Image{Path: secret}); err == nil {
		t.Error("ReadImage read a file outside muse's images folder")
	}
	w.Close()
	got, err := a.s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewWriter(a.s, Params{}).ReadImage(got.Entries[1].Images[0]); err == nil {
		t.Error("ReadImage read the loaded session's file outside muse's images folder")
	}
}

// OwnImage, which the preview and ctrl+o go by, takes only a regular file
// of muse's images folder, its links followed: of a hand-written journal,
// a file outside it by name, by "..", through a linked file or a linked
// folder in it, are refused with ErrForeignImage; a file of the folder, or a link to one, gives
// the file itself. Loading keeps the paths as the journal has them.
func TestOwnImageTakesOnlyTheImagesFolder(t *testing.T) {
	s, _ := newTestStore(t)
	const id = "20250301-090000-abcdef"
	dir := s.ImageDir(id)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	secrets := t.TempDir()
	secret := filepath.Join(secrets, "id_rsa.png")
	own := filepath.Join(dir, "turn-1-image-1-abc.png")
	for _, p := range []string{secret, own} {
		if err := os.WriteFile(p, []byte("\x89PNG\r\n\x1a\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{"out.png": secret, "keys": secrets, "again.png": own}
	for name, to := range links {
		if err := os.Symlink(to, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	foreign := []string{secret, filepath.Join(dir, "..", "..", "..", filepath.Base(secrets), "id_rsa.png"), filepath.Join(dir, "out.png"), filepath.Join(dir, "keys", "id_rsa.png"), "", "images/x.png"}
	sessiontest.WriteImageJournal(t, s.Dir(), id, append(foreign, own, filepath.Join(dir, "again.png"))...)
	sess, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	imgs := sess.Entries[1].Images
	if len(imgs) != len(foreign)+2 || imgs[0].Path != secret {
		t.Fatalf("loaded %+v", imgs)
	}
	for _, img := range imgs[:len(foreign)] {
		if got, err := s.OwnImage(img.Path); !errors.Is(err, ErrForeignImage) {
			t.Errorf("%q: %q, %v; want ErrForeignImage", img.Path, got, err)
		}
	}
	real, err := filepath.EvalSymlinks(own)
	if err != nil {
		t.Fatal(err)
	}
	for _, img := range imgs[len(foreign):] {
		if got, err := s.OwnImage(img.Path); err != nil || got != real {
			t.Errorf("%q: %q, %v; want %q", img.Path, got, err, real)
		}
	}
	// Another machine's images folder: its file is missing here, and
	// never looked at; a file of a hand-written path is not said missing.
	other := "/home/someone/.local/share/muse/images/" + id + "/turn-1-image-1-0123456789ab.png"
	if _, err := s.OwnImage(other); !errors.Is(err, ErrForeignImage) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("another machine's image: %v", err)
	}
	if _, err := s.OwnImage(secret); errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a file outside: %v", err)
	}
	var none *Store
	if _, err := none.OwnImage(own); !errors.Is(err, ErrForeignImage) {
		t.Errorf("no store: %v", err)
	}
}
