// Package toolrun runs the command of a tool for muse: with the call's input
// on stdin, for a limited time, keeping a limited part of its output, without
// muse's credentials in its environment, and in a process group of its own
// that is killed when the run ends, so that no process it leaves behind
// holds muse or outlives it.
package toolrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// Limits of a run, used where a Spec leaves them zero.
const (
	// defaultTimeout is how long a command may run.
	defaultTimeout = 30 * time.Second
	// defaultMaxOutput is how many bytes of output are kept.
	defaultMaxOutput = 64 << 10
)

// waitDelay is how long the output is read after the command ends, or
// after it is killed, while a process it left behind holds the output open.
const waitDelay = time.Second

// DefaultDrop names the variables that are never passed to a tool: muse's
// credentials.
var DefaultDrop = []string{"MUSE_ACCESS_TOKEN", "MUSE_API_KEY"}

// Spec is one run of a tool command.
type Spec struct {
	// Argv is the command and its arguments; Argv[0] is looked up in PATH.
	Argv []string
	// Input is written to the command's standard input.
	Input []byte
	// Timeout is how long the command may run; 0 means defaultTimeout.
	Timeout time.Duration
	// MaxOutput is how many bytes of output are kept; 0 means
	// defaultMaxOutput.
	MaxOutput int
	// Env is the command's environment; nil means os.Environ().
	Env []string
	// Drop names variables removed from Env, besides DefaultDrop.
	Drop []string
	// Secrets are credentials' values: a variable of Env that holds one,
	// under whatever name, is removed too (see Withhold).
	Secrets []string
	// Stdout, when set, takes the command's standard output whole (a
	// program's binary output, such as an image); Output then holds only
	// its standard error. A write error stops the output, as a closed pipe
	// would.
	Stdout io.Writer
}

// Result is what a run of a tool command gave.
type Result struct {
	// Output is the standard output and standard error of the command, in
	// the order written, cut at the output limit with a note of how much
	// was cut.
	Output string
	// ExitCode is the command's exit status, -1 when it did not start or
	// was killed.
	ExitCode int
	// Duration is how long the run took.
	Duration time.Duration
	// Err says why the command did not run to its end: "timed out after
	// 30s", "cancelled", or why it did not start. It is nil when the command
	// exited by itself, whatever its exit status.
	Err error
}

// Run runs the command of s and returns its result. The command runs in a
// process group of its own, which is killed, with every process in it, when
// the command times out, when ctx is done, and when the command exits, so
// that a process it started in the background ends with it.
func Run(ctx context.Context, s Spec) Result {
	start := time.Now()
	res := func(out string, code int, err error) Result {
		return Result{Output: out, ExitCode: code, Duration: time.Since(start), Err: err}
	}
	if len(s.Argv) == 0 {
		return res("", -1, errors.New("the tool has no command"))
	}
	if ctx.Err() != nil {
		return res("", -1, errors.New("cancelled"))
	}
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = defaultTimeout
	}
	limit := s.MaxOutput
	if limit <= 0 {
		limit = defaultMaxOutput
	}
	env := s.Env
	if env == nil {
		env = os.Environ()
	}

	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(runCtx, s.Argv[0], s.Argv[1:]...)
	cmd.Env = cleanEnv(Withhold(env, s.Secrets), s.Drop)
	cmd.Stdin = bytes.NewReader(s.Input)
	cmd.WaitDelay = waitDelay
	ownGroup(cmd)

	// The output goes through a pipe of ours rather than one of exec's, so
	// that Wait returns when the command exits, not when the last process
	// holding the pipe does: the group is killed first.
	pr, pw, err := os.Pipe()
	if err != nil {
		return res("", -1, fmt.Errorf("start %s: %w", s.Argv[0], err))
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	if s.Stdout != nil {
		cmd.Stdout = s.Stdout // copied by exec, within waitDelay of the end
	}
	err = cmd.Start()
	pw.Close()
	if err == nil {
		track(cmd)
		defer untrack(cmd)
	}
	if err != nil {
		pr.Close()
		if ctx.Err() != nil {
			return res("", -1, errors.New("cancelled"))
		}
		return res("", -1, fmt.Errorf("start %s: %w", s.Argv[0], err))
	}
	out := &capped{max: limit}
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		io.Copy(out, pr)
	}()

	cmd.Wait()
	cancelled, timedOut := ctx.Err() != nil, runCtx.Err() != nil
	killGroup(cmd)
	select {
	case <-copied:
		pr.Close()
	case <-time.After(waitDelay):
		// A process that left the group holds the output: stop reading.
		// Where closing does not interrupt the read, the read goes on in
		// the background and what it reads is dropped.
		go pr.Close()
	}
	output := out.close()

	code := cmd.ProcessState.ExitCode()
	switch {
	case cancelled:
		return res(output, code, errors.New("cancelled"))
	case timedOut:
		return res(output, code, fmt.Errorf("timed out after %s", timeout))
	}
	return res(output, code, nil)
}

// Environ returns muse's environment as a child gets it: without the
// variables named in DefaultDrop and drop, nor those whose value holds one
// of secrets (see Withhold). A credential command (access_token_cmd, an MCP
// server's token_cmd, sync_key_cmd) and git run with it, as a tool does.
func Environ(drop, secrets []string) []string {
	return cleanEnv(Withhold(os.Environ(), secrets), drop)
}

// cleanEnv returns env without the variables named in DefaultDrop and drop.
// Names are compared as the system does: ignoring case on Windows.
func cleanEnv(env []string, drop []string) []string {
	same := func(a, b string) bool { return a == b }
	if runtime.GOOS == "windows" {
		same = strings.EqualFold
	}
	dropped := func(name string) bool {
		for _, list := range [][]string{DefaultDrop, drop} {
			for _, d := range list {
				if same(name, d) {
					return true
				}
			}
		}
		return false
	}
	kept := make([]string, 0, len(env))
	for _, kv := range env {
		// A name may start with "=" on Windows ("=C:=C:\dir").
		name := kv
		if i := strings.Index(kv[min(1, len(kv)):], "="); i >= 0 {
			name = kv[:i+min(1, len(kv))]
		}
		if !dropped(name) {
			kept = append(kept, kv)
		}
	}
	return kept
}

// minSecret is the shortest value Withhold looks for: shorter ones (a
// flag, a number) are no credential, and dropping every variable that
// happens to equal one would do harm.
const minSecret = 8

// Withhold returns env without the variables whose value holds one of
// secrets: a credential muse holds (read from a command, or from a
// variable it removes by name) that the environment also holds under
// another name, alone or within a longer value ("Bearer <token>", a URL
// with it in its query).
func Withhold(env, secrets []string) []string {
	var vals []string
	for _, s := range secrets {
		if s = strings.TrimSpace(s); len(s) >= minSecret {
			vals = append(vals, s)
		}
	}
	if len(vals) == 0 {
		return env
	}
	kept := make([]string, 0, len(env))
	for _, kv := range env {
		_, v, _ := strings.Cut(kv[min(1, len(kv)):], "=")
		if !slices.ContainsFunc(vals, func(secret string) bool { return strings.Contains(v, secret) }) {
			kept = append(kept, kv)
		}
	}
	return kept
}

// capped keeps the first max bytes written to it and counts the rest, until
// it is closed; it may be written and closed from different goroutines.
type capped struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	max     int
	dropped int
	closed  bool
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return 0, io.ErrClosedPipe
	}
	room := max(c.max-c.buf.Len(), 0)
	c.buf.Write(p[:min(room, len(p))])
	c.dropped += max(len(p)-room, 0)
	return len(p), nil
}

// close stops the writes and returns what was kept, with a note of how many
// bytes were cut.
func (c *capped) close() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	if c.dropped == 0 {
		return c.buf.String()
	}
	limit := fmt.Sprintf("%d bytes", c.max)
	if c.max%1024 == 0 {
		limit = fmt.Sprintf("%d KiB", c.max>>10)
	}
	return fmt.Sprintf("%s\n… %d more bytes cut (limit %s)", c.buf.String(), c.dropped, limit)
}
