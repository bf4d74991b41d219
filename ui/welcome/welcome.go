// Package welcome draws what fills the chat screen's empty conversation:
// the keys that matter and, under --demo, the words that show what muse
// does, cut to the room. It is a pure function of the keys and the size,
// memoized by the root; it does no I/O.
package welcome

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"muse/theme"
	"muse/ui/conversation"
	"muse/ui/textfmt"
)

// KeyMap are the keys the welcome names.
type KeyMap struct {
	Send, Newline, Help, Quit, PasteImage, Sessions, New, Select key.Binding
}

// Words are the words the offline demo server knows: Prompt those to put
// in a prompt, Image those for /image.
type Words struct{ Prompt, Image []string }

// View fills the empty conversation of width and height, in st: the keys
// of k and, with demo set, its words.
func View(st *theme.Styles, k KeyMap, demo *Words, width, height int) string {
	first := func(b key.Binding) string {
		f, _, _ := strings.Cut(b.Help().Key, "/")
		return f
	}
	// The key rows, the most useful first; on a short screen the last ones
	// give way to the demo's words.
	type keyRow struct{ keys, what string }
	rows := []keyRow{
		{first(k.Send), "send · " + first(k.Newline) + " adds a line"},
		{first(k.Help), "every key"},
		{"/", "commands · tab completes them"},
		{first(k.Quit), "clear the input · twice quits"},
		{"@", "attach a file (@notes.md, tab completes) · " + first(k.PasteImage) + " an image"},
		{first(k.Sessions), "sessions · " + first(k.New) + " a new one"},
		{"↑ ↓", "earlier prompts"},
		{first(k.Select), "select a message to copy"},
	}
	var tail []string
	if d := demo; d != nil {
		tail = append(tail, "", st.Muted.Render("The offline demo: put one of these words in a prompt:"))
		tail = append(tail, balanced(d.Prompt, width-conversation.BodyIndent, 3)...)
		tail = append(tail, st.Muted.Render("and with /image PROMPT:"))
		tail = append(tail, balanced(d.Image, width-conversation.BodyIndent, 3)...)
	}
	if room := height - 1 - 2 - len(tail); room < len(rows) { // the title with a blank line after it, and the tail
		rows = rows[:max(room, 3)]
	}
	order := map[string]int{}
	for i, r := range []string{first(k.Send), "↑ ↓", "/", "@", first(k.Select), first(k.Sessions), first(k.Quit), first(k.Help)} {
		order[r] = i
	}
	slices.SortStableFunc(rows, func(a, b keyRow) int { return order[a.keys] - order[b.keys] })
	lines := []string{st.HeaderTitle.Render("Welcome to muse."), ""}
	for _, r := range rows {
		lines = append(lines, st.Accent.Render(fmt.Sprintf("%-11s", r.keys))+" "+st.Muted.Render(r.what))
	}
	lines = append(lines, tail...)
	for i, l := range lines {
		if l != "" {
			lines[i] = textfmt.TruncateWidth(strings.Repeat(" ", conversation.BodyIndent)+l, width)
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

// balanced wraps words as textfmt.WrapWords does, on at most maxLines
// lines, made as even as they can be: wrapped at the narrowest width that
// needs no more lines, so that no word is left alone on the last.
func balanced(words []string, width, maxLines int) []string {
	all := len(words)
	lines := textfmt.WrapWords(words, width, maxLines)
	n := len(textfmt.WrapWords(words, width, all))
	if n <= 1 || n > maxLines {
		return lines
	}
	for w := width - 1; w > 0; w-- {
		l := textfmt.WrapWords(words, w, all)
		if len(l) != n {
			break
		}
		lines = l
	}
	return lines
}
