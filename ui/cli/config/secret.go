package config

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// SecretTimeout bounds how long a credential command may run.
const SecretTimeout = 10 * time.Second

// secretTimeout is SecretTimeout; tests shorten it.
var secretTimeout = SecretTimeout

// ResolveSecret returns a credential: the value of the environment variable
// envName when it is set and not empty, else the output of cmd run with
// "sh -c" under a [SecretTimeout], with the trailing newline trimmed. run
// executes the command; nil means [RunCommand]. With neither envName nor cmd
// the result is "" and no error.
//
// Errors name the variable or the command, which are not secrets, but never
// include the command's output.
func ResolveSecret(envName, cmd string, getenv func(string) string, run func(ctx context.Context, argv []string) ([]byte, error)) (string, error) {
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
	ctx, cancel := context.WithTimeout(context.Background(), secretTimeout)
	defer cancel()
	out, err := run(ctx, []string{"sh", "-c", cmd})
	secret := strings.TrimRight(string(out), "\r\n")
	if err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("credential command %s timed out after %v", quote(cmd), secretTimeout)
		}
		return "", fmt.Errorf("credential command %s failed: %s", quote(cmd), redact(err.Error(), secret))
	}
	if strings.TrimSpace(secret) == "" {
		return "", fmt.Errorf("credential command %s printed nothing", quote(cmd))
	}
	if strings.ContainsAny(secret, "\r\n") {
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

// RunCommand runs argv and returns what it prints on standard output.
// Standard input and standard error stay the terminal's, so that a password
// manager can prompt and explain its failures.
func RunCommand(ctx context.Context, argv []string) ([]byte, error) {
	if len(argv) == 0 {
		return nil, errors.New("no command")
	}
	c := exec.CommandContext(ctx, argv[0], argv[1:]...)
	c.Stdin, c.Stderr = os.Stdin, os.Stderr
	c.WaitDelay = time.Second
	return c.Output()
}
