package toolrun

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"sync"
	"time"
)

// ServerSpec is a long-lived server muse starts and talks to over its
// standard input and output, such as a Model Context Protocol server.
type ServerSpec struct {
	// Argv is the command and its arguments; Argv[0] is looked up in PATH.
	Argv []string
	// Dir is the working folder; "" means muse's.
	Dir string
	// Env is the environment, nil meaning os.Environ(); Extra ("NAME=value")
	// is added to it. The variables of DefaultDrop and Drop are removed from
	// the whole, Extra included.
	Env, Extra []string
	// Drop names variables removed besides DefaultDrop.
	Drop []string
	// Secrets are credentials' values: a variable of Env (not of Extra,
	// which the server's own entry names) that holds one is removed.
	Secrets []string
}

// maxStderr is how much of a server's standard error is kept: the end of
// it, for the message when the server fails.
const maxStderr = 4 << 10

// Process is a running server. It runs in a process group of its own, dies
// with muse on Linux (parent-death signal), is killed by KillAll, and is
// stopped with its group by Stop.
type Process struct {
	cmd *exec.Cmd
	// Stdin is the server's standard input; Stdout its standard output.
	Stdin  io.WriteCloser
	Stdout io.ReadCloser
	stderr *tail
	done   chan struct{}
	err    error // how it ended; read after done
	stop   sync.Once
}

// StartServer starts the server of s.
func StartServer(s ServerSpec) (*Process, error) {
	if len(s.Argv) == 0 || s.Argv[0] == "" {
		return nil, errors.New("the server has no command")
	}
	env := s.Env
	if env == nil {
		env = os.Environ()
	}
	env = append(Withhold(slices.Clip(env), s.Secrets), s.Extra...)
	cmd := exec.Command(s.Argv[0], s.Argv[1:]...)
	cmd.Dir = s.Dir
	cmd.Env = cleanEnv(env, s.Drop)
	cmd.WaitDelay = waitDelay
	ownGroup(cmd)
	cmd.Cancel = nil // no context: Stop ends it
	// Pipes of ours rather than exec's: Wait would close exec's while the
	// client still reads what the server wrote before it exited.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", s.Argv[0], err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("start %s: %w", s.Argv[0], err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("start %s: %w", s.Argv[0], err)
	}
	p := &Process{cmd: cmd, Stdin: inW, Stdout: outR, stderr: &tail{max: maxStderr}, done: make(chan struct{})}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	err = cmd.Start()
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("start %s: %w", s.Argv[0], err)
	}
	// Standard error is read until every process of the group has closed
	// it, which killing the group at the end makes sure of.
	read := make(chan struct{})
	go func() {
		io.Copy(p.stderr, errR)
		errR.Close()
		close(read)
	}()
	track(cmd)
	go func() {
		p.err = cmd.Wait()
		killGroup(cmd)
		untrack(cmd)
		// Done means Exit tells all: what the server wrote last is read.
		select {
		case <-read:
		case <-time.After(waitDelay):
		}
		close(p.done)
	}()
	return p, nil
}

// Done is closed when the server has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Exit says how the server ended, once Done is closed: its exit status,
// such as "exit status 2", or "exited".
func (p *Process) Exit() string {
	if p.err != nil {
		return p.err.Error()
	}
	return "exited"
}

// Stderr is the end of what the server wrote on standard error so far (the
// last 4 KiB), trimmed of surrounding white space. It is the server's own
// text: sanitize it before showing it.
func (p *Process) Stderr() string { return p.stderr.String() }

// stopGrace is how long Stop waits for a server to exit once its input is
// closed, before killing it.
const stopGrace = 200 * time.Millisecond

// Stop ends the server: it closes its input, as the protocol asks, and
// kills its whole process group if it has not exited within stopGrace.
func (p *Process) Stop() {
	p.stop.Do(func() {
		p.Stdin.Close()
		select {
		case <-p.done:
		case <-time.After(stopGrace):
			if p.cmd.Process != nil {
				killGroup(p.cmd)
				_ = p.cmd.Process.Kill()
			}
			<-p.done
		}
		p.Stdout.Close()
	})
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// String returns what was kept, trimmed of surrounding white space.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.buf))
}
