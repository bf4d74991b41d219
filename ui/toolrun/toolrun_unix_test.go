//go:build unix

package toolrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"muse/ui/internal/waitfor"
)

// long is a timeout for runs that are not meant to time out.
const long = time.Minute

// sh runs script with sh, $0 set to arg0 when given.
func sh(script string, arg0 ...string) []string { return append([]string{"sh", "-c", script}, arg0...) }

func TestRunOutputAndInput(t *testing.T) {
	r := Run(context.Background(), Spec{Argv: sh("cat; echo err >&2"), Input: []byte(`{"a":1}` + "\n"), Timeout: long})
	if r.Err != nil || r.ExitCode != 0 || r.Output != "{\"a\":1}\nerr\n" {
		t.Errorf("Run = %+v, want the input and stderr, exit 0", r)
	}
}

// With Stdout set, the standard output goes there whole and Output keeps
// only the standard error.
func TestRunStdoutApart(t *testing.T) {
	var out strings.Builder
	r := Run(context.Background(), Spec{Argv: sh("printf 'a\\000b'; echo err >&2"), Stdout: &out, Timeout: long})
	if r.Err != nil || r.ExitCode != 0 || r.Output != "err\n" || out.String() != "a\x00b" {
		t.Errorf("Run = %+v, stdout %q; want stdout a\\0b and only stderr in Output", r, out.String())
	}
}

func TestRunNonZeroExit(t *testing.T) {
	r := Run(context.Background(), Spec{Argv: sh("echo failing; exit 3"), Timeout: long})
	if r.Err != nil || r.ExitCode != 3 || r.Output != "failing\n" {
		t.Errorf("Run = %+v, want exit 3, no error", r)
	}
}

func TestRunTimeout(t *testing.T) {
	r := Run(context.Background(), Spec{Argv: sh("echo before; sleep 100"), Timeout: time.Second})
	if r.Err == nil || r.Err.Error() != "timed out after 1s" {
		t.Fatalf("Run = %+v, want timed out after 1s", r)
	}
	if r.Output != "before\n" || r.ExitCode != -1 {
		t.Errorf("Run = %+v, want the output so far and exit -1", r)
	}
}

func TestRunCancel(t *testing.T) {
	started := filepath.Join(t.TempDir(), "started")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ran := make(chan Result, 1)
	go func() { ran <- Run(ctx, Spec{Argv: sh(`: > "$0"; exec sleep 100`, started), Timeout: long}) }()
	waitfor.File(t, started, nil, "the tool's start", func(b []byte) bool { return b != nil })
	cancel()
	r := <-ran // without the cancel, this waits out long
	if r.Err == nil || r.Err.Error() != "cancelled" || r.ExitCode != -1 {
		t.Errorf("Run = %+v, want cancelled", r)
	}
}

func TestRunKillsBackgroundProcesses(t *testing.T) {
	// The background sleep holds the output pipe: Run returns all the same,
	// and kills it.
	r := Run(context.Background(), Spec{Argv: sh("sleep 100 & echo started $!"), Timeout: long})
	f := strings.Fields(r.Output)
	if r.Err != nil || r.ExitCode != 0 || len(f) != 2 || f[0] != "started" {
		t.Fatalf("Run = %+v, want started <pid>, exit 0", r)
	}
	pid, err := strconv.Atoi(f[1])
	if err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid)
}

func TestRunTimeoutKillsGroup(t *testing.T) {
	dir := t.TempDir()
	r := Run(context.Background(), Spec{Argv: sh(`sleep 100 & echo $! > "$0/pid"; wait`, dir), Timeout: time.Second})
	if r.Err == nil || r.Err.Error() != "timed out after 1s" {
		t.Fatalf("Run = %+v, want timed out", r)
	}
	b, err := os.ReadFile(filepath.Join(dir, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid)
}

func TestRunEscapedProcessDoesNotHold(t *testing.T) {
	// A process in a session of its own is out of reach, but holding the
	// output does not hold Run.
	if _, err := os.Stat("/usr/bin/setsid"); err != nil {
		if os.Getenv("CI") != "" { // util-linux is on CI's machines
			t.Fatal("no /usr/bin/setsid")
		}
		t.Skip("no setsid")
	}
	r := Run(context.Background(), Spec{Argv: sh("/usr/bin/setsid sleep 100 & echo $!"), Timeout: long})
	if pid, err := strconv.Atoi(strings.TrimSpace(r.Output)); err == nil {
		defer syscall.Kill(pid, syscall.SIGKILL)
	}
	if r.Err != nil || r.ExitCode != 0 {
		t.Errorf("Run = %+v, want exit 0", r)
	}
}

func TestRunDropsCredentials(t *testing.T) {
	env := append(os.Environ(), "MUSE_ACCESS_TOKEN=secret", "MUSE_API_KEY=key", "MY_TOKEN=mine", "KEPT=kept")
	r := Run(context.Background(), Spec{
		Argv:    sh(`echo "[$MUSE_ACCESS_TOKEN][$MUSE_API_KEY][$MY_TOKEN][$KEPT]"`),
		Env:     env,
		Drop:    []string{"MY_TOKEN"},
		Timeout: long,
	})
	if r.Err != nil || r.Output != "[][][][kept]\n" {
		t.Errorf("Run = %+v, want only KEPT set", r)
	}
}

func TestRunDropsFromProcessEnv(t *testing.T) {
	t.Setenv("MUSE_ACCESS_TOKEN", "secret")
	r := Run(context.Background(), Spec{Argv: sh(`echo "[$MUSE_ACCESS_TOKEN]"`), Timeout: long})
	if r.Err != nil || r.Output != "[]\n" {
		t.Errorf("Run = %+v, want MUSE_ACCESS_TOKEN unset", r)
	}
}

func TestRunOutputCap(t *testing.T) {
	r := Run(context.Background(), Spec{Argv: sh("printf 0123456789; printf abcdefghij >&2"), MaxOutput: 15, Timeout: long})
	if want := "0123456789abcde\n… 5 more bytes cut (limit 15 bytes)"; r.Err != nil || r.Output != want {
		t.Errorf("Run = %+v, want output %q", r, want)
	}
	r = Run(context.Background(), Spec{Argv: sh("head -c 70000 /dev/zero"), Timeout: long})
	if want := fmt.Sprintf("\n… %d more bytes cut (limit 64 KiB)", 70000-defaultMaxOutput); r.Err != nil ||
		len(r.Output) != defaultMaxOutput+len(want) || !strings.HasSuffix(r.Output, want) {
		t.Errorf("Run = %d bytes ending %q, %v; want 64 KiB and %q", len(r.Output), r.Output[max(len(r.Output)-60, 0):], r.Err, want)
	}
}

func BenchmarkRunTrue(b *testing.B) {
	for b.Loop() {
		if r := Run(context.Background(), Spec{Argv: []string{"true"}}); r.Err != nil {
			b.Fatal(r.Err)
		}
	}
}

// waitGone waits until the process pid no longer runs. A killed process
// whose parent is gone may stay a zombie when nothing reaps it: that counts
// as gone.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	waitfor.Exit(t, pid, "a process the tool left")
}
