// Package launch opens files and links in the system's viewer: with
// github.com/pkg/browser, which runs open on macOS, ShellExecute on
// Windows and xdg-open (or x-www-browser, www-browser) on Linux and the
// BSDs, and with wslview under WSL when it is installed. It draws nothing:
// the viewer's output never reaches muse's screen.
package launch

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/pkg/browser"
)

func init() {
	// The opener's messages would land on the chat screen.
	browser.Stdout = io.Discard
	browser.Stderr = io.Discard
}

// What Open uses, replaced by tests.
var (
	openWith = browser.OpenURL
	lookPath = exec.LookPath
	getenv   = os.Getenv
	run      = func(name string, args ...string) error {
		cmd := exec.Command(name, args...)
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		return cmd.Run()
	}
)

// Open opens target in the system's viewer: a file (its path, made
// absolute) or an http, https or file link. It returns once the opener
// has handed target on, or with an error that says what to install.
func Open(target string) error {
	if strings.TrimSpace(target) == "" {
		return errors.New("open: nothing to open")
	}
	arg := target
	if !isLink(target) {
		abs, err := filepath.Abs(target)
		if err != nil {
			return fmt.Errorf("open %s: %w", target, err)
		}
		if _, err := os.Stat(abs); err != nil {
			return fmt.Errorf("open %s: %w", target, err)
		}
		arg = abs
	}
	if inWSL() {
		if p, err := lookPath("wslview"); err == nil {
			if err := run(p, arg); err != nil {
				return fmt.Errorf("open %s: wslview: %w", target, err)
			}
			return nil
		}
	}
	if err := openWith(arg); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			// pkg/browser names every program it tried as one, joined
			// by commas: say plainly that none was there.
			return fmt.Errorf("open %s: no program to open it with (%s)", target, hint())
		}
		return fmt.Errorf("open %s: %w (%s)", target, err, hint())
	}
	return nil
}

// isLink reports whether target is a link Open hands on as it is.
func isLink(target string) bool {
	for _, scheme := range []string{"http://", "https://", "file://"} {
		if len(target) >= len(scheme) && strings.EqualFold(target[:len(scheme)], scheme) {
			return true
		}
	}
	return false
}

// inWSL reports whether muse runs under the Windows Subsystem for Linux.
func inWSL() bool {
	return getenv("WSL_DISTRO_NAME") != "" || getenv("WSL_INTEROP") != ""
}

// hint says what the system needs to open files.
func hint() string {
	if inWSL() {
		return "install wslu for wslview, or xdg-utils"
	}
	return "is xdg-utils (xdg-open) installed?"
}
