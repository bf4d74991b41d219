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

// WithSources returns m offering, in its @ menu, src's sources with the
// files (see mentionItems).
func (m Model) WithSources(src Sources) Model {
	m.sources = src
	return m
}

// sourceItems are the sources that match typed (case aside), at most
// maxSourceItems of them, in their order within each rank: those whose
// label, or its last part (an image's file name), starts with it, then
// those whose label or detail holds it; matched counts all that match.
func sourceItems(srcs []Source, typed string) (items ranked, matched int) {
	q := strings.ToLower(typed)
	for _, s := range srcs {
		if s.Mention == "" {
			continue
		}
		l := strings.ToLower(s.Label)
		tier := 2
		switch {
		case strings.HasPrefix(l, q) || strings.HasPrefix(l[strings.LastIndexByte(l, '/')+1:], q):
			tier = 0
		case !strings.Contains(l, q) && !strings.Contains(strings.ToLower(s.Detail), q):
			continue
		}
		matched++
		items[tier] = append(items[tier], menu.Item{Label: s.Label, Detail: s.Detail, Value: s.Mention + " "})
	}
	// The first maxSourceItems, best first.
	room := maxSourceItems
	for tier := range items {
		items[tier] = items[tier][:min(len(items[tier]), room)]
		room -= len(items[tier])
	}
	return items, matched
}
