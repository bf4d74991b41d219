package launch

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/ui/sanitize"
)

// OpenedMsg reports the viewer started on Path, or why it did not.
type OpenedMsg struct {
	Path string
	Err  error
}

// OpenImage starts the system viewer on the image at path, in a command.
// The path comes from a session's journal, which may have come by sync or
// been written by hand, naming any file: the viewer gets only a file of
// store's images folder, links followed (see session.Store.OwnImage), named
// and holding an image, as a viewer would also run what is not one (a
// .desktop file).
func OpenImage(store *session.Store, path string) tea.Cmd {
	return func() tea.Msg {
		own, err := store.OwnImage(path)
		if errors.Is(err, session.ErrForeignImage) {
			// The path is the journal's text: never raw on the screen.
			return OpenedMsg{Path: path, Err: fmt.Errorf("%w: not opened: %s", err, sanitize.Line(path))}
		}
		if err != nil {
			return OpenedMsg{Path: path, Err: fmt.Errorf("open %s: %w", path, err)}
		}
		switch strings.ToLower(filepath.Ext(own)) {
		case ".png", ".jpg", ".jpeg", ".webp":
		default: // a viewer picks what runs a file by its name, too
			return OpenedMsg{Path: path, Err: fmt.Errorf("open %s: not the name of an image file (.png, .jpg, .webp)", own)}
		}
		if _, err := session.ImageFormat(own); err != nil {
			return OpenedMsg{Path: path, Err: fmt.Errorf("open %s: %w", own, err)}
		}
		return OpenedMsg{Path: path, Err: Open(own)}
	}
}
