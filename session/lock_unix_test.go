//go:build unix

package session

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The child process of TestLockOtherProcess is this test binary with these
// variables set: TestMain then holds the lock instead of running tests.
const (
	envLockDir = "MUSE_TEST_LOCK_DIR"
	envLockID  = "MUSE_TEST_LOCK_ID"
)

// TestMain runs the tests, or, in the child process of
// TestLockOtherProcess, holds the lock (so no test is skipped to make room
// for it).
func TestMain(m *testing.M) {
	if dir := os.Getenv(envLockDir); dir != "" {
		holdLock(dir, os.Getenv(envLockID))
	}
	os.Exit(m.Run())
}

// holdLock locks session id of the store in dir, says so, and holds the
// lock until it is killed, or until its stdin closes because the test
// that started it is gone (then it exits without unlocking).
func holdLock(dir, id string) {
	s, err := Open(dir)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	if _, err := s.Lock(id); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("locked")
	io.Copy(io.Discard, os.Stdin)
	os.Exit(2)
}

// lockInChild starts a process that locks the session id of the store in
// dir, laid out as Open lays it out, and holds the lock until it is killed
// (at the latest when the test ends).
func lockInChild(t *testing.T, dir, id string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envLockDir+"="+dir, envLockID+"="+id)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	// Kept open, never written: the child holds the lock while it is.
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); stdin.Close(); cmd.Wait() })
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "locked\n" {
		t.Fatalf("child said %q, %v", line, err)
	}
	return cmd
}

func TestLockOtherProcess(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{})
	if err != nil {
		t.Fatal(err)
	}
	cmd := lockInChild(t, s.Dir(), sess.ID)

	_, err = s.Lock(sess.ID)
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("Lock while the child holds it: %v, want ErrLocked", err)
	}
	if want := fmt.Sprintf("(pid %d)", cmd.Process.Pid); !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not name the child's pid %s", err, want)
	}
	if err := s.Delete(sess.ID); !errors.Is(err, ErrLocked) {
		t.Errorf("Delete while the child holds the lock: %v, want ErrLocked", err)
	}
	if _, err := os.Stat(s.path(sess.ID)); err != nil {
		t.Errorf("the journal of a locked session is gone: %v", err)
	}

	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no chance to unlock
		t.Fatal(err)
	}
	cmd.Wait()
	unlock, err := s.Lock(sess.ID)
	if err != nil {
		t.Fatalf("Lock after the child was killed: %v", err)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
}

// lockTarget is a file that a link at the lock path points to, and that a
// Lock must leave as it is.
type lockTarget struct {
	path string
	data string
	mode os.FileMode
}

func newLockTarget(t *testing.T) lockTarget {
	t.Helper()
	lt := lockTarget{path: filepath.Join(t.TempDir(), "precious"), data: "do not touch\n", mode: 0o644}
	if err := os.WriteFile(lt.path, []byte(lt.data), lt.mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(lt.path, lt.mode); err != nil { // whatever the umask
		t.Fatal(err)
	}
	return lt
}

func (lt lockTarget) assertUnchanged(t *testing.T) {
	t.Helper()
	b, err := os.ReadFile(lt.path)
	if err != nil || string(b) != lt.data {
		t.Errorf("the target holds %q, %v; want %q", b, err, lt.data)
	}
	if m := mode(t, lt.path); m != lt.mode {
		t.Errorf("the target's mode is %o, want %o", m, lt.mode)
	}
}

func TestLockRefusesASymlink(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{})
	if err != nil {
		t.Fatal(err)
	}
	target := newLockTarget(t)
	if err := os.Symlink(target.path, s.lockPath(sess.ID)); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		unlock, err := s.Lock(sess.ID)
		if err == nil {
			unlock()
			t.Fatal("Lock through a symbolic link succeeded")
		}
		if errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "is a symbolic link, not a lock file") {
			t.Errorf("Lock through a symbolic link: %v, want a refusal that says why", err)
		}
	}
	target.assertUnchanged(t)
	if fi, err := os.Lstat(s.lockPath(sess.ID)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link at the lock path changed: %v, %v", fi, err)
	}
	if err := s.Delete(sess.ID); err == nil {
		t.Error("Delete through a symbolic link succeeded")
	}
	target.assertUnchanged(t)
}

func TestLockRefusesADanglingSymlink(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{})
	if err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "not-yet")
	if err := os.Symlink(target, s.lockPath(sess.ID)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Lock(sess.ID); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("Lock through a dangling symbolic link: %v, want a refusal", err)
	}
	if _, err := os.Lstat(target); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Lock created the target of the link: %v", err)
	}
}

func TestLockRefusesAHardLink(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{})
	if err != nil {
		t.Fatal(err)
	}
	target := newLockTarget(t)
	if err := os.Link(target.path, s.lockPath(sess.ID)); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no hard link across directories in CI's temporary folder: %v", err)
		}
		t.Skipf("no hard link across directories here: %v", err)
	}
	if _, err := s.Lock(sess.ID); err == nil || !strings.Contains(err.Error(), "several names") {
		t.Errorf("Lock of a hard link: %v, want a refusal", err)
	}
	target.assertUnchanged(t)
}

// A store whose locks are in a folder of their own (the state folder, out
// of the data folder) honours the lock an older muse holds beside the
// journal, killed or not: its pid is named, and once it is gone the old
// file is removed and the lock is taken in the lock folder, never beside
// the journal.
func TestLockHonoursAnOlderMuse(t *testing.T) {
	old, _ := newTestStore(t)
	sess, err := old.Create(Params{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenAt(old.Dir(), Places{Locks: filepath.Join(t.TempDir(), "locks")})
	if err != nil {
		t.Fatal(err)
	}
	cmd := lockInChild(t, old.Dir(), sess.ID) // an older muse: its lock beside the journal
	left, err := old.Create(Params{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(old.lockPath(left.ID), nil, 0o600); err != nil { // left by a muse now gone
		t.Fatal(err)
	}
	sc, err := s.Scan()
	if err != nil || !slices.Equal(sc.Locked, []string{sess.ID}) {
		t.Fatalf("Scan: locked %v, %v; want the older muse's %s", sc.Locked, err, sess.ID)
	}
	if _, err := os.Stat(old.lockPath(left.ID)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Scan left a lock file no one holds beside the journal: %v", err)
	}
	_, err = s.Lock(sess.ID)
	if want := fmt.Sprintf("(pid %d)", cmd.Process.Pid); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), want) {
		t.Fatalf("Lock while an older muse holds it: %v, want ErrLocked naming %s", err, want)
	}
	if _, err := os.Stat(s.lockPath(sess.ID)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused lock left its file in the lock folder: %v", err)
	}
	cmd.Process.Kill()
	cmd.Wait()

	unlock, err := s.Lock(sess.ID)
	if err != nil {
		t.Fatalf("Lock once the older muse was killed: %v", err)
	}
	if _, err := os.Stat(old.lockPath(sess.ID)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the older muse's lock file stays beside the journal: %v", err)
	}
	if _, err := os.Stat(s.lockPath(sess.ID)); err != nil || filepath.Dir(s.lockPath(sess.ID)) != s.LockDir() {
		t.Errorf("the lock is not in the lock folder: %v", err)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	if des, err := os.ReadDir(s.LockDir()); err != nil && !os.IsNotExist(err) || len(des) != 0 {
		t.Errorf("unlock left %d files in the lock folder (%v)", len(des), err)
	}
}
