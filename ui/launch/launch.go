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
	"runtime"
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
	goos     = runtime.GOOS
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
		if tried := triedPrograms(err); tried != nil {
			return fmt.Errorf("open %s: no program to open it with: looked for %s (%s)", target, list(tried), hint())
		}
		return fmt.Errorf("open %s: %w (%s)", target, err, failHint(err))
	}
	return nil
}

// failHint says what to do when the opener ran and failed. xdg-open's
// exit status 3 means it found no program for the file (no browser or
// viewer, as on a machine without a desktop), 4 that the one it started
// failed: xdg-utils is there, so saying to install it would mislead.
func failHint(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) && runtimeIsXDG() {
		switch ee.ExitCode() {
		case 3:
			return "no browser or viewer found for it: open the file yourself, or set $BROWSER"
		case 4:
			return "the program that opens it failed: open the file yourself, or set $BROWSER"
		}
	}
	return hint()
}

// runtimeIsXDG reports whether the opener is xdg-open (Linux and the
// BSDs, outside WSL's wslview).
func runtimeIsXDG() bool { return goos != "darwin" && goos != "windows" }

// list joins names as "a, b and c".
func list(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// triedPrograms lists the programs Open tried when err says none of them
// was found, or returns nil. pkg/browser names every program it tried as
// one, joined by commas ("xdg-open,x-www-browser,www-browser"): each is
// named on its own. Under WSL wslview was looked for first.
func triedPrograms(err error) []string {
	var ee *exec.Error
	if !errors.As(err, &ee) || !errors.Is(ee.Err, exec.ErrNotFound) {
		return nil
	}
	var tried []string
	if inWSL() {
		tried = append(tried, "wslview")
	}
	for name := range strings.SplitSeq(ee.Name, ",") {
		if name = strings.TrimSpace(name); name != "" {
			tried = append(tried, name)
		}
	}
	return tried
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
