package cli

import (
	"bytes"
	"io"
	"strings"

	"github.com/charmbracelet/glamour"
	"github.com/charmbracelet/glamour/ansi"
	"github.com/muesli/termenv"

	"muse/api"
	"muse/ui/mdwrap"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// mdOut prints the text of the replies of a turn as markdown rendered by
// glamour, for -p on a terminal. It prints each block once, as soon as it
// is complete: the text is cut only where what comes before renders the
// same on its own (see blockScan), so nothing printed is ever rendered
// again, and only the last, unfinished block waits for more text. It keeps
// only that text, and looks at each byte of the reply a bounded number of
// times. The rendering is sanitized, since glamour turns entities like
// &#27; into raw escapes.
type mdOut struct {
	w      io.Writer
	render func(md string) string
	// plain shows text too heavy for glamour (see mdwrap.Meter), and
	// meter counts the reply's blocks to find out.
	plain func(md string) string
	meter mdwrap.Meter
	width int

	text    replyText
	pending []byte    // the reply's text not yet rendered
	scan    blockScan // how far pending was looked at for a place to cut
	printed bool
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
		shielded, sh := textfmt.Shield(sanitize.Plain(md))
		out, err := r.Render(mdwrap.Words(shielded, style, width))
		if err != nil {
			return sanitize.Text(md)
		}
		return tidyRendered(textfmt.Fit(sanitize.Text(sh.Restore(out)), width))
	}, plain: plainText(width), width: width}, nil
}

// plainText returns how -p shows a reply too heavy for glamour, as the
// chat screen does (see mdwrap.Plain).
func plainText(width int) func(md string) string {
	return func(md string) string {
		return strings.Trim(strings.Join(mdwrap.Plain(md, width), "\n"), "\n")
	}
}

func (o *mdOut) start() {
	o.text, o.pending, o.scan = replyText{}, o.pending[:0], blockScan{}
	o.meter = *mdwrap.NewMeter(o.width)
}

func (o *mdOut) event(ev api.Event) {
	s := o.text.add(ev)
	if s == "" {
		return
	}
	o.pending = append(o.pending, s...)
	if cut := o.scan.next(o.pending); cut > 0 {
		o.block(string(o.pending[:cut]))
		// What is left is the lines this text finished and the one still
		// growing, so each byte is moved here at most twice.
		o.pending = append(o.pending[:0], o.pending[cut:]...)
		o.scan.pos -= cut
	}
}

func (o *mdOut) end() {
	o.block(string(o.pending))
	o.pending, o.scan = o.pending[:0], blockScan{}
}

// block renders one or more complete blocks of markdown and prints them,
// a blank line after what came before.
func (o *mdOut) block(md string) {
	if strings.TrimSpace(md) == "" {
		return
	}
	// The reply's blocks are counted as one text: once it is too heavy
	// for glamour, it and every block after it print plain.
	o.meter.Add(md)
	render := o.render
	if o.meter.Heavy() && o.plain != nil {
		render = o.plain
	}
	out := render(md)
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
	return mdwrap.TrimLines(strings.ReplaceAll(s, "\t", "    "))
}

// blockScan finds where a growing markdown text can be cut in two
// documents that render as the whole does: the start of a complete line
// that follows a blank line, outside a fenced code block, where the block
// before cannot go on past the blank line (as a list, a table, a block
// quote or indented code can). It remembers how far it looked, so the text
// is looked at once however it grows.
type blockScan struct {
	pos       int    // the start of the first line not looked at yet
	seen      int    // bytes after pos known to hold no newline
	fence     string // the marker of the open code fence, if any
	blank     bool   // the line before pos was blank
	openBlock bool   // the last line of text before a blank one may go on after it
	looked    int    // bytes looked at in all, which tests hold to the text's length
}

// next looks at the lines of text completed since it last looked (text
// only grows between calls, except by the cuts taken off its start, which
// the caller takes off pos too) and returns the last place to cut among
// them, or 0 when there is none.
func (s *blockScan) next(text []byte) int {
	cut := 0
	for {
		nl := bytes.IndexByte(text[s.pos+s.seen:], '\n')
		if nl < 0 {
			s.looked += len(text) - s.pos - s.seen
			s.seen = len(text) - s.pos // the last line may still grow
			return cut
		}
		s.looked += nl + 1
		line := text[s.pos : s.pos+s.seen+nl]
		trimmed := bytes.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		switch {
		case s.fence != "":
			if indent < 4 && bytes.HasPrefix(trimmed, []byte(s.fence)) && len(bytes.TrimSpace(bytes.TrimLeft(trimmed, s.fence[:1]))) == 0 {
				s.fence, s.openBlock = "", false
			}
			s.blank = false
		case len(bytes.TrimSpace(line)) == 0:
			s.blank = true
		default:
			if s.blank && !s.openBlock {
				cut = s.pos
			}
			if m := fenceMarker(trimmed); m != "" && indent < 4 {
				s.fence = m
			}
			s.openBlock = mayContinue(line)
			s.blank = false
		}
		s.pos, s.seen = s.pos+len(line)+1, 0
	}
}

// fenceMarker returns the run of three or more backticks or tildes that
// opens a fenced code block on line, or "".
func fenceMarker(line []byte) string {
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
	return string(line[:n])
}

// mayContinue reports whether line may belong to a block that goes on past
// a blank line: an item of a list, a table row, a block quote, or indented
// text.
func mayContinue(line []byte) bool {
	if len(line) == 0 {
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
