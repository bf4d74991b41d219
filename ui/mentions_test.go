package ui

import (
	"os"
	"path/filepath"
	"testing"
)

// The @ menu's generated images: the newest session's first, the later
// turns of each first, only image files, at most maxMenuImages.
func TestGeneratedImagesNewestFirst(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{
		"20261101-1000-a/turn-1-image-0-aa.png",
		"20261101-1000-a/turn-2-image-0-bb.png",
		"20261101-1000-a/notes.txt",
		"20261102-0900-b/turn-1-image-1-cc.webp",
		"20261102-0900-b/turn-10-image-0-dd.jpg",
	} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got := generatedImages(root)
	want := []string{"20261102-0900-b/turn-10-image-0-dd.jpg", "20261102-0900-b/turn-1-image-1-cc.webp",
		"20261101-1000-a/turn-2-image-0-bb.png", "20261101-1000-a/turn-1-image-0-aa.png"}
	if len(got) != len(want) {
		t.Fatalf("listed %v", got)
	}
	for i, s := range got {
		if s.Label != want[i] || s.Mention != "@"+filepath.Join(root, want[i]) || s.Detail != "generated image" {
			t.Errorf("%d: %+v, want %s", i, s, want[i])
		}
	}
	if got := generatedImages(filepath.Join(root, "none")); len(got) != 0 {
		t.Errorf("a missing folder lists %v", got)
	}
}
