package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// -a of a link to /proc/self/fd/N, a deleted file muse holds open, is
// refused: no path says what it is (attack review: it was sent unchecked).
func TestAttachFilesRefusesUnplaced(t *testing.T) {
	t.Chdir(t.TempDir())
	gone := filepath.Join(t.TempDir(), "gone.txt")
	if err := os.WriteFile(gone, []byte("DELETED\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(gone)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/proc/self/fd/"+strconv.FormatUint(uint64(f.Fd()), 10), "notes.txt"); err != nil {
		t.Fatal(err)
	}
	files, _, err := attachFiles([]string{"notes.txt"})
	var usage *usageError
	if !errors.As(err, &usage) || !strings.Contains(err.Error(), "cannot find under any name") || len(files) != 0 {
		t.Errorf("-a of a deleted file: %d files, %v", len(files), err)
	}
	if err := os.WriteFile("plain.txt", []byte("PLAIN\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	files, warnings, err := attachFiles([]string{"plain.txt"})
	if err != nil || len(files) != 1 || len(warnings) != 0 || string(files[0].Data) != "PLAIN\n" {
		t.Errorf("-a of a plain file: %d files, %q, %v", len(files), warnings, err)
	}
}
