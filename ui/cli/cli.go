// Package cli is muse's command line: it reads flags and the environment,
// then runs the one-shot print mode or the interactive chat screen.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"muse/api"
	"muse/api/demo"
	"muse/session"
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
}

// OSEnv returns the process's own environment.
func OSEnv() Env {
	return Env{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv,
		StdinPiped: !isTerminal(os.Stdin), StdoutTTY: isTerminal(os.Stdout),
	}
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Main runs muse with args and returns the exit status.
func Main(args []string, env Env) int {
	if len(args) > 0 && args[0] == "sessions" {
		return sessionsMain(args[1:], env)
	}
	if len(args) > 0 && args[0] == "config" {
		return configMain(args[1:], env)
	}
	f, fs, err := parseFlags(args)
	if err != nil {
		return fail(env, err)
	}
	if f.help {
		writeHelp(env.Stdout, fs)
		return ExitOK
	}
	if f.showVer {
		fmt.Fprintf(env.Stdout, "muse %s\n", api.Version)
		return ExitOK
	}
	cfg, err := resolve(f, env.Getenv)
	if err != nil {
		return fail(env, err)
	}
	if f.demo {
		srv, err := demo.Start(demo.Options{Delay: cfg.demoDelay(f.printSet)})
		if err != nil {
			return fail(env, fmt.Errorf("start the demo server: %w", err))
		}
		defer srv.Close()
		cfg.baseURL = srv.URL
	}
	client := api.New(cfg.baseURL, cfg.clientOptions()...)
	if f.printSet {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		return printMode(ctx, env, f, cfg, client)
	}
	if !env.StdoutTTY {
		return fail(env, usagef("muse's chat screen needs a terminal: use -p \"PROMPT\" for one-shot output"))
	}
	return runTUI(env, f, cfg, client)
}

// fail prints err and returns its exit status.
func fail(env Env, err error) int {
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
		if apiErr.RequestID != "" {
			fmt.Fprintf(env.Stderr, "muse: request id %s\n", sanitize.Line(apiErr.RequestID))
		}
		return ExitFailed
	case errors.Is(err, session.ErrLocked), errors.Is(err, session.ErrNotFound), errors.Is(err, session.ErrAmbiguous):
		fmt.Fprintf(env.Stderr, "muse: %s\n", sanitize.Line(err.Error()))
		return ExitFailed
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(env.Stderr, "muse: interrupted")
		return ExitInterrupted
	}
	fmt.Fprintf(env.Stderr, "muse: %s\n", sanitize.Line(err.Error()))
	return ExitFailed
}

// openStore opens the session store at its default place.
func openStore(getenv func(string) string) (*session.Store, error) {
	dir, err := session.DefaultDir(getenv)
	if err != nil {
		return nil, usagef("%v: set HOME or XDG_DATA_HOME", err)
	}
	st, err := session.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("open the session directory: %w", err)
	}
	return st, nil
}

// readStdin reads piped input, up to limit bytes.
func readStdin(r io.Reader, limit int64) (string, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return "", fmt.Errorf("read standard input: %w", err)
	}
	if int64(len(data)) > limit {
		return "", usagef("standard input is larger than %d MiB", limit>>20)
	}
	return strings.TrimRight(string(data), "\n"), nil
}
