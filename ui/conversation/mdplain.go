package conversation

import (
	"strings"

	"muse/ui/mdwrap"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// A reply whose render would cost glamour more than its budget (see
// mdwrap.Meter: 640 KB of a nested list took it past 1 GB) is shown as
// plain text instead, wrapped at the width, whole or streaming.

// plain returns text, sanitized, as mdwrap.Plain lays it out, cut to the
// widths the terminal draws, without the blank lines at its ends.
func (md *markdown) plain(text string, width int) string {
	return strings.Trim(strings.Join(md.plainLines(text, width), "\n"), "\n")
}

// plainLines returns the lines of text, whole lines, shown plain.
func (md *markdown) plainLines(text string, width int) []string {
	width = max(width, 10)
	lines := mdwrap.Plain(strings.ReplaceAll(sanitize.Plain(text), "\t", "    "), width)
	for i, l := range lines {
		lines[i] = textfmt.Fit(l, width)
	}
	return lines
}

// heavy reports whether text, the stream's text so far, is to be shown
// plain: counted line by line, each finished line once (and the growing
// one each frame), as mdwrap.Heavy counts the whole. Once it is, the
// stream starts over plain and stays so.
func (s *mdStream) heavy(text string, width int) bool {
	if s.plain {
		return true
	}
	if s.meter == nil {
		s.meter = mdwrap.NewMeter(max(width, 10))
	}
	finished := strings.LastIndexByte(text, '\n') + 1
	if finished > s.metered {
		s.meter.Add(text[s.metered:finished])
		s.metered = finished
	}
	m := *s.meter
	m.Add(text[finished:])
	if !m.Heavy() {
		return false
	}
	*s = mdStream{width: s.width, live: s.live, plain: true}
	return true
}

// plainLines returns the indented lines of text shown plain: its finished
// lines once, the growing last one again each frame.
func (s *mdStream) plainLines(md *markdown, text string) []string {
	finished := strings.LastIndexByte(text, '\n') + 1
	if finished > s.stableEnd {
		for _, l := range md.plainLines(text[s.stableEnd:finished], s.width) {
			if len(s.stable) > 0 || l != "" {
				s.stable = append(s.stable, indentLine(l))
			}
		}
		s.stableEnd = finished
	}
	out := s.stable[:len(s.stable):len(s.stable)]
	if finished < len(text) {
		for _, l := range md.plainLines(text[finished:], s.width) {
			if len(out) > 0 || l != "" {
				out = append(out, indentLine(l))
			}
		}
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}
