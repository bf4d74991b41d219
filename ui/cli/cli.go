// Package cli is muse's command line: a command tree (cobra) that reads
// flags and the environment, then runs the one-shot print mode, the
// interactive chat screen, or one of the commands (sessions, config,
// doctor, completion, man).
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"golang.org/x/term"

	"muse/api"
	"muse/api/regfile"
	"muse/session"
	"muse/session/dirs"
	"muse/ui/sanitize"
)

// Exit statuses.
const (
	ExitOK          = 0
	ExitFailed      = 1
	ExitUsage       = 2
	ExitInterrupted = 130
)

// Env is what the command line runs with, injectable for tests.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// StdinPiped reports whether standard input is a pipe or file to read.
	StdinPiped bool
	// StdoutTTY reports whether standard output is a terminal.
	StdoutTTY bool
	// StderrTTY reports whether standard error is a terminal.
	StderrTTY bool
	// Width is the terminal's width in columns, 0 when unknown.
	Width int
	// Command is how the person ran muse, for the hints muse prints: "muse",
	// or "go run ." when it runs from go run's build folder (OSEnv).
	Command string

	// own marks the process's own environment, where the platform's
	// folders may be asked of the system when no home is set.
	own bool
	// goos lays out the folders for another system, for tests; "" means
	// runtime.GOOS.
	goos string
	// args are the arguments muse runs with (Main's), for a hint that
	// repeats the command.
	args []string
}

// OSEnv returns the process's own environment.
func OSEnv() Env {
	env := fileEnv(os.Stdin, os.Stdout, os.Stderr)
	env.Command = commandName(os.Args[0], exec.LookPath)
	return env
}

// commandName is how to run muse again, given the path it was started
// as, so that a hint works when pasted: "go run ." where go run built it
// into its temporary folder (…/go-build…/exe/muse) or, from the second
// run on (Go 1.24 and later), took it from Go's build cache
// (…/go-build/4f/<64 hex digits>-d/muse), since no "muse" is installed
// then; its name alone when the shell found it on PATH (arg0 holds no
// folder) or when lookPath finds that name to be this very file; else the
// path as typed (./muse, after go build -o muse .), quoted for a POSIX
// shell when it must be, since a bare "muse" would run another muse or none.
func commandName(arg0 string, lookPath func(string) (string, error)) string {
	dir := filepath.ToSlash(filepath.Dir(arg0))
	if strings.HasSuffix(dir, "/exe") && strings.Contains(dir, "/go-build") {
		return "go run ."
	}
	if cachedRun(dir) {
		return "go run ."
	}
	if arg0 == "" {
		return "muse"
	}
	name := filepath.Base(arg0)
	if !strings.ContainsAny(arg0, `/\`) {
		return shellQuote(name)
	}
	if found, err := lookPath(name); err == nil && sameFile(found, arg0) {
		return shellQuote(name)
	}
	if runtime.GOOS == "windows" {
		return arg0 // as typed: single quotes would make PowerShell read a string, not a command
	}
	return shellQuote(arg0)
}

// sameFile reports whether the paths a and b name one file.
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// cachedRun reports whether dir is where Go's build cache keeps an
// executable go run built: a folder named for its 64 hex digits and "-d",
// in the cache's folder of their first two.
func cachedRun(dir string) bool {
	parent, name := path.Split(dir)
	hash, ok := strings.CutSuffix(name, "-d")
	if !ok || len(hash) != 64 || strings.Trim(hash, "0123456789abcdef") != "" {
		return false
	}
	return path.Base(parent) == hash[:2]
}

// fileEnv is the environment of a process whose standard streams are these
// files, read from the process's own environment variables.
func fileEnv(stdin, stdout, stderr *os.File) Env {
	e := Env{
		Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: os.Getenv,
		StdinPiped: !isTerminal(stdin), StdoutTTY: isTerminal(stdout), StderrTTY: isTerminal(stderr), own: true,
	}
	if e.StdoutTTY {
		if w, _, err := term.GetSize(int(stdout.Fd())); err == nil {
			e.Width = w
		}
	}
	return e
}

// isTerminal reports whether f is a terminal: not merely a character
// device, as /dev/null is too. It leaves f in the mode it is in, as f.Fd
// would not.
func isTerminal(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	tty := false
	if rc.Control(func(fd uintptr) { tty = term.IsTerminal(int(fd)) }) != nil {
		return false
	}
	return tty
}

// dirGetenv is the getenv to find folders with: nil for the process's own
// environment, so that dirs.BaseDir may ask the system.
func (e Env) dirGetenv() func(string) string {
	if e.own {
		return nil
	}
	return e.Getenv
}

// baseDir returns the base directory b (data, config or state) for env.
func (e Env) baseDir(b dirs.Base) (string, error) {
	return dirs.BaseDir(b, e.dirGetenv(), e.goos)
}

// Main runs muse with args and returns the exit status.
func Main(args []string, env Env) int {
	if args == nil {
		args = []string{} // cobra would read os.Args
	}
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	env.args = args
	a := &app{env: env}
	root := a.newRoot()
	root.SetArgs(bareP(args, root.Flags()))
	err := root.Execute()
	var st exitStatus
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &st):
		return int(st)
	}
	return fail(env, err)
}

// orEmpty returns r, or an empty reader for nil.
func orEmpty(r io.Reader) io.Reader {
	if r == nil {
		return strings.NewReader("")
	}
	return r
}

// exitStatus is a command's exit status, once its messages are printed.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// status turns an exit status into the error a command returns.
func status(code int) error {
	if code == ExitOK {
		return nil
	}
	return exitStatus(code)
}

// fail prints err and returns its exit status.
func fail(env Env, err error) int { return failHint(env, err, "") }

// failHint is fail with hint in place of a service error's own shell hint,
// when the caller knows better (where the refused credential came from).
func failHint(env Env, err error, hint string) int {
	var ue *usageError
	var apiErr *api.APIError
	switch {
	case errors.As(err, &ue), errors.Is(err, api.ErrInvalidRequest):
		for _, l := range errorLines(err) { // several problems, one a line
			fmt.Fprintf(env.Stderr, "muse: %s\n", l)
		}
		return ExitUsage
	case errors.As(err, &apiErr):
		fmt.Fprintf(env.Stderr, "muse: %s\n", sanitize.Line(apiErr.Error()))
		if hint == "" {
			hint = apiErr.ShellHint() // a shell's words: no slash command
		}
		fmt.Fprintf(env.Stderr, "muse: %s\n", sanitize.Line(hint))
		if apiErr.RequestID != "" {
			fmt.Fprintf(env.Stderr, "muse: request id %s\n", sanitize.Line(apiErr.RequestID))
		}
		return ExitFailed
	case errors.Is(err, session.ErrLocked), errors.Is(err, session.ErrNotFound), errors.Is(err, session.ErrAmbiguous):
		for _, l := range errorLines(err) { // a hint may follow, a line each
			fmt.Fprintf(env.Stderr, "muse: %s\n", l)
		}
		return ExitFailed
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(env.Stderr, "muse: interrupted")
		return ExitInterrupted
	}
	fmt.Fprintf(env.Stderr, "muse: %s\n", sanitize.Line(api.ShellText(err)))
	return ExitFailed
}

// sessionsDir returns where sessions are kept for env.
func sessionsDir(env Env) (string, error) {
	dir, err := dirs.SessionsDir(env.dirGetenv(), env.goos)
	if err != nil {
		return "", usagef("%v: set HOME (USERPROFILE on Windows) or XDG_DATA_HOME", err)
	}
	return dir, nil
}

// openStore opens the session store at its default place, with its index
// and locks in this machine's own folders (dirs.CacheDir, dirs.LockDir),
// out of the data folder.
func openStore(env Env) (*session.Store, error) {
	dir, err := sessionsDir(env)
	if err != nil {
		return nil, err
	}
	var places session.Places
	if places.Cache, err = dirs.CacheDir(env.dirGetenv(), env.goos); err != nil {
		return nil, usagef("%v: set HOME (USERPROFILE on Windows) or XDG_CACHE_HOME", err)
	}
	if places.Locks, err = dirs.LockDir(env.dirGetenv(), env.goos); err != nil {
		return nil, usagef("%v: set HOME (USERPROFILE on Windows) or XDG_STATE_HOME", err)
	}
	st, err := session.OpenAt(dir, places)
	if err != nil {
		return nil, fmt.Errorf("open the session directory: %w", err)
	}
	setMachine(env, st)
	st.SetLister(indexLister(env, st))
	return st, nil
}

// readStdin reads piped input, up to limit bytes, as text without its
// final line breaks.
func readStdin(r io.Reader, limit int64) (string, error) {
	data, err := readPiped(r, limit)
	if err != nil {
		return "", err
	}
	return strings.TrimRight(string(data), "\n"), nil
}

// readPiped reads piped input whole, up to limit bytes: more is a usage
// error.
func readPiped(r io.Reader, limit int64) ([]byte, error) {
	data, err := regfile.ReadAll(r, limit)
	var tooLarge *regfile.TooLargeError
	switch {
	case errors.As(err, &tooLarge):
		return nil, usagef("standard input is larger than %d MiB, muse's limit: pipe less of it (head -c), or save it to a file and attach part of it", limit>>20)
	case err != nil:
		return nil, fmt.Errorf("read standard input: %w", err)
	}
	return data, nil
}

// cmdName is env's Command, "muse" when not set (tests, other front ends).
func cmdName(env Env) string {
	if env.Command == "" {
		return "muse"
	}
	return env.Command
}
