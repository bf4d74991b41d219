package config

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"muse/ui/internal/waitfor"
)

func needSh(t *testing.T) {
	t.Helper()
	need(t, "sh")
}

// need skips a test when the program it runs is not installed, but fails
// it under CI (CI set), whose machines have it: there a skip would hide a
// test that never ran.
func need(t *testing.T, program string) {
	t.Helper()
	if _, err := exec.LookPath(program); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no %s: CI's machines have it", program)
		}
		t.Skipf("no %s", program)
	}
}

// TestResolveSecretBackgroundChild runs a command that prints the credential
// and exits, leaving a child in the background that holds its output open
// for 100 s. With a 30 s credential timeout, success proves that the child
// was not waited for.
func TestResolveSecretBackgroundChild(t *testing.T) {
	needSh(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	got, err := ResolveSecret("", "sleep 100 & echo $! > "+pidFile+"; echo tok", 30*time.Second, env(nil), nil)
	if err != nil || got != "tok" {
		t.Fatalf("ResolveSecret = %q, %v", got, err)
	}
	// The child was killed with the command's process group.
	if runtime.GOOS != "linux" {
		return
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	waitfor.Exit(t, pid, "the background child of the credential command")
}

// TestResolveSecretEscapedChild is the same with a child that left the
// process group, which cannot be killed with it: what the command printed
// is still returned.
func TestResolveSecretEscapedChild(t *testing.T) {
	needSh(t)
	need(t, "setsid")
	pidFile := filepath.Join(t.TempDir(), "pid")
	got, err := ResolveSecret("", "setsid sleep 100 & echo $! > "+pidFile+"; echo tok", 2*time.Second, env(nil), nil)
	if data, err := os.ReadFile(pidFile); err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && pid > 0 {
			defer func() {
				if p, err := os.FindProcess(pid); err == nil {
					p.Kill()
				}
			}()
		}
	}
	if err != nil || got != "tok" {
		t.Fatalf("ResolveSecret = %q, %v", got, err)
	}
}

// TestResolveSecretOutputLimit checks that at most 64 KiB of output is read:
// exactly that much is a credential, more is an error saying so, even from
// a command that never stops printing (a 5 s timeout would say "timed out").
func TestResolveSecretOutputLimit(t *testing.T) {
	needSh(t)
	got, err := ResolveSecret("", "head -c 65536 /dev/zero | tr '\\0' a", 5*time.Second, env(nil), nil)
	if err != nil || got != strings.Repeat("a", maxSecretOutput) {
		t.Errorf("64 KiB: %d bytes, %v", len(got), err)
	}
	for _, cmd := range []string{"head -c 65537 /dev/zero | tr '\\0' a", `yes "sek""rit"`} {
		got, err := ResolveSecret("", cmd, 5*time.Second, env(nil), nil)
		if err == nil || got != "" || !strings.Contains(err.Error(), "printed more than 64 KiB: it must print only the credential") || strings.Contains(err.Error(), "sekrit") {
			t.Errorf("%s: %d bytes, %v", cmd, len(got), err)
		}
	}
}

// TestResolveSecretTimesOut checks a command that runs too long.
func TestResolveSecretTimesOut(t *testing.T) {
	needSh(t)
	_, err := ResolveSecret("", "printf 'sek%s\\n' rit; exec sleep 100", 300*time.Millisecond, env(nil), nil)
	if err == nil || !strings.Contains(err.Error(), `timed out after 300ms: set credential_timeout in the profile`) || strings.Contains(err.Error(), "sekrit") {
		t.Errorf("ResolveSecret = %v", err)
	}
}

// TestRunCommandStderr checks that a command's prompts reach standard error
// and its output, the credential, does not.
func TestRunCommandStderr(t *testing.T) {
	needSh(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = w
	got, err := ResolveSecret("", "echo 'Password:' >&2; echo sek''rit", 2*time.Second, env(nil), nil)
	os.Stderr = stderr
	w.Close()
	shown, _ := io.ReadAll(r)
	if err != nil || got != "sekrit" {
		t.Errorf("ResolveSecret = %q, %v", got, err)
	}
	if !strings.Contains(string(shown), "Password:") || strings.Contains(string(shown), "sekrit") {
		t.Errorf("stderr = %q", shown)
	}
}
