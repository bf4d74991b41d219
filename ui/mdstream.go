package ui

import (
	"strings"
)

// mdStream renders a growing markdown text. Text before the last safe block
// boundary is rendered once, in chunks, and kept as indented lines; only the
// tail after it is rendered again as the text grows.
type mdStream struct {
	stableEnd int
	stable    []string // indented lines of the stable chunks, a blank line apart
}

// lines returns the rendered, indented lines of text, reusing the stable prefix.
func (s *mdStream) lines(md *markdown, text string, width int) []string {
	if len(text) < s.stableEnd {
		*s = mdStream{} // the text was replaced, not extended
	}
	if cut := safeCut(text, s.stableEnd); cut > s.stableEnd {
		if chunk := text[s.stableEnd:cut]; strings.TrimSpace(chunk) != "" {
			s.stable = appendBlock(s.stable, md.render(chunk, width))
		}
		s.stableEnd = cut
	}
	out := s.stable[:len(s.stable):len(s.stable)]
	if tail := text[s.stableEnd:]; strings.TrimSpace(tail) != "" {
		out = appendBlock(out, md.render(tail, width))
	}
	return out
}

// render returns the rendered text as one string, for tests.
func (s *mdStream) render(md *markdown, text string, width int) string {
	return strings.Join(s.lines(md, text, width), "\n")
}

// appendBlock adds a rendered block's indented lines, a blank line after
// what is there.
func appendBlock(lines []string, rendered string) []string {
	if len(lines) > 0 {
		lines = append(lines, "")
	}
	return append(lines, strings.Split(indent(rendered), "\n")...)
}

// safeCut returns the last position at or after from where text can be split
// into two markdown documents that render like the whole: the start of a
// finished line that follows a blank line, outside any fence, where the block
// before is not a list, a table, a quote or indented content (which may go on
// past a blank line). It returns from when there is no such place.
func safeCut(text string, from int) int {
	best := from
	inFence := false
	fence := ""
	prevBlank := false
	lastBlockOpen := false // the last non-blank line before the blank belongs to a list, table or quote
	pos := from
	for pos < len(text) {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			break // the last line is still growing
		}
		line := text[pos : pos+end]
		next := pos + end + 1
		trimmed := strings.TrimLeft(line, " ")
		if inFence {
			if strings.HasPrefix(trimmed, fence) && strings.TrimSpace(trimmed[len(fence):]) == "" {
				inFence = false
				lastBlockOpen = false
			}
			prevBlank = false
			pos = next
			continue
		}
		if strings.TrimSpace(line) == "" {
			prevBlank = true
			pos = next
			continue
		}
		if prevBlank && !lastBlockOpen && pos > from {
			best = pos
		}
		if f := fenceOpen(trimmed); f != "" && len(line)-len(trimmed) < 4 {
			inFence, fence = true, f
		}
		lastBlockOpen = continues(line)
		prevBlank = false
		pos = next
	}
	return best
}

// continues reports whether a line may belong to a block that goes on past
// a blank line: list items, table rows, block quotes and indented lines.
func continues(line string) bool {
	if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") {
		return true
	}
	switch {
	case strings.HasPrefix(line, "- "), strings.HasPrefix(line, "* "), strings.HasPrefix(line, "+ "),
		strings.HasPrefix(line, "|"), strings.HasPrefix(line, ">"):
		return true
	}
	// Ordered list items: digits then ". " or ") ".
	i := 0
	for i < len(line) && i < 10 && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(line) && (line[i] == '.' || line[i] == ')') && line[i+1] == ' '
}

// fenceOpen returns the fence marker if line opens a fenced code block.
func fenceOpen(line string) string {
	for _, ch := range []string{"`", "~"} {
		n := 0
		for n < len(line) && line[n] == ch[0] {
			n++
		}
		if n >= 3 {
			return strings.Repeat(ch, n)
		}
	}
	return ""
}
