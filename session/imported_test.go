package session

import (
	"path/filepath"
	"strings"
	"testing"
)

// An imported session keeps only the image paths inside this store's
// images folder: any other path (absolute, relative, climbing out with ..)
// could make muse read a file for a preview and hand it to a viewer.
func TestImportKeepsOnlyOwnImagePaths(t *testing.T) {
	s, _ := newTestStore(t)
	own := filepath.Join(filepath.Dir(s.dir), imagesDir, "abc", "turn-1-image-1.png")
	bad := []string{"/etc/passwd", "../../secret.bin", filepath.Join(filepath.Dir(s.dir), imagesDir, "..", "..", "x.png")}
	imgs := []Image{{Index: 0, Path: own}}
	for i, p := range bad {
		imgs = append(imgs, Image{Index: i + 1, Path: p, URL: "https://example.com/x.png"})
	}
	in := []Entry{{ID: "e1", Kind: KindImage, Text: "a cat", Images: imgs}}
	sess, err := s.SaveImported(Imported{Title: "t", Entries: in})
	if err != nil {
		t.Fatal(err)
	}
	got := sess.Entries[0].Images
	if got[0].Path != own {
		t.Errorf("the store's own image lost its path: %+v", got[0])
	}
	for _, img := range got[1:] {
		if img.Path != "" || !strings.Contains(img.Error, "not in muse's images folder") || img.URL == "" {
			t.Errorf("kept %+v", img)
		}
	}
	if in[0].Images[1].Path != bad[0] {
		t.Error("the caller's entries were changed")
	}
}

// An imported session's title is marked as imported, within the longest
// title a rename keeps; one with no title takes it from its first prompt.
func TestImportedTitleIsMarked(t *testing.T) {
	s, _ := newTestStore(t)
	long := strings.Repeat("é", maxRenameRunes+50)
	user := []Entry{{ID: "u1", Kind: KindUser, Text: "draw a cat"}}
	for _, tc := range []struct{ title, want string }{
		{"Cats", "Cats (imported)"},
		{"", "draw a cat (imported)"},
		{"Cats (imported)", "Cats (imported)"},
		{long, strings.Repeat("é", maxRenameRunes-len([]rune(ImportedSuffix))) + ImportedSuffix},
	} {
		sess, err := s.SaveImported(Imported{Title: tc.title, Entries: user})
		if err != nil {
			t.Fatal(err)
		}
		if sess.Title != tc.want {
			t.Errorf("title %.20q imported as %q, want %q", tc.title, sess.Title, tc.want)
		}
		if n := len([]rune(sess.Title)); n > maxRenameRunes {
			t.Errorf("imported title has %d runes, more than %d", n, maxRenameRunes)
		}
	}
}
