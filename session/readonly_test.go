package session

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"muse/session/internal/fileio"
)

// A store in a directory muse may only read still lists, shows and exports;
// writing fails with an error that says why. (Root ignores file modes, so
// the directory's refusals are injected: chmod fails, and so do writes.)
func TestReadOnlyStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	w := NewWriter(s, Params{Model: "m"})
	w.Append(userEntry("e1", "hello"))
	w.Close()
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	fileio.Chmod = func(string, fs.FileMode) error { return syscall.EROFS }
	defer func() { fileio.Chmod = os.Chmod }()
	ro, err := Open(dir)
	if err != nil {
		t.Fatalf("open a read-only store: %v", err)
	}
	infos, err := ro.List()
	if err != nil || len(infos) != 1 {
		t.Fatalf("list: %v, %d", err, len(infos))
	}
	if sess, err := ro.Load(infos[0].ID); err != nil || len(sess.Entries) != 1 {
		t.Fatalf("load: %v", err)
	}
	ro.appendFile = func(string, []byte, bool) error { return syscall.EROFS }
	w2 := NewWriter(ro, Params{Model: "m"})
	w2.sess.ID, w2.exists = infos[0].ID, true
	if _, err := w2.Append(userEntry("e2", "more")); !errors.Is(err, syscall.EROFS) || !strings.Contains(err.Error(), "cannot be written") {
		t.Errorf("writing to a read-only store: %v", err)
	}
}
