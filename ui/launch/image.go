package launch

import (
	"fmt"
	"path/filepath"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
)

// OpenedMsg reports the viewer started on Path, or why it did not.
type OpenedMsg struct {
	Path string
	Err  error
}

// OpenImage starts the system viewer on path, in a command, if it holds an
// image: the path comes from a session, which may have been imported, and
// a viewer would also run what is not an image (a .desktop file).
func OpenImage(path string) tea.Cmd {
	return func() tea.Msg {
		switch strings.ToLower(filepath.Ext(path)) {
		case ".png", ".jpg", ".jpeg", ".webp":
		default: // a viewer picks what runs a file by its name, too
			return OpenedMsg{Path: path, Err: fmt.Errorf("open %s: not the name of an image file (.png, .jpg, .webp)", path)}
		}
		if _, err := session.ImageFormat(path); err != nil {
			return OpenedMsg{Path: path, Err: fmt.Errorf("open %s: %w", path, err)}
		}
		return OpenedMsg{Path: path, Err: Open(path)}
	}
}
