package input

import (
	"muse/theme"
	"muse/ui/textfmt"
)

// SetTheme draws the input in th from the next frame: its memoized drawing,
// keyed by what it shows and not by its colours, is dropped.
func (m Model) SetTheme(th *theme.Theme) Model {
	m.th, m.memo = th, &textfmt.Memo{}
	return m
}
