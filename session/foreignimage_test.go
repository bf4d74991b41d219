package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestForeignImagePathIsLeftOut: a journal that came by sync or was
// written by hand can name any file as an image (~/.ssh/id_rsa). Loaded,
// such a path is left out, noted as not in muse's images folder, so a
// preview, ctrl+o or /attach image never reads or opens it; and the
// session's ReadImage refuses it.
func TestForeignImagePathIsLeftOut(t *testing.T) {
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
	img := got.Entries[1].Images[0]
	if img.Path != "" || !strings.Contains(img.Error, "images folder") {
		t.Errorf("loaded image %+v: want its path left out and why", img)
	}
}
