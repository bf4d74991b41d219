package cli

import (
	"io"
	"strings"

	"github.com/charmbracelet/glamour"
	"github.com/charmbracelet/glamour/ansi"
	"github.com/muesli/termenv"

	"muse/api"
	"muse/ui/mdwrap"
	"muse/ui/sanitize"
)

// mdOut prints the text of the replies of a turn as markdown rendered by
// glamour, for -p on a terminal. It prints each block once, as soon as it
// is complete: the text is cut only where what comes before renders the
// same on its own (see blockEnd), so nothing printed is ever rendered
// again, and only the last, unfinished block waits for more text. The
// rendering is sanitized, since glamour turns entities like &#27; into
// raw escapes.
type mdOut struct {
	w      io.Writer
	render func(md string) string

	acc     api.Accumulator
	done    int // bytes of the reply's text rendered and printed
	printed bool
	saveErr error
}

// newMDOut returns an mdOut that writes to w, wrapping at width columns,
// with glamour's style and the colour profile. It never asks the terminal
// anything: glamour's automatic style would.
func newMDOut(w io.Writer, style ansi.StyleConfig, profile termenv.Profile, width int) (*mdOut, error) {
	r, err := glamour.NewTermRenderer(
		glamour.WithStyles(style),
		glamour.WithWordWrap(width),
		glamour.WithColorProfile(profile),
	)
	if err != nil {
		return nil, err
	}
	return &mdOut{w: w, render: func(md string) string {
		// As on the chat screen (ui/conversation/markdown.go): escapes out
		// before glamour too, and words wider than a line broken.
		out, err := r.Render(mdwrap.Words(sanitize.Plain(md), style, width))
		if err != nil {
			return sanitize.Text(md)
		}
		return tidyRendered(sanitize.Text(out))
	}}, nil
}

func (o *mdOut) start() {
	o.acc, o.done = api.Accumulator{}, 0
}

func (o *mdOut) event(ev api.Event) {
	_ = o.acc.Add(ev)
	switch ev.Type {
	case api.EventContentBlockDelta, api.EventContentBlockStart:
	default:
		return
	}
	text := o.acc.Message().Text()
	if len(text) < o.done {
		o.done = 0 // the text was replaced, not extended
	}
	if cut := blockEnd(text, o.done); cut > o.done {
		o.block(text[o.done:cut])
		o.done = cut
	}
}

func (o *mdOut) end() {
	text := o.acc.Message().Text()
	if len(text) > o.done {
		o.block(text[o.done:])
		o.done = len(text)
	}
}

// block renders one or more complete blocks of markdown and prints them,
// a blank line after what came before.
func (o *mdOut) block(md string) {
	if strings.TrimSpace(md) == "" {
		return
	}
	out := o.render(md)
	if out == "" {
		return
	}
	if o.printed {
		io.WriteString(o.w, "\n")
	}
	io.WriteString(o.w, out+"\n")
	o.printed = true
}

// tidyRendered drops the blank lines glamour puts around a document and
// the spaces it pads each line with to the wrap width, styled or not, and
// turns tabs (in code) into four spaces, whose width is known.
func tidyRendered(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\t", "    "), "\n")
	for i, l := range lines {
		lines[i] = trimPadding(l)
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

// trimPadding cuts a line after its last visible character that is not a
// space, dropping the spaces and SGR sequences after it; a line that was
// styled ends with a reset.
func trimPadding(l string) string {
	if !strings.Contains(l, "\x1b[") {
		return strings.TrimRight(l, " ")
	}
	keep, styled := 0, false
	for i := 0; i < len(l); {
		if l[i] == 0x1b && i+1 < len(l) && l[i+1] == '[' {
			j := i + 2
			for j < len(l) && (l[j] < 0x40 || l[j] > 0x7e) {
				j++
			}
			i, styled = j+1, true
			continue
		}
		if l[i] == ' ' {
			i++
			continue
		}
		i++
		for i < len(l) && l[i]&0xc0 == 0x80 { // the rest of a UTF-8 character
			i++
		}
		keep = i
	}
	if keep == 0 {
		return ""
	}
	if styled {
		return l[:keep] + "\x1b[0m"
	}
	return l[:keep]
}

// blockEnd returns the last place at or after from where text can be cut in
// two markdown documents that render as the whole does: the start of a
// complete line that follows a blank line, outside a fenced code block,
// where the block before cannot go on past the blank line (as a list, a
// table, a block quote or indented code can). It returns from when there
// is no such place yet.
func blockEnd(text string, from int) int {
	cut := from
	var fence string   // the marker of the open code fence, if any
	blank := false     // the line before was blank
	openBlock := false // the last line of text before a blank one may go on after it
	for pos := from; ; {
		nl := strings.IndexByte(text[pos:], '\n')
		if nl < 0 {
			return cut // the last line may still grow
		}
		line, next := text[pos:pos+nl], pos+nl+1
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		switch {
		case fence != "":
			if indent < 4 && strings.HasPrefix(trimmed, fence) && strings.TrimSpace(strings.TrimLeft(trimmed, fence[:1])) == "" {
				fence, openBlock = "", false
			}
			blank = false
		case strings.TrimSpace(line) == "":
			blank = true
		default:
			if blank && !openBlock && pos > from {
				cut = pos
			}
			if m := fenceMarker(trimmed); m != "" && indent < 4 {
				fence = m
			}
			openBlock = mayContinue(line)
			blank = false
		}
		pos = next
	}
}

// fenceMarker returns the run of three or more backticks or tildes that
// opens a fenced code block on line, or "".
func fenceMarker(line string) string {
	if len(line) < 3 || (line[0] != '`' && line[0] != '~') {
		return ""
	}
	n := 0
	for n < len(line) && line[n] == line[0] {
		n++
	}
	if n < 3 {
		return ""
	}
	return line[:n]
}

// mayContinue reports whether line may belong to a block that goes on past
// a blank line: an item of a list, a table row, a block quote, or indented
// text.
func mayContinue(line string) bool {
	if line == "" {
		return false
	}
	switch line[0] {
	case ' ', '\t', '|', '>':
		return true
	case '-', '*', '+':
		return len(line) > 1 && line[1] == ' '
	}
	digits := 0
	for digits < len(line) && digits < 10 && line[digits] >= '0' && line[digits] <= '9' {
		digits++
	}
	return digits > 0 && digits+1 < len(line) && (line[digits] == '.' || line[digits] == ')') && line[digits+1] == ' '
}
