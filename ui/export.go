package ui

import (
	"fmt"
	"os"
	"path/filepath"
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

// exportSession writes the session of w as Markdown to path (default
// ./muse-<id>.md), in a command: it reads a copy of the session as written
// (never what the engine and the screen keep writing) and writes the file
// off the event loop. now stamps a session not saved yet.
func exportSession(w *session.Writer, path string, now time.Time) tea.Cmd {
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
		if err := writeExport(&sess, path, w.Files()); err != nil {
			return exportedMsg{err: fmt.Errorf("export to %s: %w", path, err)}
		}
		abs, _ := filepath.Abs(path)
		return exportedMsg{path: abs}
	}
}

// writeExport writes sess as Markdown to the file path.
func writeExport(sess *session.Session, path string, files transcript.Files) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	err = transcript.Export(sess, "md", f, sanitize.ForExport, files)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func expandHome(path string) string {
	if len(path) > 1 && path[0] == '~' && path[1] == '/' {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, path[2:])
		}
	}
	return path
}
