package toolrun

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// deathChildEnv makes the test binary a muse that runs one long tool and
// waits: TestMain hands it to deathChild.
const deathChildEnv = "MUSE_TOOLRUN_DEATH_CHILD"

func TestMain(m *testing.M) {
	if pidFile := os.Getenv(deathChildEnv); pidFile != "" {
		Run(context.Background(), Spec{Argv: []string{"sh", "-c", `echo $$ > "$0.tmp" && mv "$0.tmp" "$0" && exec sleep 100`, pidFile}, Timeout: time.Hour})
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestToolDiesWithMuse checks that a tool does not outlive a kill -9 of
// muse: it gets a parent-death signal.
func TestToolDiesWithMuse(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "tool.pid")
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), deathChildEnv+"="+pidFile)
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	for deadline := time.Now().Add(30 * time.Second); pid == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			_ = child.Process.Kill()
			t.Fatal("the tool never started")
		}
		if b, err := os.ReadFile(pidFile); err == nil {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
	}
	_ = child.Process.Signal(syscall.SIGKILL)
	_ = child.Wait()
	for deadline := time.Now().Add(30 * time.Second); alive(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the tool (pid %d) outlived muse", pid)
		}
	}
}

// alive says whether pid runs: it exists and is not a zombie waiting for a
// parent that does not reap it.
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}
