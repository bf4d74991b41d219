// Package clipboard copies text to the clipboard of the terminal muse runs
// in: with OSC 52, which works over SSH, wrapped for tmux or screen when
// muse runs inside one; inside tmux it also fills tmux's paste buffer. It
// draws nothing, and runs in commands, never in Update.
package clipboard

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/aymanbagabas/go-osc52/v2"
)

// Copy writes text to the terminal's clipboard through w, the terminal.
// getenv reads TMUX and TERM.
func Copy(w io.Writer, text string, getenv func(string) string) error {
	seq := osc52.New(text)
	inTmux := getenv("TMUX") != ""
	switch {
	case inTmux:
		seq = seq.Tmux()
	case strings.HasPrefix(getenv("TERM"), "screen"):
		seq = seq.Screen()
	}
	_, err := io.WriteString(w, seq.String())
	if inTmux {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, "tmux", "load-buffer", "-w", "-")
		cmd.Stdin = strings.NewReader(text)
		if terr := cmd.Run(); terr != nil && err == nil {
			err = fmt.Errorf("tmux load-buffer: %w", terr)
		}
	}
	return err
}
