package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"muse/api/demo"
	"muse/ui/conversation"
)

// welcomeView fills the empty conversation: the keys that matter and,
// under --demo, the words that show what muse does. It is cut to the
// conversation's height.
func (m Model) welcomeView(width, height int) string {
	st := m.th.Styles
	k := m.keys
	first := func(b key.Binding) string {
		f, _, _ := strings.Cut(b.Help().Key, "/")
		return f
	}
	lines := []string{st.HeaderTitle.Render("Welcome to muse."), ""}
	row := func(keys, what string) {
		lines = append(lines, st.Accent.Render(fmt.Sprintf("%-11s", keys))+" "+st.Muted.Render(what))
	}
	row(first(k.Send), "send · "+first(k.Newline)+" adds a line")
	row("↑ ↓", "earlier prompts")
	row("/", "commands · tab completes them")
	row(first(k.Select), "select a message to copy")
	row(first(k.Sessions), "sessions · "+first(k.New)+" a new one")
	row(first(k.Quit), "clear the input · quit")
	row(first(k.Help), "every key")
	if m.opts.Demo {
		msgs, imgs := demo.Keywords()
		lines = append(lines, "", st.Muted.Render("This is the offline demo. Put a word in a prompt to see more:"))
		lines = append(lines, wrapWords(msgs, width-conversation.BodyIndent, 3)...)
		lines = append(lines, st.Muted.Render("and with /image PROMPT:"))
		lines = append(lines, wrapWords(imgs, width-conversation.BodyIndent, 3)...)
	}
	for i, l := range lines {
		if l != "" {
			lines[i] = truncateWidth(strings.Repeat(" ", conversation.BodyIndent)+l, width)
		}
	}
	lines = append([]string{""}, lines...)
	if len(lines) > height { // a small screen: no blank lines
		kept := lines[:0]
		for _, l := range lines {
			if l != "" {
				kept = append(kept, l)
			}
		}
		lines = kept
	}
	if len(lines) > height {
		lines = lines[:height]
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}
