// Package launch opens files in the system's viewer. It draws nothing: the
// viewer's output never reaches muse's screen.
package launch

import (
	"fmt"
	"os/exec"
	"runtime"
)

// opener returns the command that opens a file or link on this system.
func opener(path string) (string, []string) {
	switch runtime.GOOS {
	case "darwin":
		return "open", []string{path}
	case "windows":
		return "rundll32", []string{"url.dll,FileProtocolHandler", path}
	default:
		return "xdg-open", []string{path}
	}
}

// Open starts the system viewer on path and does not wait for it. Its
// output is discarded.
func Open(path string) error {
	name, args := opener(path)
	cmd := exec.Command(name, args...)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("open %s: %w (is %s installed?)", path, err, name)
	}
	go cmd.Wait()
	return nil
}
