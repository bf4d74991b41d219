// Package mdwrap prepares markdown for glamour, so that text of any shape
// renders in time linear in its length. The chat screen (a streaming reply
// and a reply opened again) and -p on a terminal both render through it.
//
// Glamour wraps a paragraph or a heading with muesli/reflow's wordwrap,
// which measures the word it is building again for every character it
// adds: a word of n characters costs n², so a reply holding a 1 MB base64
// blob, URL or code span never finishes. And none of the wrappers glamour
// uses breaks a word wider than the line: it runs off the screen. Words
// breaks such a word before glamour sees it, by putting a space into it at
// the width of the block it sits in. Glamour then wraps each piece onto a
// line of its own and drops the space at the line's end, so what shows is
// the word cut at the width, as a hard wrap cuts it, with nothing lost.
package mdwrap

import (
	"bytes"
	"html"
	"net/url"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/glamour/ansi"
	xansi "github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

var (
	parserMu sync.Mutex
	mdParser parser.Parser
)

// Parse parses markdown as glamour does.
func Parse(src []byte) ast.Node {
	parserMu.Lock()
	defer parserMu.Unlock()
	if mdParser == nil {
		mdParser = goldmark.New(
			goldmark.WithExtensions(extension.GFM, extension.DefinitionList),
			goldmark.WithParserOptions(parser.WithAutoHeadingID()),
		).Parser()
	}
	return mdParser.Parse(text.NewReader(src))
}

// Words returns src with a space put into every word that is wider than
// the lines of the block it sits in, when glamour renders src in style
// wrapped at width. A word is cut at the width of its block, measured in
// grapheme widths as glamour shows it, so each piece fills a line. It
// takes one pass over the text and one parse of it, and none when no word
// is wider than half the width, the narrowest piece it cuts.
//
// Words leaves alone what glamour does not wrap as text: code blocks, HTML
// blocks and tables (whose cells lipgloss wraps itself). In text it puts a
// space only where the space cannot change what the markdown means: not
// next to markdown punctuation, nor inside an entity, unless a piece has
// no such place at all. A link's or an image's destination, or a URL, too
// wide for its block, is written as a destination in angle brackets, where
// spaces are allowed (an autolink becomes a link with no text), which
// glamour shows as it shows text. One that cannot be written so (holding a
// bracket or a backslash, not absolute, or with a host wider than a line)
// is left whole.
//
// Text nested deeper than MaxNest comes back flattened (see [Flatten]).
func Words(src string, style ansi.StyleConfig, width int) string {
	if TooDeep(src) {
		src = Flatten(src)
	}
	least := max(width/2, 1)
	if !hasWordWider(src, least) {
		return src
	}
	b := &breaker{src: []byte(src), style: style, least: least}
	b.block(Parse(b.src), width)
	return b.apply(src)
}

// hasWordWider reports whether src holds a run of more than n bytes
// without a space: a word is no wider than its bytes.
func hasWordWider(src string, n int) bool {
	run := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case ' ', '\t', '\n', '\r':
			run = 0
		default:
			if run++; run > n {
				return true
			}
		}
	}
	return false
}

// The characters glamour's wrappers may end a line after, as at a space:
// reflow's, which wraps paragraphs and headings, and x/ansi's, which wraps
// the text of list items and definitions, and every block again.
const (
	reflowBreaks = "-"
	ansiBreaks   = ",.;-+|"
)

// edit replaces src[at:end] with text.
type edit struct {
	at, end int
	text    string
}

// word is the word glamour's wrapper is building: its width, and the last
// place in it where a space may go (-1 if none) with the width after it,
// and where in the source its text begins (-1 until it has some).
type word struct {
	width, ok, okWidth int
	start              int
}

// bytesPerColumn bounds the bytes of a piece: a word is broken where it
// grows past this many bytes a column of its piece as well as where it
// grows wider than its piece. Reflow measures the word it builds again for
// each code point it adds, so its time grows with a word's bytes times its
// code points, and a cluster may hold up to sanitize.MaxCluster code
// points in one column ("a" and 31 accents, repeated). Text of any script
// takes at most 4 bytes a column, but for emoji sequences (up to 40 bytes
// in two columns), which a line of them alone would cut short.
const bytesPerColumn = 8

// breaker finds where to break the words of one text.
type breaker struct {
	src   []byte
	style ansi.StyleConfig
	least int // the narrowest piece a word is cut into
	edits []edit

	cur word
	// piece is the width the pieces of a word may take in the block it
	// sits in, and breaks what its wrapper may end a line after.
	piece  int
	breaks string
	// styles are those of the emphasis and links around the text.
	styles []ansi.StylePrimitive
}

// block walks the block n, whose lines may take avail columns of the lines
// of the blocks around it.
func (b *breaker) block(n ast.Node, avail int) {
	st := b.style
	inItem := n.Parent() != nil && n.Parent().Kind() == ast.KindListItem
	switch n.Kind() {
	case ast.KindDocument:
		avail -= blockCols(st.Document)
	case ast.KindParagraph:
		if !inItem {
			avail -= blockCols(st.Paragraph) // in a list item, the list wraps it
		}
	case ast.KindHeading:
		avail -= blockCols(st.Heading) + blockCols(headingStyle(st, n.(*ast.Heading).Level))
	case ast.KindBlockquote:
		avail -= blockCols(st.BlockQuote)
	case ast.KindList:
		s := st.List.StyleBlock
		if inList(n) {
			i := st.List.LevelIndent
			s.Indent = &i
		}
		avail -= blockCols(s)
	case east.KindDefinitionList:
		avail -= blockCols(st.DefinitionList)
	case ast.KindFencedCodeBlock, ast.KindCodeBlock, ast.KindHTMLBlock, east.KindTable:
		return
	}
	b.piece, b.breaks = max(avail, b.least), ansiBreaks
	if !inItem {
		b.reset() // the text of a list item follows its bullet
	}
	switch n.Kind() {
	case ast.KindParagraph:
		if !inItem {
			b.breaks = reflowBreaks
		}
	case ast.KindHeading:
		b.breaks = reflowBreaks
		s := headingStyle(st, n.(*ast.Heading).Level)
		b.word([]byte(st.Heading.Prefix + s.Prefix)) // the level's prefix, if any, stands for the other
	case ast.KindListItem:
		b.word([]byte(itemPrefix(st, n)))
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Type() == ast.TypeInline {
			b.inline(c)
			continue
		}
		piece, breaks := b.piece, b.breaks
		b.block(c, avail)
		b.piece, b.breaks = piece, breaks
		b.reset()
	}
}

// inline walks the inline node n. Glamour writes each piece of text with
// the prefix, suffix and format of its style, overridden by those of the
// emphasis or link around it: they count as part of the words they touch,
// all of them, which may make a piece narrower than it could be, never
// wider.
func (b *breaker) inline(n ast.Node) {
	st := b.style
	switch n := n.(type) {
	case *ast.Text:
		seg := n.Segment
		switch n.Parent().(type) {
		case *ast.CodeSpan:
			b.text(seg.Start, seg.Stop, true)
		case *east.Strikethrough, *ast.Image:
			b.text(seg.Start, seg.Stop, false) // written as one piece, in its parent's style
		default:
			b.affix(before(st.Text))
			for _, s := range b.styles {
				b.affix(before(s))
			}
			b.text(seg.Start, seg.Stop, false)
			b.affix(after(st.Text))
			for _, s := range b.styles {
				b.affix(after(s))
			}
		}
		if n.SoftLineBreak() || n.HardLineBreak() {
			b.reset() // glamour writes a line break: a space or a new line
		}
	case *ast.CodeSpan:
		b.affix(st.Code.Prefix)
		b.children(n)
		b.affix(st.Code.Suffix)
	case *east.Strikethrough:
		b.affix(before(st.Strikethrough))
		b.children(n)
		b.affix(after(st.Strikethrough))
	case *ast.Emphasis:
		s := st.Emph
		if n.Level > 1 {
			s = st.Strong
		}
		b.styles = append(b.styles, s)
		b.children(n)
		b.styles = b.styles[:len(b.styles)-1]
	case *ast.Link:
		b.styles = append(b.styles, st.LinkText)
		b.children(n)
		b.styles = b.styles[:len(b.styles)-1]
		if u, err := url.Parse(string(n.Destination)); err == nil && "#"+u.Fragment != string(n.Destination) {
			b.link(n.Destination, st.Link) // glamour shows no destination that is only an anchor
		}
	case *ast.Image:
		if n.FirstChild() != nil {
			b.affix(before(st.ImageText))
			b.children(n)
			b.affix(after(st.ImageText))
		}
		if len(n.Destination) > 0 {
			b.link(n.Destination, st.Image)
		}
	case *ast.AutoLink:
		b.autolink(n)
	case *east.TaskCheckBox:
		// written with the item's bullet
	default:
		b.children(n)
	}
}

// children walks the inline children of n.
func (b *breaker) children(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		b.inline(c)
	}
}

// reset starts a new word.
func (b *breaker) reset() {
	b.cur = word{ok: -1, start: -1}
}

// grow adds w columns to the word being built.
func (b *breaker) grow(w int) {
	b.cur.width += w
	b.cur.okWidth += w
}

// ends reports whether the wrapper may end a line after the unit g: a
// space or one of its break characters.
func (b *breaker) ends(g []byte) bool {
	r, _ := utf8.DecodeRune(g)
	return isSpace(r) || len(g) == 1 && b.breaksAfter(g[0])
}

// breaksAfter reports whether the wrapper may end a line after c. A space
// put before c would stay on the line, with c after it.
func (b *breaker) breaksAfter(c byte) bool {
	return strings.IndexByte(b.breaks, c) >= 0
}

// overflow makes room for a unit at i that would make the word wider than
// a piece: it returns where a space goes, at the last place in the word
// that may take one, or at i when there is none, and starts the next
// piece there.
func (b *breaker) overflow(i int) int {
	at, rest := i, 0
	if b.cur.ok >= 0 && b.cur.okWidth < b.cur.width {
		at, rest = b.cur.ok, b.cur.okWidth
	}
	b.cur = word{width: rest, ok: -1, start: -1}
	return at
}

// word adds text glamour shows but that is not to be broken to the word
// being built.
func (b *breaker) word(s []byte) {
	for len(s) > 0 {
		g, w := grapheme(s)
		if b.ends(g) {
			b.reset()
		} else {
			b.grow(w)
		}
		s = s[len(g):]
	}
}

// affix adds what a style writes around a piece to the word being built,
// all of it, spaces too: an affix may be overridden by one without.
func (b *breaker) affix(s string) {
	for _, r := range s {
		if r == '\n' {
			b.reset()
		} else {
			b.grow(xansi.StringWidth(string(r)))
		}
	}
}

// text breaks the words of the text src[start:stop], in a code span if
// code. A space may go only between two characters that are not markdown
// punctuation, and not before one the wrappers may end a line after. The
// widths are those glamour shows: an entity as what it stands for, and
// outside code an escaped character as itself.
func (b *breaker) text(start, stop int, code bool) {
	s := b.src
	prev := byte(' ')
	if start > 0 {
		prev = s[start-1]
	}
	for i := start; i < stop; {
		g, w := unit(s[i:stop], code)
		if b.ends(g) {
			b.reset()
		} else {
			if b.cur.start < 0 {
				b.cur.start = i
			}
			if !isMarkup(prev) && !isMarkup(g[0]) && !b.breaksAfter(g[0]) {
				b.cur.ok, b.cur.okWidth = i, 0
			}
			// The byte bound holds for a word no column wide, too: a run
			// of "\u0600a" is clusters of no width that the wrapper after
			// this measures again for every rune (120 KB took 30 s).
			if (b.cur.width+w > b.piece && b.cur.width > 0) || (i+len(g)-b.cur.start > b.piece*bytesPerColumn && i > b.cur.start) {
				at := b.overflow(i)
				b.cur.start = at
				b.edits = append(b.edits, edit{at: at, end: at, text: " "})
			}
			b.grow(w)
		}
		prev = g[len(g)-1]
		i += len(g)
	}
}

// link breaks the destination of a link or an image, which glamour shows
// after its text and a space, in style, when it is wider than its block:
// it is written in angle brackets, with spaces in it.
func (b *breaker) link(dest []byte, style ansi.StylePrimitive) {
	b.reset()
	b.affix(before(style))
	defer b.affix(after(style))
	at, found := b.offset(dest)
	if found && b.cur.width+xansi.StringWidth(string(dest)) > b.piece {
		if cut, ok := b.cutURL("", dest); ok {
			end := at + len(dest)
			if at > 0 && b.src[at-1] == '<' && end < len(b.src) && b.src[end] == '>' {
				b.edits = append(b.edits, edit{at: at, end: end, text: cut})
			} else {
				b.edits = append(b.edits, edit{at: at, end: end, text: "<" + cut + ">"})
			}
			return
		}
		b.reset()
		b.affix(before(style))
	}
	b.word(dest)
}

// autolink breaks the URL of an autolink, in angle brackets or found in
// the text, when its word is wider than its block, by writing it as a link
// with no text, whose destination is written as link writes it. Glamour
// shows an autolink as its URL alone, and a link with no text as a space
// and its destination.
func (b *breaker) autolink(n *ast.AutoLink) {
	st := b.style.Link
	label, shown := n.Label(b.src), n.URL(b.src)
	at, found := b.offset(label)
	if n.AutoLinkType == ast.AutoLinkURL && found && b.cur.width+xansi.StringWidth(before(st)+string(shown)) > b.piece {
		var scheme string
		if n.Protocol != nil {
			scheme = string(n.Protocol) + "://" // www.example.com shows as http://www.example.com
		}
		cur := b.cur
		b.reset()
		b.affix(before(st))
		if cut, ok := b.cutURL(scheme, label); ok {
			b.affix(after(st))
			end := at + len(label)
			if at > 0 && b.src[at-1] == '<' && end < len(b.src) && b.src[end] == '>' {
				at, end = at-1, end+1
			}
			b.edits = append(b.edits, edit{at: at, end: end, text: "[](<" + cut + ">)"})
			return
		}
		b.cur = cur
	}
	b.affix(before(st))
	b.word(shown)
	b.affix(after(st))
}

// cutURL returns scheme and the URL u with a space put in wherever a piece
// would overflow, but in its scheme and host, inside a %-escape or before
// a character the wrappers may end a line after, where it goes earlier.
// It reports false for a URL that cannot be written in angle brackets, or
// that glamour would not show as it is written: one that is not absolute
// is shown resolved, with its spaces escaped.
func (b *breaker) cutURL(scheme string, u []byte) (string, bool) {
	if bytes.ContainsAny(u, "<>\\\n\r") {
		return "", false
	}
	b.word([]byte(scheme))
	path := 0 // where the path begins: no break before it
	if i := bytes.Index(u, []byte("://")); i >= 0 {
		path = i + 3
		if j := bytes.IndexAny(u[path:], "/?#"); j >= 0 {
			path += j
		} else {
			path = len(u)
		}
	}
	var cuts []int
	escape := -1 // the last byte of the %-escape the URL is in
	for i := 0; i < len(u); {
		g, w := grapheme(u[i:])
		if b.ends(g) {
			b.reset()
		} else {
			if i > 0 && i >= path && i > escape && !b.breaksAfter(g[0]) {
				b.cur.ok, b.cur.okWidth = i, 0
			}
			if b.cur.width+w > b.piece && b.cur.width > 0 {
				cuts = append(cuts, b.overflow(i))
			}
			b.grow(w)
		}
		if g[0] == '%' {
			escape = i + 2
		}
		i += len(g)
	}
	var out strings.Builder
	out.Grow(len(scheme) + len(u) + len(cuts))
	out.WriteString(scheme)
	pos := 0
	for _, c := range cuts {
		out.Write(u[pos:c])
		out.WriteByte(' ')
		pos = c
	}
	out.Write(u[pos:])
	cut := out.String()
	if p, err := url.Parse(cut); err != nil || !p.IsAbs() {
		return "", false
	}
	return cut, true
}

// offset returns where sub, a slice of the source that goldmark returned,
// sits in the source.
func (b *breaker) offset(sub []byte) (int, bool) {
	if len(sub) == 0 || cap(sub) > cap(b.src) {
		return 0, false
	}
	at := cap(b.src) - cap(sub)
	if at+len(sub) > len(b.src) || &b.src[at] != &sub[0] {
		return 0, false
	}
	return at, true
}

// apply returns src with the edits made.
func (b *breaker) apply(src string) string {
	if len(b.edits) == 0 {
		return src
	}
	slices.SortStableFunc(b.edits, func(x, y edit) int { return x.at - y.at })
	var out strings.Builder
	out.Grow(len(src) + 4*len(b.edits))
	pos := 0
	for _, e := range b.edits {
		if e.at < pos {
			continue // a destination two links share, written once
		}
		out.WriteString(src[pos:e.at])
		out.WriteString(e.text)
		pos = e.end
	}
	out.WriteString(src[pos:])
	return out.String()
}

// unit returns the first piece of text s that glamour shows as one, and
// its width: an entity, an escaped character outside code, or a grapheme.
func unit(s []byte, code bool) ([]byte, int) {
	switch s[0] {
	case '&':
		if end := entityEnd(s); end > 0 {
			return s[:end+1], xansi.StringWidth(html.UnescapeString(string(s[:end+1])))
		}
	case '\\':
		if !code && len(s) > 1 && strings.IndexByte(escaped, s[1]) >= 0 {
			return s[:2], 1
		}
	}
	return grapheme(s)
}

// escaped holds the characters glamour shows without the backslash that
// escapes them.
const escaped = "\\`*_{}[]<>()#+-.!|"

// grapheme returns the first grapheme cluster of s and its width.
func grapheme(s []byte) ([]byte, int) {
	if s[0] < utf8.RuneSelf && (len(s) == 1 || s[1] < utf8.RuneSelf && s[0] != '\r') {
		if s[0] < ' ' || s[0] == 0x7f {
			return s[:1], 0
		}
		return s[:1], 1 // ASCII, not followed by a combining mark
	}
	return xansi.FirstGraphemeCluster(s, xansi.GraphemeWidth)
}

// isSpace reports whether glamour's wrappers end a word at r: at Unicode
// spaces but for the no-break space, which one of them keeps in a word.
func isSpace(r rune) bool {
	return unicode.IsSpace(r) && r != '\u00a0'
}

// isMarkup reports whether a space next to c could change what markdown
// means: emphasis, code spans, links, escapes, entities, HTML, cells.
func isMarkup(c byte) bool {
	return strings.IndexByte("\\`*_~[]()<>!&|", c) >= 0
}

// entityEnd returns where the entity s starts with ends, at its ";", or -1
// when s does not start with one: "&amp;", "&#39;", "&#x27;".
func entityEnd(s []byte) int {
	for i := 1; i < len(s) && i <= 32; i++ {
		c := s[i]
		switch {
		case c == ';':
			if i > 1 {
				return i
			}
			return -1
		case c == '#' && i == 1,
			c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		default:
			return -1
		}
	}
	return -1
}

// before and after return what style p writes before and after a piece.
func before(p ansi.StylePrimitive) string {
	f, _, _ := strings.Cut(p.Format, "{{.text}}")
	return p.BlockPrefix + p.Prefix + f
}

func after(p ansi.StylePrimitive) string {
	_, f, _ := strings.Cut(p.Format, "{{.text}}")
	return f + p.Suffix + p.BlockSuffix
}

// blockCols is how many columns a block in style s takes from the lines it
// holds. Glamour wraps them at the width less the indent and both margins,
// but writes the indent and the left margin with the indent token, which
// may be wider than a column (a quote's "│ ").
func blockCols(s ansi.StyleBlock) int {
	var indent, margin int
	if s.Indent != nil {
		indent = int(*s.Indent)
	}
	if s.Margin != nil {
		margin = int(*s.Margin)
	}
	token := 1
	if s.IndentToken != nil {
		token = max(xansi.StringWidth(*s.IndentToken), 1)
	}
	return max(indent+2*margin, (indent+margin)*token+margin)
}

// headingStyle returns the style of a heading of level.
func headingStyle(st ansi.StyleConfig, level int) ansi.StyleBlock {
	return [...]ansi.StyleBlock{st.H1, st.H2, st.H3, st.H4, st.H5, st.H6}[min(max(level, 1), 6)-1]
}

// itemPrefix returns what glamour writes before the text of a list item:
// its bullet or number, or for a task its box instead.
func itemPrefix(st ansi.StyleConfig, n ast.Node) string {
	list, ok := n.Parent().(*ast.List)
	if !ok {
		return ""
	}
	if c := n.FirstChild(); c != nil {
		if box, ok := c.FirstChild().(*east.TaskCheckBox); ok {
			if box.IsChecked {
				return st.Task.Ticked + before(st.Task.StylePrimitive)
			}
			return st.Task.Unticked + before(st.Task.StylePrimitive)
		}
	}
	if list.IsOrdered() {
		return "00000" + before(st.Enumeration) // as wide as any number
	}
	return before(st.Item)
}

// inList reports whether n sits in a list.
func inList(n ast.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Kind() == ast.KindList {
			return true
		}
	}
	return false
}
