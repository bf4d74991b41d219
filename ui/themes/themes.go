// Package themes runs the chat screen's /theme command: alone it says
// which theme is on; a built-in theme's name makes it at once (the
// built-in themes are in the program); a theme file is read in a command,
// off the event loop, and LoadedMsg brings it. Switching the screen to
// the theme is the root's, since every part of the screen takes its
// styles.
package themes

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"muse/theme"
	"muse/ui/sanitize"
)

// LoadedMsg carries a theme, made or read from a file, or why it could not
// be.
type LoadedMsg struct {
	Theme *theme.Theme
	Err   error
}

// Command runs /theme name with the theme on, for a terminal of profile:
// notice, when set, is what the status line says; loaded, when set, is
// the theme made at once; cmd, when set, reads a theme file.
func Command(name string, on *theme.Theme, profile termenv.Profile) (notice string, loaded *LoadedMsg, cmd tea.Cmd) {
	dark, opt := on.DarkBackground, theme.WithProfile(profile)
	switch {
	case name == "":
		return "theme " + sanitize.Line(on.Name) + " · /theme NAME or FILE switches (tab completes)", nil, nil
	case theme.IsFile(name):
		return "", nil, func() tea.Msg {
			th, err := theme.New(name, dark, opt)
			return LoadedMsg{Theme: th, Err: err}
		}
	}
	th, err := theme.New(name, dark, opt)
	return "", &LoadedMsg{Theme: th, Err: err}, nil
}

// Notice is what the status line says of msg: why the theme could not be
// had (a bad file names its line and what was expected), else the theme
// switched to, or why its colours may not suit the terminal.
func (msg LoadedMsg) Notice() string {
	switch {
	case msg.Err != nil:
		return sanitize.Line(msg.Err.Error())
	case msg.Theme.Mismatch() != "":
		return sanitize.Line(msg.Theme.Mismatch())
	}
	return "theme " + sanitize.Line(msg.Theme.Name)
}
