package conversation

import (
	"strings"

	"muse/ui/mdwrap"
)

// A reply whose render would cost glamour more than its budget (see
// mdwrap.Meter: 640 KB of a nested list took it past 1 GB) is shown as
// plain text instead, wrapped at the width, whole or streaming.

// plain returns text shown plain (see mdwrap.Plain), without the blank
// lines at its ends.
func (md *markdown) plain(text string, width int) string {
	return strings.Trim(strings.Join(mdwrap.Plain(text, max(width, 10)), "\n"), "\n")
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
func (s *mdStream) plainLines(text string) []string {
	finished := strings.LastIndexByte(text, '\n') + 1
	if finished > s.stableEnd {
		s.stable = s.appendPlain(s.stable, text[s.stableEnd:finished])
		s.stableEnd = finished
	}
	out := s.stable[:len(s.stable):len(s.stable)]
	if finished < len(text) {
		out = s.appendPlain(out, text[finished:])
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// appendPlain appends to out the indented lines of text shown plain, less
// the blank ones before out's first line.
func (s *mdStream) appendPlain(out []string, text string) []string {
	for _, l := range mdwrap.Plain(text, max(s.width, 10)) {
		if len(out) > 0 || l != "" {
			out = append(out, indentLine(l))
		}
	}
	return out
}
