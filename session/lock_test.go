package session

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
)

func TestLockSameProcess(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{})
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := s.Lock(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if m := mode(t, s.lockPath(sess.ID)); m != 0o600 && runtime.GOOS != "windows" {
		t.Errorf("lock file mode %o, want 600", m)
	}
	// Another store on the same directory, as another muse would open it.
	other, err := Open(s.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []*Store{s, other} {
		_, err := st.Lock(sess.ID)
		if !errors.Is(err, ErrLocked) {
			t.Fatalf("second Lock: %v, want ErrLocked", err)
		}
		want := fmt.Sprintf("session %s is open in another muse (pid %d)", sess.ID, os.Getpid())
		if err.Error() != want {
			t.Errorf("error %q, want %q", err, want)
		}
	}
	if pid := lockFilePID(t, s.lockPath(sess.ID)); pid != os.Getpid() {
		t.Errorf("after the refused Locks the lock file holds pid %d, want %d", pid, os.Getpid())
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	if err := unlock(); err != nil {
		t.Errorf("a second unlock: %v", err)
	}
	if _, err := os.Stat(s.lockPath(sess.ID)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock file is left after unlock: %v", err)
	}
	unlock2, err := other.Lock(sess.ID)
	if err != nil {
		t.Fatalf("Lock after unlock: %v", err)
	}
	defer unlock2()

	infos, err := s.List()
	if err != nil || len(infos) != 1 || infos[0].ID != sess.ID {
		t.Errorf("List() = %+v, %v; want the session only, no lock file", infos, err)
	}
}

func TestLockErrors(t *testing.T) {
	s, _ := newTestStore(t)
	for _, id := range []string{"../x", "", "a.b"} {
		if _, err := s.Lock(id); !errors.Is(err, ErrNotFound) {
			t.Errorf("Lock(%q) = %v, want ErrNotFound", id, err)
		}
	}
	if _, err := s.Lock("20250101-000000-abcdef"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Lock of a missing session: %v, want ErrNotFound", err)
	}
	entries, err := os.ReadDir(s.Dir())
	if err != nil || len(entries) != 0 {
		t.Errorf("failed locks left files: %v %v", entries, err)
	}
}

func TestLockStaleFileIsTaken(t *testing.T) {
	// A lock file left by a process that died holds no lock.
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.lockPath(sess.ID), []byte("999999999\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	unlock, err := s.Lock(sess.ID)
	if err != nil {
		t.Fatalf("Lock over a stale lock file: %v", err)
	}
	if pid := lockFilePID(t, s.lockPath(sess.ID)); pid != os.Getpid() {
		t.Errorf("lock file holds pid %d, want this pid %d", pid, os.Getpid())
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
}

func TestLockRefusesADirectory(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(s.lockPath(sess.ID), 0o700); err != nil {
		t.Fatal(err)
	}
	_, err = s.Lock(sess.ID)
	if err == nil || errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "is a directory, not a lock file") {
		t.Fatalf("Lock with a directory at the lock path: %v, want a refusal", err)
	}
	if fi, err := os.Lstat(s.lockPath(sess.ID)); err != nil || !fi.IsDir() {
		t.Errorf("the directory at the lock path changed: %v, %v", fi, err)
	}
}

// lockFilePID returns the pid in the lock file at path, 0 if none.
func lockFilePID(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return readPID(f)
}
