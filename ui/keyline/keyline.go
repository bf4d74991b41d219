// Package keyline fits a line of key help to the screen's width. Bubbles'
// help cuts a line that is too long with "…", which loses its last key,
// the one that opens the full help (? help, ? more); Fit drops keys from
// the middle instead, so that the first ones and the last one stay.
package keyline

import (
	"slices"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"

	"muse/ui/textfmt"
)

// Fit returns the enabled bindings of keys that fit in width when h
// draws them on one line: those before the last are dropped from the end
// until the line fits, and the last is always kept. At most the first and
// the last are left, even when they do not fit.
func Fit(h help.Model, keys []key.Binding, width int) []key.Binding {
	h.Width = 0 // measure the whole line: h would cut it itself
	out := slices.DeleteFunc(slices.Clone(keys), func(b key.Binding) bool { return !b.Enabled() })
	for len(out) > 2 && textfmt.Width(h.ShortHelpView(out)) > width {
		out = slices.Delete(out, len(out)-2, len(out)-1)
	}
	return out
}
