package input

import (
	"strings"

	"muse/ui/menu"
)

// Sources are what an @ mention can name besides the working folder's
// files, for the @ menu: the MCP servers' resources and the images the
// sessions generated. The screen passes them in (WithSources); the input
// asks for them in the command that walks the folder when the @ menu
// opens, never in Update, since a listing may read a folder or wait for a
// lock.
type Sources interface {
	// MentionSources lists them, each by what a mention of it writes.
	MentionSources() []Source
}

// Source is a thing an @ mention can name.
type Source struct {
	// Mention is what taking it writes, "@SERVER:URI" or "@PATH" (see
	// Mention), without the space after.
	Mention string
	// Label is what the menu shows and what typing filters, such as the
	// mention without its "@", or an image's session and file name;
	// Detail is shown beside it, dimmer ("MCP resource", "image").
	Label, Detail string
}

// maxSourceItems is how many sources the @ menu offers besides files.
const maxSourceItems = 20

// WithSources returns m offering, in its @ menu, src's sources after the
// files that match.
func (m Model) WithSources(src Sources) Model {
	m.sources = src
	return m
}

// sourceItems are the sources that match typed (case aside), at most
// maxSourceItems of them, in their order: those whose label starts with
// it, then those whose label or detail holds it; matched counts all that
// match.
func sourceItems(srcs []Source, typed string) (items []menu.Item, matched int) {
	q := strings.ToLower(typed)
	var first, then []menu.Item
	for _, s := range srcs {
		if s.Mention == "" {
			continue
		}
		l := strings.ToLower(s.Label)
		it := menu.Item{Label: s.Label, Detail: s.Detail, Value: s.Mention + " "}
		switch {
		case strings.HasPrefix(l, q):
			first = append(first, it)
		case strings.Contains(l, q) || strings.Contains(strings.ToLower(s.Detail), q):
			then = append(then, it)
		}
	}
	items = append(first, then...)
	return items[:min(len(items), maxSourceItems)], len(items)
}
