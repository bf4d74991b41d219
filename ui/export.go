package ui

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/session/transcript"
	"muse/ui/sanitize"
)

// exportedMsg reports a finished export.
type exportedMsg struct {
	path string
	err  error
}

// exportSession writes the session of w as Markdown to the path arg names
// (default ./muse-<id>.md), in a command: it reads a copy of the session as
// written (never what the engine and the screen keep writing) and writes the
// file off the event loop. An existing file is refused unless --force
// follows the path (or comes alone), the rule of muse sessions export -o.
// now stamps a session not saved yet.
func exportSession(w *session.Writer, arg string, now time.Time) tea.Cmd {
	path, force := exportArgs(arg)
	return func() tea.Msg {
		sess := w.Snapshot()
		if sess.ID == "" {
			sess.ID = "unsaved"
		}
		if sess.Created.IsZero() {
			sess.Created = now.UTC()
		}
		if path == "" {
			path = fmt.Sprintf("muse-%s.md", sess.ID)
		}
		path = expandHome(path)
		files := w.Files()
		err := transcript.WriteFile(path, force, func(out io.Writer) error {
			return transcript.Export(&sess, "md", out, sanitize.ForExport, files)
		})
		if err != nil {
			return exportedMsg{err: fmt.Errorf("export: %w", err)} // err names the path
		}
		abs, _ := filepath.Abs(path)
		return exportedMsg{path: abs}
	}
}

// exportArgs reads the argument of /export: a path, empty for the default,
// and --force after it (or alone).
func exportArgs(arg string) (path string, force bool) {
	arg = strings.TrimSpace(arg)
	if arg == "--force" {
		return "", true
	}
	if p, ok := strings.CutSuffix(arg, " --force"); ok {
		return strings.TrimSpace(p), true
	}
	return arg, false
}

func expandHome(path string) string {
	if len(path) > 1 && path[0] == '~' && path[1] == '/' {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, path[2:])
		}
	}
	return path
}
