//go:build unix

package session

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// An images folder that is itself a symbolic link (images -> ~), as a
// sync can plant, is not muse's own: a journal naming images/.ssh/id_rsa
// through it is refused, as the writes through such a link are.
func TestOwnImageRefusesALinkedImagesFolder(t *testing.T) {
	s, _ := newTestStore(t)
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_rsa.png"), []byte("\x89PNG\r\n\x1a\nKEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(home, s.ImagesDir()); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(s.ImagesDir(), ".ssh", "id_rsa.png")
	got, err := s.OwnImage(p)
	if !errors.Is(err, ErrForeignImage) {
		t.Errorf("OwnImage(%q) = %q, %v; want ErrForeignImage", p, got, err)
	}
	if data, err := s.ReadImage(Image{Path: p}); err == nil {
		t.Errorf("ReadImage read %q through a linked images folder", data)
	}
}
