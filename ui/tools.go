package ui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"
)

// Tool limits.
const (
	ToolTimeout   = 30 * time.Second
	ToolOutputCap = 64 << 10
)

// RunTool runs argv with the call's input JSON on stdin, for at most
// ToolTimeout, keeping at most ToolOutputCap bytes of its output (stdout and
// stderr together).
func RunTool(ctx context.Context, argv []string, input []byte) (output string, exitCode int, err error) {
	if len(argv) == 0 {
		return "", -1, errors.New("the tool has no command")
	}
	ctx, cancel := context.WithTimeout(ctx, ToolTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = bytes.NewReader(input)
	out := &capped{max: ToolOutputCap}
	cmd.Stdout, cmd.Stderr = out, out
	err = cmd.Run()
	exitCode = cmd.ProcessState.ExitCode()
	if ctx.Err() == context.DeadlineExceeded {
		return out.String(), exitCode, fmt.Errorf("%s timed out after %s", argv[0], ToolTimeout)
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		err = nil // a non-zero exit is a result, reported with its code
	}
	return out.String(), exitCode, err
}

// capped keeps the first max bytes written to it and counts the rest.
type capped struct {
	buf     bytes.Buffer
	max     int
	dropped int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(room, len(p))])
		c.dropped += max(len(p)-room, 0)
	} else {
		c.dropped += len(p)
	}
	return len(p), nil
}

func (c *capped) String() string {
	if c.dropped > 0 {
		return fmt.Sprintf("%s\n… %d more bytes cut (limit %d KiB)", c.buf.String(), c.dropped, c.max>>10)
	}
	return c.buf.String()
}
