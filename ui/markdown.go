package ui

import (
	"strings"

	"github.com/charmbracelet/glamour"
	"github.com/charmbracelet/glamour/ansi"
	xansi "github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"muse/ui/sanitize"
)

// markdown renders markdown with glamour. It builds one renderer per width
// with a fixed style, and never asks the terminal anything.
type markdown struct {
	style     ansi.StyleConfig
	profile   termenv.Profile
	renderers map[int]*glamour.TermRenderer
}

func newMarkdown(style ansi.StyleConfig, profile termenv.Profile) *markdown {
	return &markdown{style: style, profile: profile, renderers: map[int]*glamour.TermRenderer{}}
}

// render returns text as terminal markdown, wrapped at width. Its output is
// sanitized, because glamour turns entities like &#27; into raw escapes.
func (md *markdown) render(text string, width int) string {
	width = max(width, 10)
	r, ok := md.renderers[width]
	if !ok {
		var err error
		r, err = glamour.NewTermRenderer(
			glamour.WithStyles(md.style),
			glamour.WithWordWrap(width),
			glamour.WithColorProfile(md.profile),
		)
		if err != nil {
			return sanitize.Text(text)
		}
		md.renderers[width] = r
	}
	out, err := r.Render(text)
	if err != nil {
		return sanitize.Text(text)
	}
	return trimLines(strings.ReplaceAll(sanitize.Text(out), "\t", "    "))
}

// trimLines drops the padding glamour adds at line ends, empties lines that
// hold only escape codes, and drops blank lines at both ends.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		l = strings.TrimRight(l, " ")
		if strings.IndexByte(l, 0x1b) >= 0 && strings.TrimSpace(xansi.Strip(l)) == "" {
			l = ""
		}
		lines[i] = l
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}
