package fileio

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// WriteNew makes a whole file of mode 0600, refuses a name already taken
// without touching the file there, and leaves no temporary file either way.
func TestWriteNew(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.jsonl")
	if err := WriteNew(path, []byte("first\n")); err != nil {
		t.Fatal(err)
	}
	if err := WriteNew(path, []byte("second\n")); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("a second WriteNew gave %v, want fs.ErrExist", err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "first\n" {
		t.Fatalf("the file holds %q, %v", got, err)
	}
	if fi, err := os.Stat(path); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != FileMode) {
		t.Fatalf("mode %v, %v", fi.Mode(), err)
	}
	des, err := os.ReadDir(dir)
	if err != nil || len(des) != 1 {
		t.Fatalf("the directory holds %v, %v; want only the file", des, err)
	}
}
