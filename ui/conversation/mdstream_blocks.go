package conversation

import (
	"strconv"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/yuin/goldmark/ast"

	"muse/ui/mdwrap"
)

// This file splits the open block at the end of a streaming text: a fenced
// code block between lines, a list between its items, a block quote before
// a paragraph. A chunk that stops inside a block is rendered with a trail
// appended that closes it the way the rest of the text would (a closing
// fence, or a one-word sentinel item or paragraph), and the rest is rendered
// with a lead put before it that opens the block again (the fence's opening
// line, or a sentinel item or paragraph). calibrate measures once how many
// lines the lead and the trail take, so the rendered lines can be put
// together exactly as one render of the whole text lays them out.
//
// Glamour lays out lists, quotes and code blocks line by line: wrapping,
// margins and indentation act on each line, and every styled run is reset
// before a line ends, so a line renders the same whatever comes after it.
// What a sibling contributes depends only on its own kind: an item's bullet,
// a paragraph's blank line. The sentinels are of the same kind as the
// sibling they stand for, so a split renders like the whole. Tables are not
// split: glamour sizes their columns from all their rows, so an open table
// is rendered whole until it ends.
//
// Chroma lexers mostly read code a line at a time, but not always: a string
// or comment may span lines. A fence is split only where lexing the next
// lines afresh gives the same tokens as lexing on from the chunk's start.
// That cannot see a comment whose end comes much later, so once the fence
// closes checkFence lexes it whole and in its chunks, and if the tokens
// differ the fence is rendered again in one piece.

// blockKind is the kind of an open block a chunk may end in.
type blockKind int

const (
	fenceBlock blockKind = iota + 1
	listBlock
	quoteBlock
	paraBlock // not a split: the sentinel paragraph around chunks at block boundaries
)

// paraSentinel calibrates the blank line a paragraph puts before itself.
var paraSentinel = &openBlock{kind: paraBlock, lead: sentinel + "\n\n", trail: sentinel + "\n"}

// sentinel is the word that stands in for an item or a paragraph.
const sentinel = "S"

// openBlock is an open block at a split, and how to render either side.
type openBlock struct {
	kind  blockKind
	lead  string // markdown before the rest of the block, to open it again
	trail string // markdown after a chunk, to close the block there
	fence string // the fence marker, for fences
	// base and baseLines are where a fence's first chunk began in the text
	// and in the stable lines, and baseCtx the open block there: a fence
	// that does not close as it was split goes back there.
	base, baseLines int
	baseCtx         *openBlock
	// code is where a fence's code begins in the text, splits where it was
	// split, and checked where it closed when checkFence last found that
	// its pieces lex as the whole.
	code    int
	splits  []int
	lang    string
	checked int
}

// calibration is how many lines a lead takes at the start of a render and a
// trail at its end.
type calibration struct{ lead, trail int }

// calibrate renders the lead, a probe of the block's kind and the trail, and
// measures them, once per lead and trail.
func (s *mdStream) calibrate(md *markdown, b *openBlock) (calibration, bool) {
	key := b.lead + "\x00" + b.trail
	if c, ok := s.calib[key]; ok {
		return c, true
	}
	var probe string
	switch b.kind {
	case paraBlock:
		probe = ""
	case fenceBlock:
		probe = sentinel + "\n"
	case listBlock:
		probe = b.trail
	case quoteBlock:
		probe = b.trail + strings.TrimSuffix(b.trail, sentinel+"\n") + "\n"
	}
	raw, ok := md.renderLines(b.lead+probe+b.trail, s.width)
	if !ok {
		return calibration{}, false
	}
	var marks []int
	for i, l := range raw {
		if b.kind == fenceBlock || b.kind == paraBlock {
			if strings.TrimSpace(visible(l)) == sentinel {
				marks = append(marks, i)
			}
		} else if hasSentinel(l) {
			marks = append(marks, i)
		}
	}
	var c calibration
	switch {
	case b.kind == paraBlock && len(marks) == 2:
		c = calibration{lead: marks[1] - marks[0] - 1} // a paragraph's own line comes after its blank one
	case b.kind == paraBlock:
		return calibration{}, false
	case b.kind == fenceBlock && len(marks) == 1:
		c = calibration{lead: marks[0], trail: len(raw) - marks[0] - 1}
	case b.kind != fenceBlock && b.kind != paraBlock && len(marks) == 3:
		c = calibration{lead: marks[1], trail: len(raw) - marks[2]}
	default:
		return calibration{}, false
	}
	if s.calib == nil {
		s.calib = map[string]calibration{}
	}
	s.calib[key] = c
	return c, true
}

// hasSentinel reports whether a rendered line shows a sentinel item or
// paragraph.
func hasSentinel(l string) bool {
	return strings.HasSuffix(strings.TrimSpace(visible(l)), " "+sentinel)
}

// firstNonBlank returns the index of the first line that is not empty.
func firstNonBlank(lines []string) int {
	for i, l := range lines {
		if l != "" {
			return i
		}
	}
	return len(lines)
}

// lastNonBlank returns the index of the last line that is not empty, or -1.
func lastNonBlank(lines []string) int {
	for i := len(lines) - 1; i >= 0; i-- {
		if lines[i] != "" {
			return i
		}
	}
	return -1
}

// visible returns a rendered line without its SGR sequences.
func visible(l string) string {
	if strings.IndexByte(l, 0x1b) < 0 {
		return l
	}
	var b strings.Builder
	for i := 0; i < len(l); i++ {
		if l[i] == 0x1b && i+1 < len(l) && l[i+1] == '[' {
			j := i + 2
			for j < len(l) && (l[j] < 0x40 || l[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(l[i])
	}
	return b.String()
}

// innerCut returns the last place after from where text can be split
// inside its last block, and that block, or from if there is none, and
// whether the block is ctx, the open block from sits in, if any. It looks
// only at the lines of text before finished, which end with a line break.
func innerCut(md *markdown, text string, finished, from int, ctx *openBlock) (int, *openBlock, bool) {
	lead := ""
	if ctx != nil {
		lead = ctx.lead
	}
	src := lead + text[from:finished]
	doc := mdwrap.Parse([]byte(src))
	var cut int
	var next *openBlock
	same := ctx != nil && doc.LastChild() == doc.FirstChild()
	switch n := doc.LastChild().(type) {
	case *ast.List:
		cut, next = listCut(src, n)
	case *ast.Blockquote:
		cut, next = quoteCut(src, n)
	case *ast.FencedCodeBlock:
		cut, next = fenceCut(md, src, text[finished:], n)
	}
	if next == nil || cut <= len(lead) {
		return from, nil, false
	}
	next.code += from - len(lead)
	return from + cut - len(lead), next, same
}

// lineStart returns the start of the line that holds position i.
func lineStart(src string, i int) int {
	return strings.LastIndexByte(src[:i], '\n') + 1
}

// firstLine returns the start of the line a block's first text is on, or
// -1 if its first child holds none.
func firstLine(src string, n ast.Node) int {
	for c := n; c != nil && c.Type() == ast.TypeBlock; c = c.FirstChild() {
		if c.Lines().Len() > 0 {
			return lineStart(src, c.Lines().At(0).Start)
		}
	}
	return -1
}

// listCut splits a list before its last item whose first line is finished
// and starts with the list's marker at the left margin.
func listCut(src string, list *ast.List) (int, *openBlock) {
	item := list.LastChild()
	for j := list.ChildCount() - 1; j >= 1; j, item = j-1, item.PreviousSibling() {
		pos := firstLine(src, item)
		if pos <= 0 || !hasMarker(src[pos:], list) {
			continue
		}
		loose := pos >= 2 && src[pos-2] == '\n'
		var lead, trail string
		if list.IsOrdered() {
			n := list.Start + j
			if n < 1 || n > 999999999 {
				return 0, nil
			}
			lead = strconv.Itoa(n-1) + string(list.Marker) + " " + sentinel + "\n"
			trail = strconv.Itoa(n) + string(list.Marker) + " " + sentinel + "\n"
		} else {
			lead = string(list.Marker) + " " + sentinel + "\n"
			trail = lead
		}
		if loose {
			lead += "\n"
		}
		return pos, &openBlock{kind: listBlock, lead: lead, trail: trail}
	}
	return 0, nil
}

// hasMarker reports whether line starts with a marker of list at the left
// margin.
func hasMarker(line string, list *ast.List) bool {
	i := 0
	if list.IsOrdered() {
		for i < len(line) && i < 9 && line[i] >= '0' && line[i] <= '9' {
			i++
		}
		if i == 0 {
			return false
		}
	}
	if i >= len(line) || line[i] != list.Marker {
		return false
	}
	return i+1 < len(line) && (line[i+1] == ' ' || line[i+1] == '\t')
}

// quoteCut splits a block quote before its last paragraph that starts at the
// left margin after a blank quoted line.
func quoteCut(src string, quote *ast.Blockquote) (int, *openBlock) {
	child := quote.LastChild()
	for j := quote.ChildCount() - 1; j >= 1; j, child = j-1, child.PreviousSibling() {
		if child.Kind() != ast.KindParagraph {
			continue
		}
		pos := firstLine(src, child)
		if pos < 2 || src[pos] != '>' {
			continue
		}
		prev := src[lineStart(src, pos-1) : pos-1]
		if strings.TrimRight(prev, " \t") != ">" {
			continue
		}
		return pos, &openBlock{kind: quoteBlock, lead: "> " + sentinel + "\n>\n", trail: "> " + sentinel + "\n"}
	}
	return 0, nil
}

// fenceCut splits an open fenced code block between two finished lines of
// src; rest is the line still growing after them. It keeps at least a line
// after the split, to check that the lexer reads it the same either way.
func fenceCut(md *markdown, src, rest string, fence *ast.FencedCodeBlock) (int, *openBlock) {
	if fence.Lines().Len() == 0 {
		return 0, nil
	}
	code := lineStart(src, fence.Lines().At(0).Start)
	if code == 0 {
		return 0, nil
	}
	openAt := lineStart(src, code-1)
	opener := src[openAt:code]
	trimmed := strings.TrimLeft(opener, " ")
	marker := fenceOpen(strings.TrimSuffix(trimmed, "\n"))
	if marker == "" || len(opener)-len(trimmed) > 3 {
		return 0, nil
	}
	if fenceCloses(src[code:]+rest, marker) {
		return 0, nil // closed: it is rendered whole
	}
	// Line starts after the code's first line, the last finished one excluded.
	var cands []int
	for i := code; i < len(src); {
		e := strings.IndexByte(src[i:], '\n')
		if e < 0 {
			break
		}
		i += e + 1
		if i < len(src) && strings.IndexByte(src[i:], '\n') >= 0 {
			cands = append(cands, i)
		}
	}
	lang := string(fence.Language([]byte(src)))
	check := md.highlights()
	var lx chroma.Lexer
	var whole []piece
	for k := len(cands) - 1; k >= 0 && k >= len(cands)-4; k-- {
		b := cands[k]
		if check {
			if lx == nil {
				lx = codeLexer(lang, src[code:])
				whole = linePieces(lx, src[code:])
			}
			if !samePieces(whole, b-code, linePieces(lx, src[b:])) {
				continue
			}
		}
		return b, &openBlock{kind: fenceBlock, lead: opener, trail: marker + "\n", fence: marker, code: code, lang: lang, checked: -1}
	}
	return 0, nil
}

// codeLexer returns the lexer glamour would use for code in lang.
func codeLexer(lang, code string) chroma.Lexer {
	l := lexers.Get(lang)
	if l == nil {
		l = lexers.Analyse(code)
	}
	if l == nil {
		l = lexers.Fallback
	}
	return l
}

// checkFence reports whether the fence b, split at b.splits and closed at
// end, lexes in its pieces as it does whole, so that its chunks render as
// one render of the fence would.
func checkFence(text string, b *openBlock, end int) bool {
	if strings.HasPrefix(b.lead, " ") {
		return false // goldmark takes the opener's indent off each line
	}
	whole := text[b.code:end]
	want := tokenPieces(codeLexer(b.lang, whole), whole)
	var got []piece
	start := b.code
	for _, cut := range append(b.splits[:len(b.splits):len(b.splits)], end) {
		part := text[start:cut]
		got = append(got, tokenPieces(codeLexer(b.lang, part), part)...)
		start = cut
	}
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

// tokenPieces lexes code as glamour has chroma do it, and returns the
// tokens cut at line breaks, which the terminal formatter writes each
// between its colour and a reset.
func tokenPieces(l chroma.Lexer, code string) []piece {
	return pieces(chroma.Coalesce(l), code, false)
}

// piece is a run of one token type within a line; an empty run is a line
// break.
type piece struct {
	typ  chroma.TokenType
	text string
}

// linePieces lexes code and returns its tokens cut at line breaks, runs of
// one type within a line merged, as the terminal formatter writes them.
func linePieces(l chroma.Lexer, code string) []piece {
	return pieces(l, code, true)
}

// pieces lexes code with l and cuts its tokens at line breaks; with merge,
// a run that follows one of the same type on its line joins it.
func pieces(l chroma.Lexer, code string, merge bool) []piece {
	it, err := l.Tokenise(nil, code)
	if err != nil {
		return nil
	}
	var out []piece
	for tok := it(); tok != chroma.EOF; tok = it() {
		for v := tok.Value; v != ""; {
			part, rest, nl := strings.Cut(v, "\n")
			if part != "" {
				if k := len(out) - 1; merge && k >= 0 && out[k].text != "" && out[k].typ == tok.Type {
					out[k].text += part
				} else {
					out = append(out, piece{tok.Type, part})
				}
			}
			if nl {
				out = append(out, piece{})
			}
			v = rest
		}
	}
	return out
}

// samePieces reports whether whole, from byte offset at on, equals fresh.
func samePieces(whole []piece, at int, fresh []piece) bool {
	off, i := 0, 0
	for i < len(whole) && off < at {
		if whole[i].text == "" {
			off++
		} else {
			off += len(whole[i].text)
		}
		i++
	}
	if off != at || len(whole)-i != len(fresh) {
		return false
	}
	for k, p := range fresh {
		if whole[i+k] != p {
			return false
		}
	}
	return true
}
