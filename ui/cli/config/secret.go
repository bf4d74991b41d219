package config

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"golang.org/x/term"

	"muse/api/regfile"
)

// secretTimeout bounds how long a credential command may run when the
// profile sets no credential_timeout.
const secretTimeout = 10 * time.Second

// maxSecretOutput is the most a credential command may print.
const maxSecretOutput = 64 << 10

// errTooMuchOutput is RunCommand's error for a command that prints more
// than maxSecretOutput bytes.
var errTooMuchOutput = fmt.Errorf("printed more than %d KiB", maxSecretOutput>>10)

// ResolveSecret returns a credential: the value of the environment variable
// envName when it is set and not empty, else the output of cmd run with
// "sh -c" for at most timeout (secretTimeout when 0), with the trailing
// newline trimmed. run executes the command; nil means [RunCommand]. With
// neither envName nor cmd the result is "" and no error.
//
// Errors name the variable or the command, which are not secrets, but never
// include the command's output.
func ResolveSecret(envName, cmd string, timeout time.Duration, getenv func(string) string, run func(ctx context.Context, argv []string) ([]byte, error)) (string, error) {
	if envName != "" {
		if v := strings.TrimRight(getenv(envName), "\r\n"); v != "" {
			return v, nil
		}
		if cmd == "" {
			return "", fmt.Errorf("environment variable %s is not set", envName)
		}
	}
	if cmd == "" {
		return "", nil
	}
	if run == nil {
		run = RunCommand
	}
	if timeout <= 0 {
		timeout = secretTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	out, err := run(ctx, []string{"sh", "-c", cmd})
	secret := strings.TrimRight(string(out), "\r\n")
	switch {
	case errors.Is(err, errTooMuchOutput):
		return "", fmt.Errorf("credential command %s %v: it must print only the credential", quote(cmd), errTooMuchOutput)
	case err != nil && ctx.Err() != nil:
		return "", fmt.Errorf("credential command %s timed out after %v: set credential_timeout in the profile to wait longer", quote(cmd), timeout)
	case err != nil:
		return "", fmt.Errorf("credential command %s failed: %s", quote(cmd), redact(err.Error(), secret))
	case strings.TrimSpace(secret) == "":
		return "", fmt.Errorf("credential command %s printed nothing", quote(cmd))
	case strings.ContainsAny(secret, "\r\n"):
		return "", fmt.Errorf("credential command %s printed more than one line: it must print only the credential (add | head -n 1)", quote(cmd))
	}
	return secret, nil
}

// redact replaces each non-blank line of secret found in msg with "****", so
// that a runner which quotes the command's output cannot leak it.
func redact(msg, secret string) string {
	for _, s := range strings.Split(secret, "\n") {
		if s = strings.TrimSpace(s); s != "" {
			msg = strings.ReplaceAll(msg, s, "****")
		}
	}
	return msg
}

// pipeGrace is how long RunCommand keeps reading once the command has
// exited and its process group is gone: only a process that left the group
// can still hold standard output open, and what it writes is not waited for.
const pipeGrace = 200 * time.Millisecond

// RunCommand runs argv in a process group of its own and returns what it
// prints on standard output, at most maxSecretOutput bytes: more is an
// error. Standard error stays the terminal's, and so does standard input
// when it is one, so that a password manager can prompt. When the command
// exits, or ctx ends, the whole group is killed, so that a child left in
// the background neither outlives it nor keeps RunCommand waiting.
func RunCommand(ctx context.Context, argv []string) ([]byte, error) {
	return runCommand(ctx, argv, nil)
}

// CommandIn returns a [RunCommand] whose command runs with the environment
// env, as os/exec's Cmd.Env takes it (nil: muse's own), for ResolveSecret:
// a credential command gets none of muse's other credentials.
func CommandIn(env []string) func(ctx context.Context, argv []string) ([]byte, error) {
	return func(ctx context.Context, argv []string) ([]byte, error) { return runCommand(ctx, argv, env) }
}

// runCommand is RunCommand with the environment env.
func runCommand(ctx context.Context, argv, env []string) ([]byte, error) {
	if len(argv) == 0 {
		return nil, errors.New("no command")
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("make a pipe: %w", err)
	}
	defer pr.Close()
	c := exec.CommandContext(ctx, argv[0], argv[1:]...)
	c.Stdout, c.Stderr, c.Env = pw, os.Stderr, env
	if term.IsTerminal(int(os.Stdin.Fd())) {
		c.Stdin = os.Stdin
	}
	c.Cancel = func() error { killGroup(c.Process); return nil }
	c.WaitDelay = time.Second
	restore, err := startGroup(c)
	pw.Close()
	if err != nil {
		restore()
		return nil, err
	}
	type result struct {
		out []byte
		err error
	}
	read := make(chan result, 1)
	go func() {
		out, err := regfile.ReadAll(pr, maxSecretOutput)
		var tooLarge *regfile.TooLargeError
		if errors.As(err, &tooLarge) {
			killGroup(c.Process)
			out, err = nil, errTooMuchOutput
		}
		read <- result{out, err}
	}()
	err = c.Wait()
	restore()
	killGroup(c.Process)
	if pr.SetReadDeadline(time.Now().Add(pipeGrace)) != nil {
		timer := time.AfterFunc(pipeGrace, func() { pr.Close() })
		defer timer.Stop()
	}
	r := <-read
	if r.err == errTooMuchOutput {
		return nil, r.err
	}
	return r.out, err
}
