package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// everythingCommand returns the command of the public reference server
// @modelcontextprotocol/server-everything, which .ci/mcp-servers installs
// and names in MUSE_MCP_EVERYTHING. The test skips without it, except
// under CI, where it fails.
func everythingCommand(t testing.TB) string {
	t.Helper()
	cmd := os.Getenv("MUSE_MCP_EVERYTHING")
	if cmd == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("MUSE_MCP_EVERYTHING is not set: CI must source .ci/mcp-servers before the tests")
		}
		t.Skip("MUSE_MCP_EVERYTHING is not set (source .ci/mcp-servers to run this)")
	}
	return cmd
}

// transports are those the everything server serves: its argument.
var transports = []string{"stdio", "streamableHttp", "sse"}

// serverLog is what an HTTP server wrote, line by line, as it writes it.
type serverLog struct {
	mu    sync.Mutex
	lines []string
	more  chan struct{} // closed and replaced at each line
	// stop kills the server and returns once all it wrote is read.
	stop func()
}

func (l *serverLog) read(r io.Reader, done chan struct{}) {
	defer close(done)
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		l.mu.Lock()
		l.lines = append(l.lines, sc.Text())
		close(l.more)
		l.more = make(chan struct{})
		l.mu.Unlock()
	}
}

// count returns how many lines hold s.
func (l *serverLog) count(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, line := range l.lines {
		if strings.Contains(line, s) {
			n++
		}
	}
	return n
}

// wait waits for the server to write a line that holds s, failing t if it
// does not within a minute or exits first.
func (l *serverLog) wait(t testing.TB, s string) {
	t.Helper()
	deadline := time.NewTimer(time.Minute)
	defer deadline.Stop()
	for {
		l.mu.Lock()
		more := l.more
		l.mu.Unlock()
		if l.count(s) > 0 {
			return
		}
		select {
		case <-more:
		case <-deadline.C:
			l.mu.Lock()
			defer l.mu.Unlock()
			t.Fatalf("the server never wrote %q; it wrote:\n%s", s, strings.Join(l.lines, "\n"))
		}
	}
}

// everything returns a Server of the everything server on transport, run
// by the test (on a free port) when it is an HTTP one, and its log.
func everything(t testing.TB, name, transport string) (Server, *serverLog) {
	t.Helper()
	cmd := everythingCommand(t)
	if transport == "stdio" {
		return Server{Name: name, Type: TypeStdio, Command: cmd, Args: []string{"stdio"}}, nil
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	c := exec.Command(cmd, transport)
	c.Env = append(os.Environ(), "PORT="+port)
	pr, pw := io.Pipe()
	c.Stdout, c.Stderr = pw, pw
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	read := make(chan struct{})
	log := &serverLog{more: make(chan struct{})}
	log.stop = sync.OnceFunc(func() {
		c.Process.Kill()
		c.Wait()
		pw.Close()
		<-read
	})
	go log.read(pr, read)
	t.Cleanup(log.stop)
	log.wait(t, "port "+port)
	if transport == "sse" {
		return Server{Name: name, Type: TypeSSE, URL: "http://127.0.0.1:" + port + "/sse"}, log
	}
	return Server{Name: name, Type: TypeHTTP, URL: "http://127.0.0.1:" + port + "/mcp"}, log
}

// taskNote is the note on the everything server's tool that runs only as
// a task, which muse leaves out.
const taskNote = `tool "simulate-research-query" is not offered: it runs only as a task (execution.taskSupport required), which muse does not run`

// evTools returns the tools of m, an everything server, failing t unless
// the one note is taskNote, and the task-only tool is not offered.
func evTools(t testing.TB, m *Manager) map[string]func(string) string {
	t.Helper()
	got, notes := m.Tools(context.Background())
	if len(notes) != 1 || !strings.HasSuffix(notes[0], taskNote) {
		t.Fatalf("notes %q, want the task-only tool's", notes)
	}
	out := map[string]func(string) string{}
	for _, tl := range got {
		out[tl.Def.Name] = func(in string) string {
			o := tl.Call(context.Background(), json.RawMessage(in))
			if o.IsError {
				return "error: " + o.Text
			}
			return o.Text
		}
	}
	if out["ev__simulate-research-query"] != nil {
		t.Fatal("the task-only tool is offered")
	}
	return out
}
