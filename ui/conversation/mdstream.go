package conversation

import (
	"strings"

	"muse/ui/mdwrap"
)

// innerStep is how many bytes of finished lines the tail gains before
// innerCut looks again for a place to split the open block. Smaller steps
// keep the tail shorter; larger ones render fewer, longer chunks.
var innerStep = 192

// mdStream renders a growing markdown text. Text before stableEnd is
// rendered once, in chunks, and kept as indented lines; only the tail after
// it is rendered again as the text grows. A chunk ends where the text splits
// into documents that render like the whole: at a block boundary (safeCut),
// or inside an open fence, list or quote (innerCut), where ctx tells how to
// render the rest of that block on its own.
type mdStream struct {
	width     int
	stableEnd int
	stable    []string // indented lines of the stable chunks
	// ctx is the open block stableEnd is inside of, nil at a block boundary.
	ctx *openBlock
	// tried is where the finished lines ended when innerCut last found no
	// place to split.
	tried int
	// flat turns inner splits off, after a split rendered unlike its
	// calibration said it would.
	flat bool
	// calib caches calibrate by the sentinels a split uses.
	calib map[string]calibration
	// live closes the markers left open on the unfinished last line
	// (closeOpenInline): set for a reply still streaming.
	live bool
	// meter counts glamour's work on the text up to metered; plain is set
	// once it passed its budget (see heavy, in mdplain.go).
	meter   *mdwrap.Meter
	metered int
	plain   bool
}

// lines returns the rendered, indented lines of text, reusing the stable prefix.
func (s *mdStream) lines(md *markdown, text string, width int) []string {
	if len(text) < s.stableEnd || width != s.width {
		*s = mdStream{width: width, live: s.live} // the text was replaced, not extended, or the width changed
	}
	if s.heavy(text, width) {
		return s.plainLines(text)
	}
	if b := s.ctx; b != nil && b.kind == fenceBlock {
		// Once the fence closes, check that chroma lexes its chunks as it
		// lexes the whole, which a line much later may change (a comment's
		// end); if not, render it again in one piece.
		if end := fenceEnd(text, s.stableEnd, b.fence); end >= 0 && end != b.checked {
			if md.highlights() && !checkFence(text, b, end) {
				s.uncommit()
			} else {
				b.checked = end
			}
		}
	}
	if cut := safeCut(text, s.stableEnd, s.ctx); cut > s.stableEnd {
		if !s.commit(md, text, cut, nil) {
			s.fallBack()
		}
	}
	finished := strings.LastIndexByte(text, '\n') + 1
	if !s.flat && finished >= s.stableEnd+innerStep && finished >= s.tried+innerStep {
		cut, next, same := innerCut(md, text, finished, s.stableEnd, s.ctx)
		if cut <= s.stableEnd {
			s.tried = finished
		} else {
			if b := s.ctx; same && b.kind == fenceBlock {
				next.base, next.baseLines, next.baseCtx = b.base, b.baseLines, b.baseCtx
				next.code, next.splits = b.code, b.splits
			} else {
				next.base, next.baseLines, next.baseCtx = s.stableEnd, len(s.stable), s.ctx
			}
			if next.kind == fenceBlock {
				next.splits = append(next.splits[:len(next.splits):len(next.splits)], cut)
			}
			if !s.commit(md, text, cut, next) {
				s.fallBack()
			}
		}
	}
	out := s.stable[:len(s.stable):len(s.stable)]
	var tail []string
	if t := text[s.stableEnd:]; strings.TrimSpace(t) != "" {
		if s.live && (s.ctx == nil || s.ctx.kind != fenceBlock) && !inFence(t) {
			t = closeOpenInline(t)
		}
		var ok bool
		if tail, ok = s.renderPart(md, text, t, s.ctx, nil, true); !ok {
			s.fallBack()
			return s.lines(md, text, width)
		}
	}
	if len(out) == 0 {
		tail = tail[firstNonBlank(tail):] // the text starts with its first visible line
	}
	if len(tail) == 0 {
		for len(out) > 0 && out[len(out)-1] == "" {
			out = out[:len(out)-1] // a block's blank last lines, which end the text
		}
		return out
	}
	for _, l := range tail {
		out = append(out, indentLine(l))
	}
	return out
}

// commit renders text from stableEnd to cut as a chunk that ends inside the
// open block next, or at a block boundary if next is nil, and keeps its
// lines.
func (s *mdStream) commit(md *markdown, text string, cut int, next *openBlock) bool {
	chunk := text[s.stableEnd:cut]
	if s.ctx == nil && next == nil && strings.TrimSpace(chunk) == "" {
		s.stableEnd = cut
		return true
	}
	lines, ok := s.renderPart(md, text, chunk, s.ctx, next, false)
	if !ok {
		return false
	}
	if len(s.stable) == 0 {
		lines = lines[firstNonBlank(lines):] // the text starts with its first visible line
	}
	for _, l := range lines {
		s.stable = append(s.stable, indentLine(l))
	}
	s.stableEnd, s.ctx, s.tried = cut, next, 0
	return true
}

// uncommit drops the chunks of the open fence, going back to where its
// first chunk began.
func (s *mdStream) uncommit() {
	b := s.ctx
	s.stableEnd, s.stable, s.ctx, s.tried = b.base, s.stable[:b.baseLines], b.baseCtx, 0
}

// fallBack starts over without inner splits, rendering open blocks whole as
// the text grows. It is a safety net: a split renders as its calibration
// says unless glamour changes how it lays blocks out.
func (s *mdStream) fallBack() {
	*s = mdStream{width: s.width, flat: true, live: s.live}
}

// renderPart renders src, the part of text from stableEnd, and returns the
// lines that belong to it alone, put together with the stable lines as one
// render of the text lays them out. src continues the open block lead, or
// starts at a block boundary if lead is nil, and stops inside the open block
// trail, or at a block boundary if trail is nil, or at the end of the text
// if last.
//
// At a block boundary glamour puts a blank line before the next block, and
// src's blank first and last lines are trimmed. Two kinds of block need
// more: a heading after other blocks begins with a reset, and a fence may
// begin or end with blank lines of its own. Then src goes after or before
// a sentinel paragraph, and what glamour puts between is kept, but for the
// blank line the paragraph puts before itself.
func (s *mdStream) renderPart(md *markdown, text, src string, lead, trail *openBlock, last bool) ([]string, bool) {
	after := lead == nil && strings.TrimSpace(text[:s.stableEnd]) != ""
	footed := trail == nil && !last && endsWithFence(src)
	headed := after && (footed || needsLead(src))
	doc := src
	switch {
	case lead != nil:
		doc = lead.lead + doc
	case headed:
		doc = sentinel + "\n\n" + doc
	}
	switch {
	case trail != nil:
		doc += trail.trail
	case footed:
		doc += sentinel + "\n"
	}
	raw, ok := md.renderLines(doc, s.width)
	if !ok {
		return nil, false
	}
	lo, hi := 0, len(raw)
	switch {
	case lead != nil:
		c, ok := s.calibrate(md, lead)
		if !ok || c.lead > len(raw) {
			return nil, false
		}
		lo = c.lead
		if lead.kind != fenceBlock {
			if i := firstNonBlank(raw); i >= lo || !hasSentinel(raw[i]) {
				return nil, false
			}
		}
	case headed:
		lo = firstNonBlank(raw)
		if lo == len(raw) || strings.TrimSpace(visible(raw[lo])) != sentinel {
			return nil, false
		}
		lo++
	default:
		lo = -1 // trimmed below
	}
	switch {
	case trail != nil:
		c, ok := s.calibrate(md, trail)
		if !ok {
			return nil, false
		}
		hi -= c.trail
		if trail.kind != fenceBlock && (hi < 0 || hi >= len(raw) || !hasSentinel(raw[hi])) {
			return nil, false
		}
	case footed:
		c, ok := s.calibrate(md, paraSentinel)
		hi = lastNonBlank(raw)
		if !ok || hi < 0 || strings.TrimSpace(visible(raw[hi])) != sentinel {
			return nil, false
		}
		hi -= c.lead
	default:
		for hi > max(lo, 0) && raw[hi-1] == "" {
			hi--
		}
	}
	if lo < 0 {
		lo = 0
		for lo < hi && raw[lo] == "" {
			lo++
		}
		if after && lo < hi {
			return append([]string{""}, raw[lo:hi]...), true // the blank line before a block
		}
	}
	if lo > hi {
		return nil, false
	}
	return raw[lo:hi], true
}

// needsLead reports whether markdown may start with a heading, which renders
// differently after a block, or with a fence, whose first lines may be blank.
func needsLead(src string) bool {
	first, rest, _ := strings.Cut(src, "\n")
	t := strings.TrimLeft(first, " ")
	if len(first)-len(t) > 3 {
		return false
	}
	if strings.HasPrefix(t, "#") {
		return true
	}
	second, _, finished := strings.Cut(rest, "\n")
	if fenceOpen(t) != "" {
		return finished // its first line may be blank, or it may be empty
	}
	u := strings.TrimSpace(second)
	return u != "" && (strings.Trim(u, "=") == "" || strings.Trim(u, "-") == "") // a setext underline
}

// endsWithFence reports whether the last line of markdown that is not blank
// may close a fence, which may end with blank lines of its own.
func endsWithFence(src string) bool {
	src = strings.TrimRight(src, " \t\n")
	l := strings.TrimLeft(src[strings.LastIndexByte(src, '\n')+1:], " ")
	return len(l) >= 3 && (strings.Trim(l, "`") == "" || strings.Trim(l, "~") == "")
}

// indentLine indents a rendered line as indent does.
func indentLine(l string) string {
	if l == "" {
		return l
	}
	return indent(l)
}

// safeCut returns the last position after from where text can be split
// into two markdown documents that render like the whole: the start of a
// line that follows a blank line, outside any fence, where the block before
// is not a list, a table, a quote, a definition or indented content (which
// may go on past a blank line). The line may still be growing once it holds
// a character that settles it. ctx is the open block from sits in, if any.
// It returns from when there is no such place.
func safeCut(text string, from int, ctx *openBlock) int {
	inFence := false
	fence := ""
	indented := false  // the fence is indented, maybe in a list item
	blockOpen := false // the last block may go on past a blank line
	if ctx != nil {
		blockOpen = true
		if ctx.kind == fenceBlock {
			inFence, fence = true, ctx.fence
		}
	}
	best := from
	prevBlank := false
	pos := from
	for pos < len(text) {
		end := strings.IndexByte(text[pos:], '\n')
		finished := end >= 0
		if !finished {
			end = len(text) - pos
		}
		line := text[pos : pos+end]
		next := pos + end + 1
		trimmed := strings.TrimLeft(line, " ")
		if inFence {
			if finished && closesFence(line, fence) {
				// A fence at the margin ends its block; one indented may
				// belong to a list item that goes on.
				inFence, blockOpen = false, indented
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
		if prevBlank && !blockOpen && pos > from && !strings.HasPrefix(trimmed, ":") {
			best = pos
		}
		if !finished {
			break // the last line is still growing
		}
		if f := fenceOpen(trimmed); f != "" && len(line)-len(trimmed) < 4 {
			inFence, fence, indented = true, f, trimmed != line
		}
		// A line right after a list item, a row or a quoted line may be a
		// lazy continuation of it, so the block stays open.
		blockOpen = continues(line) || blockOpen && !prevBlank
		prevBlank = false
		pos = next
	}
	return best
}

// continues reports whether a line may belong to a block that goes on past
// a blank line: list items, table rows, block quotes, definitions and
// indented lines.
func continues(line string) bool {
	if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") {
		return true
	}
	switch {
	case strings.HasPrefix(line, "- "), strings.HasPrefix(line, "* "), strings.HasPrefix(line, "+ "),
		strings.HasPrefix(line, "|"), strings.HasPrefix(line, ">"), strings.HasPrefix(line, ":"):
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
			if ch == "`" && strings.Contains(line[n:], "`") {
				return "" // a backtick fence's info string holds no backticks
			}
			return strings.Repeat(ch, n)
		}
	}
	return ""
}

// closesFence reports whether line closes a fence opened with fence: up to
// three spaces, at least as many of the same character, then only spaces.
func closesFence(line, fence string) bool {
	trimmed := strings.TrimLeft(line, " ")
	if len(line)-len(trimmed) > 3 {
		return false
	}
	n := 0
	for n < len(trimmed) && trimmed[n] == fence[0] {
		n++
	}
	return n >= len(fence) && strings.Trim(trimmed[n:], " \t") == ""
}

// fenceCloses reports whether a line of text, the last one even if it is
// still growing, closes a fence opened with fence.
func fenceCloses(text, fence string) bool {
	return fenceEnd(text, 0, fence) >= 0
}

// fenceEnd returns where the first line of text after from that closes a
// fence opened with fence starts, the last line even if it is still
// growing, or -1.
func fenceEnd(text string, from int, fence string) int {
	for pos := from; pos < len(text); {
		line, _, _ := strings.Cut(text[pos:], "\n")
		if closesFence(line, fence) {
			return pos
		}
		pos += len(line) + 1
	}
	return -1
}
