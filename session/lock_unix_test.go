//go:build unix

package session

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The child process of TestLockOtherProcess runs TestHelperHoldLock with
// these variables set.
const (
	envLockDir = "MUSE_TEST_LOCK_DIR"
	envLockID  = "MUSE_TEST_LOCK_ID"
)

// TestHelperHoldLock is not a test: run by TestLockOtherProcess as a child
// process, it locks a session, says so, and waits to be killed.
func TestHelperHoldLock(t *testing.T) {
	dir := os.Getenv(envLockDir)
	if dir == "" {
		t.Skip("helper process for TestLockOtherProcess")
	}
	s, err := Open(dir)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	if _, err := s.Lock(os.Getenv(envLockID)); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("locked")
	time.Sleep(time.Minute)
	os.Exit(2)
}

func TestLockOtherProcess(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHoldLock$")
	cmd.Env = append(os.Environ(), envLockDir+"="+s.Dir(), envLockID+"="+sess.ID)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "locked\n" {
		t.Fatalf("child said %q, %v", line, err)
	}

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
