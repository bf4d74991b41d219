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

	"muse/ui/internal/waitfor"
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
	ended := make(chan struct{})
	go func() { child.Wait(); close(ended) }()
	defer func() { child.Process.Kill(); <-ended }()
	var pid int
	waitfor.File(t, pidFile, ended, "the tool's pid", func(b []byte) bool {
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b))) // written whole: renamed into place
		return pid > 0
	})
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-ended
	defer syscall.Kill(pid, syscall.SIGKILL) // if it outlived muse
	waitfor.Exit(t, pid, "the tool of a muse killed with SIGKILL")
}
