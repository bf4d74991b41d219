package session

import (
	"strings"
	"unicode"
)

// Untitled is the title of a session that has none.
const Untitled = "untitled"

// maxTitleRunes is the longest title TitleFrom returns, ellipsis included.
const maxTitleRunes = 48

// TitleFrom returns a short title for a session from its first prompt: the
// first non-empty line with its whitespace collapsed, cut at a word boundary
// to at most 48 runes ending in "…" when cut. Control characters and bidi
// overrides, which could disturb a terminal, are removed. An empty prompt
// gives "untitled".
func TitleFrom(prompt string) string {
	for line := range strings.SplitSeq(prompt, "\n") {
		if t := strings.Join(strings.Fields(strings.Map(titleRune, line)), " "); t != "" {
			return shorten(t, maxTitleRunes)
		}
	}
	return Untitled
}

// titleRune maps control characters to spaces and drops bidi controls.
func titleRune(r rune) rune {
	switch {
	case unicode.IsControl(r):
		return ' '
	case unicode.Is(unicode.Bidi_Control, r):
		return -1
	}
	return r
}

// shorten cuts s, whose words are separated by single spaces, to at most max
// runes, ellipsis included, preferring to end at a word boundary.
func shorten(s string, max int) string {
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	limit := max - 1 // room for the ellipsis
	cut := limit
	if r[limit] != ' ' { // a word runs across the limit: end before it
		for i := limit - 1; i > limit/2; i-- {
			if r[i] == ' ' {
				cut = i
				break
			}
		}
	}
	return strings.TrimRight(string(r[:cut]), " ,;:") + "…"
}

// info returns what a session list shows of sess.
func (sess *Session) info() Info {
	info := Info{
		ID:      sess.ID,
		Title:   sess.Title,
		Created: sess.Created,
		Updated: sess.Updated,
		Model:   sess.Params.Model,
	}
	if info.Title == "" {
		info.Title = Untitled
	}
	for _, e := range sess.Entries {
		if e.Kind == KindUser || e.Kind == KindAssistant || e.Kind == KindImage {
			info.Messages++
		}
	}
	return info
}

// CleanTitle returns title as Rename keeps it: one line without control
// characters, whitespace collapsed, at most 200 runes.
func CleanTitle(title string) string { return cleanTitle(title) }

// maxRenameRunes is the longest title Rename keeps.
const maxRenameRunes = 200

// cleanTitle makes title one line without control characters or bidi
// controls, with its whitespace collapsed and at most maxRenameRunes runes.
func cleanTitle(title string) string {
	t := strings.Join(strings.Fields(strings.Map(titleRune, title)), " ")
	if r := []rune(t); len(r) > maxRenameRunes {
		t = strings.TrimRight(string(r[:maxRenameRunes]), " ")
	}
	return t
}
