package session

import (
	"os"
	"path/filepath"
	"testing"
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
