package ui

import (
	"strings"

	"github.com/charmbracelet/glamour"
	"github.com/charmbracelet/glamour/ansi"
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

// trimLines drops the padding glamour adds at line ends (plain or styled
// spaces), empties lines that hold only escape codes, and drops blank lines
// at both ends.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = trimRightStyled(l)
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

// trimRightStyled cuts a line after its last visible character that is not a
// space, dropping the spaces and SGR codes after it, and closes any style
// with a reset.
func trimRightStyled(l string) string {
	if strings.IndexByte(l, 0x1b) < 0 {
		return strings.TrimRight(l, " ")
	}
	end := 0
	for i := 0; i < len(l); {
		if l[i] == 0x1b && i+1 < len(l) && l[i+1] == '[' {
			j := i + 2
			for j < len(l) && (l[j] < 0x40 || l[j] > 0x7e) {
				j++
			}
			i = j + 1
			continue
		}
		if l[i] != ' ' {
			end = i + 1
			for end < len(l) && l[end]&0xc0 == 0x80 { // the rest of a UTF-8 rune
				end++
			}
			i = end
			continue
		}
		i++
	}
	if end == 0 {
		return ""
	}
	return l[:end] + "\x1b[0m"
}
