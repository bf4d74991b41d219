package gitsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"strings"
)

// branch is the remote branch muse syncs through.
const branch = "muse-sync"

// remoteRef and trackRef are the remote's branch and the local copy of it.
const (
	remoteRef = "refs/heads/" + branch
	trackRef  = "refs/remotes/origin/" + branch
	// madeRef is where fast-import writes this machine's commits.
	madeRef = "refs/muse/made"
)

// commitEnv makes commits that carry no name, address or time of the user.
var commitEnv = []string{
	"GIT_AUTHOR_NAME=muse", "GIT_AUTHOR_EMAIL=muse@localhost", "GIT_AUTHOR_DATE=2000-01-01T00:00:00Z",
	"GIT_COMMITTER_NAME=muse", "GIT_COMMITTER_EMAIL=muse@localhost", "GIT_COMMITTER_DATE=2000-01-01T00:00:00Z",
}

// git runs the git command in a bare repository.
type git struct {
	dir   string
	env   []string // the environment, muse's secrets removed
	batch bool     // no terminal: never prompt
}

// run runs git with args, stdin as its input, and returns its output. An
// error holds what git said, with any user:password in a URL masked.
func (g *git) run(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", g.dir}, args...)...)
	cmd.Env = append(append([]string{}, g.env...), commitEnv...)
	if g.batch {
		cmd.Env = append(cmd.Env, "GIT_TERMINAL_PROMPT=0", "GCM_INTERACTIVE=never")
		detach(cmd)
	}
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return out.Bytes(), &gitError{args: args[0], msg: mask(strings.TrimSpace(errb.String())), code: ee.ExitCode()}
		}
		if errors.Is(err, exec.ErrNotFound) {
			return nil, errors.New("muse sync needs git: install it and put it on the PATH")
		}
		return nil, fmt.Errorf("git %s: %w", args[0], err)
	}
	return out.Bytes(), nil
}

// text runs git and returns its output without the trailing newline.
func (g *git) text(ctx context.Context, args ...string) (string, error) {
	out, err := g.run(ctx, nil, args...)
	return strings.TrimRight(string(out), "\n"), err
}

// gitError is git's failure: its exit code and what it said.
type gitError struct {
	args string
	msg  string
	code int
}

func (e *gitError) Error() string {
	if e.msg == "" {
		return fmt.Sprintf("git %s failed (exit status %d)", e.args, e.code)
	}
	return "git " + e.args + ": " + e.msg
}

// userinfo matches the user and password of a URL: the authority up to
// its last @, since a password may hold @ unescaped (git takes
// https://u:p@ss@host/r.git as user u, password p@ss).
var userinfo = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://)[^/?#\s]*@`)

// mask hides user names and passwords in URLs in s.
func mask(s string) string { return userinfo.ReplaceAllString(s, "${1}***@") }

// rejected reports whether err is a push refused because the remote moved.
func rejected(err error) bool {
	var ge *gitError
	if !errors.As(err, &ge) {
		return false
	}
	return strings.Contains(ge.msg, "non-fast-forward") || strings.Contains(ge.msg, "fetch first") || strings.Contains(ge.msg, "rejected")
}

// blob writes data as a blob and returns its id.
func (g *git) blob(ctx context.Context, data []byte) (string, error) {
	out, err := g.run(ctx, bytes.NewReader(data), "hash-object", "-w", "--stdin")
	return strings.TrimSpace(string(out)), err
}
