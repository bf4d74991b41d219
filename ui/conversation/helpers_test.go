package conversation

import "strings"

// settle returns the lines of text, which is final: a fence left open at its
// end is rendered whole if chroma lexes it whole unlike in its chunks. lines
// renders a fence again once it closes; a reply cut off inside one needs
// this call to look exactly as a whole render would.
func (s *mdStream) settle(md *markdown, text string, width int) []string {
	out := s.lines(md, text, width)
	if b := s.ctx; b != nil && b.kind == fenceBlock && b.checked < 0 && md.highlights() && !checkFence(text, b, len(text)) {
		s.uncommit()
		s.tried = len(text) // no splitting it again
		out = s.lines(md, text, width)
	}
	return out
}

// render returns the rendered text as one string, for tests.
func (s *mdStream) render(md *markdown, text string, width int) string {
	return strings.Join(s.lines(md, text, width), "\n")
}
