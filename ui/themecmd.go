package ui

import (
	"github.com/charmbracelet/bubbles/progress"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"muse/theme"
	"muse/ui/sanitize"
)

// themeLoadedMsg carries a theme read from a file, or why it could not be.
type themeLoadedMsg struct {
	th  *theme.Theme
	err error
}

// themeCommand runs /theme: alone, it says which theme is on; a name
// switches at once (the built-in themes are in the program); a theme file
// is read in a command, off the event loop, and switched to when it comes.
func (m Model) themeCommand(name string) (tea.Model, tea.Cmd) {
	dark, profile := m.th.DarkBackground, theme.WithProfile(m.opts.Profile)
	switch {
	case name == "":
		m.status = m.status.Note("theme " + sanitize.Line(m.th.Name) + " · /theme NAME or FILE switches (tab completes)")
		return m, nil
	case theme.IsFile(name):
		return m, func() tea.Msg {
			th, err := theme.New(name, dark, profile)
			return themeLoadedMsg{th: th, err: err}
		}
	}
	th, err := theme.New(name, dark, profile)
	return m.themeLoaded(themeLoadedMsg{th: th, err: err})
}

// themeLoaded switches to the theme of msg, or says why it cannot: a bad
// theme file names its line and what was expected, and the theme on stays.
func (m Model) themeLoaded(msg themeLoadedMsg) (tea.Model, tea.Cmd) {
	if msg.err != nil {
		m.status = m.status.Note(sanitize.Line(msg.err.Error()))
		return m.layout(), nil
	}
	// From the next frame the whole screen is drawn in the new theme:
	// every part that copied a style from the theme takes its, and every
	// render cached by what it shows (and not by its colours) is dropped:
	// the conversation's renders by entry and width, its markdown
	// renderers by width, the input's and the frame's memos.
	th := msg.th
	c := *m.common // shared by the model's copies: changed in a copy of its own
	c.th = th
	m.common = &c
	m.conv = m.conv.SetTheme(th)
	m.input = m.input.SetTheme(th)
	*m.memo = viewMemo{}
	m.queue, m.pending, m.edit = m.queue.SetStyles(&th.Styles), m.pending.SetStyles(&th.Styles), m.edit.SetStyles(&th.Styles)
	st := th.Styles
	w := *m.w
	w.spin.Style = st.Spinner
	w.help = w.help.SetStyles(&th.Styles)
	w.progress = progress.New(progress.WithWidth(w.progress.Width), progress.WithSolidFill(string(st.Accent.GetForeground().(lipgloss.Color))), progress.WithoutPercentage())
	m.w = &w
	m.sessions = m.sessions.SetTheme(th)
	m.status = m.status.Note("theme " + sanitize.Line(msg.th.Name))
	if mismatch := msg.th.Mismatch(); mismatch != "" {
		m.status = m.status.Note(sanitize.Line(mismatch))
	}
	return m.layout(), nil
}
