// Package clipboard copies text to the clipboard of the terminal muse runs
// in: with OSC 52, which works over SSH, wrapped for tmux or screen when
// muse runs inside one; inside tmux it also fills tmux's paste buffer; and
// the system clipboard too, where one is reachable. It draws nothing, and
// runs in commands, never in Update.
package clipboard

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"strings"
	"time"

	system "github.com/atotto/clipboard"
	"github.com/aymanbagabas/go-osc52/v2"
)

// systemTimeout bounds a copy to the system clipboard: a clipboard tool
// that hangs (an X server that does not answer) never holds muse up.
var systemTimeout = 2 * time.Second

// systemWrite writes to the system clipboard (xclip, xsel, wl-copy,
// pbcopy, clip.exe…); tests replace it.
var systemWrite = system.WriteAll

// Copy writes text to the terminal's clipboard through w, the terminal,
// and to the system clipboard when one is reachable. getenv reads TMUX,
// TERM, DISPLAY and WAYLAND_DISPLAY. The error is that of the terminal's
// copy: the system clipboard is a bonus, and nothing is printed when it
// cannot be reached.
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
	if reachable(getenv) {
		_ = copySystem(text)
	}
	return err
}

// reachable reports whether a system clipboard can be reached: on macOS
// and Windows always; elsewhere when a display is there (DISPLAY or
// WAYLAND_DISPLAY) and a clipboard tool is installed.
func reachable(getenv func(string) string) bool {
	switch runtime.GOOS {
	case "darwin", "windows":
		return true
	}
	if system.Unsupported {
		return false
	}
	return getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != ""
}

// copySystem writes text to the system clipboard, giving up after
// systemTimeout; the tool's output is discarded.
func copySystem(text string) error {
	done := make(chan error, 1)
	write := systemWrite
	go func() { done <- write(text) }()
	t := time.NewTimer(systemTimeout)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		return fmt.Errorf("the system clipboard did not answer in %s", systemTimeout)
	}
}
