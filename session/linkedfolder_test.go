package session

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muse/session/internal/fileio"
)

// filesUnder lists the files under dir, as paths relative to it.
func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A synced images or attachments folder that is a symbolic link (images
// -> elsewhere), or a session's folder in it that is one, is never
// written through: the save fails with an error that says to remove the
// link, and nothing lands where it leads.
func TestLinkedFoldersAreNotWrittenThrough(t *testing.T) {
	for _, tc := range []struct {
		name string
		link func(s *Store, id string) string // where the link goes
	}{
		{"images", func(s *Store, id string) string { return s.ImagesDir() }},
		{"images/<id>", func(s *Store, id string) string { return s.ImageDir(id) }},
		{"attachments", func(s *Store, id string) string { return filepath.Dir(s.AttachmentDir(id)) }},
		{"attachments/<id>", func(s *Store, id string) string { return s.AttachmentDir(id) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newTestStore(t)
			w := NewWriter(s, Params{Model: "m"})
			defer w.Close()
			if _, err := w.Append(userEntry("", "hi")); err != nil {
				t.Fatal(err)
			}
			id := w.ID()
			elsewhere := t.TempDir()
			at := tc.link(s, id)
			if err := os.MkdirAll(filepath.Dir(at), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(elsewhere, at); err != nil {
				t.Fatal(err)
			}
			var err error
			if strings.HasPrefix(tc.name, "images") {
				_, err = s.SaveImage(id, 1, 0, pngBytes)
			} else {
				_, err = s.saveAttachment(id, imageAttachment("a.png"), pngBytes)
			}
			var le *fileio.LinkedDirError
			if !errors.As(err, &le) || le.Path != at || !strings.Contains(err.Error(), "is a symbolic link") || !strings.Contains(err.Error(), "remove the link") {
				t.Errorf("save through %s: %v", at, err)
			}
			if got := filesUnder(t, elsewhere); len(got) != 0 {
				t.Errorf("written where the link leads: %q", got)
			}
			if fi, err := os.Lstat(at); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("the link was replaced: %v %v", fi, err)
			}
		})
	}
}

// Deleting a session removes nothing where a linked images or attachments
// folder leads.
func TestDeleteLeavesWhatLinkedFoldersLeadTo(t *testing.T) {
	s, _ := newTestStore(t)
	w := NewWriter(s, Params{Model: "m"})
	if _, err := w.Append(userEntry("", "hi")); err != nil {
		t.Fatal(err)
	}
	id := w.ID()
	w.Close()
	elsewhere := t.TempDir()
	for _, sub := range []string{imagesDir, attachmentsDir} {
		target := filepath.Join(elsewhere, sub)
		if err := os.MkdirAll(filepath.Join(target, id), 0o700); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"turn-1-image-0-abcdef012345.png", strings.Repeat("a", 64) + ".png", ".turn-1-image-0-abcdef012345.png.1.tmp"} {
			if err := os.WriteFile(filepath.Join(target, id, name), pngBytes, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Symlink(target, filepath.Join(filepath.Dir(s.Dir()), sub)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Delete(id); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteImages(id); err == nil {
		t.Error("DeleteImages went through the link")
	}
	if got := filesUnder(t, elsewhere); len(got) != 6 {
		t.Errorf("files left where the links lead: %q, want all 6", got)
	}
}
