package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"muse/session"
	"muse/ui/input"
	"muse/ui/mcp"
)

// The @ menu lists, besides the working folder's files, the MCP servers'
// resources and the images the sessions generated: mentionSources gives
// them to the input (input.Sources), which asks in the command that walks
// the folder.

// Bounds of the images listed: the newest sessions' folders read, and the
// images taken from them.
const (
	maxImageSessions = 100
	maxMenuImages    = 50
)

// mentionSources lists the sources of the @ menu.
type mentionSources struct {
	mcp   *mcp.Manager   // nil without MCP servers
	store *session.Store // where the images are; nil for none
}

// newMentionSources lists the resources of opts' MCP servers and the
// images of its store (ImageStore with --no-save).
func newMentionSources(opts Options) mentionSources {
	s := mentionSources{mcp: opts.MCP, store: opts.Store}
	if s.store == nil {
		s.store = opts.ImageStore
	}
	return s
}

// MentionSources lists the MCP resources, then the generated images,
// newest first.
func (s mentionSources) MentionSources() []input.Source {
	var out []input.Source
	if s.mcp != nil {
		for _, r := range s.mcp.Resources() {
			detail := "MCP resource"
			if r.Name != "" && r.Name != r.URI {
				detail = r.Name + " · " + detail
			}
			out = append(out, input.Source{Mention: r.Mention, Label: strings.TrimPrefix(r.Mention, "@"), Detail: detail})
		}
	}
	if s.store != nil {
		out = append(out, generatedImages(s.store.ImagesDir())...)
	}
	return out
}

// generatedImages lists the images under root, one folder a session: the
// newest sessions first (their ids begin with the time they started), the
// images of each newest first, at most maxMenuImages from at most
// maxImageSessions folders.
func generatedImages(root string) []input.Source {
	dirs, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	slices.Reverse(dirs) // ReadDir sorts by name
	var out []input.Source
	for i, d := range dirs {
		if i == maxImageSessions || len(out) >= maxMenuImages {
			break
		}
		if !d.IsDir() {
			continue
		}
		files, err := os.ReadDir(filepath.Join(root, d.Name()))
		if err != nil {
			continue
		}
		slices.SortFunc(files, func(a, b os.DirEntry) int { return imageOrder(b.Name()) - imageOrder(a.Name()) })
		for _, f := range files {
			if len(out) >= maxMenuImages {
				break
			}
			switch strings.ToLower(filepath.Ext(f.Name())) {
			case ".png", ".jpg", ".jpeg", ".webp":
			default:
				continue
			}
			mention := input.Mention(filepath.Join(root, d.Name(), f.Name()))
			if mention == "" || !f.Type().IsRegular() {
				continue
			}
			out = append(out, input.Source{Mention: mention, Label: d.Name() + "/" + f.Name(), Detail: "generated image"})
		}
	}
	return out
}

// imageOrder is the turn and index a saved image's name holds
// (turn-T-image-I-TAG.EXT) as one number, later turns larger; 0 for a
// name of another shape.
func imageOrder(name string) int {
	var turn, index int
	rest, ok := strings.CutPrefix(name, "turn-")
	if !ok {
		return 0
	}
	t, rest, _ := strings.Cut(rest, "-image-")
	i, _, _ := strings.Cut(rest, "-")
	for _, c := range t {
		if c < '0' || c > '9' || turn > 1e6 {
			return 0
		}
		turn = turn*10 + int(c-'0')
	}
	for _, c := range i {
		if c < '0' || c > '9' || index > 1e3 {
			return 0
		}
		index = index*10 + int(c-'0')
	}
	return turn*10000 + index
}
