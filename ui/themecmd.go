package ui

import (
	"github.com/charmbracelet/bubbles/progress"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"muse/ui/themes"
)

// themeLoaded switches to the theme of msg, or says why it cannot: a bad
// theme file names its line and what was expected, and the theme on stays.
func (m Model) themeLoaded(msg themes.LoadedMsg) (tea.Model, tea.Cmd) {
	if msg.Err != nil {
		m.status = m.status.Note(msg.Notice())
		return m.layout(), nil
	}
	// From the next frame the whole screen is drawn in the new theme:
	// every part that copied a style from the theme takes its, and every
	// render cached by what it shows (and not by its colours) is dropped:
	// the conversation's renders by entry and width, its markdown
	// renderers by width, the input's and the frame's memos.
	th := msg.Theme
	c := *m.common // shared by the model's copies: changed in a copy of its own
	c.th = th
	m.common = &c
	m.conv = m.conv.SetTheme(th)
	m.comp = m.comp.SetStyles(th)
	*m.memo = viewMemo{}
	st := th.Styles
	w := *m.w
	w.spin.Style = st.Spinner
	w.help = w.help.SetStyles(&th.Styles)
	w.progress = progress.New(progress.WithWidth(w.progress.Width), progress.WithSolidFill(string(st.Accent.GetForeground().(lipgloss.Color))), progress.WithoutPercentage())
	m.w = &w
	m.sessions = m.sessions.SetTheme(th)
	m.status = m.status.Note(msg.Notice())
	return m.layout(), nil
}
