package mdwrap

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// MaxNest is how deeply the blocks and inlines of text rendered as
// markdown may nest (quotes in quotes, lists in lists, emphasis in
// emphasis, links in links). A reply can nest far deeper than any
// document does: 200,000 '>' or '*' overflowed the stack of the walks
// over the tree (a crash no recover catches), and the parser takes time
// quadratic in the depth of quotes and brackets (40,000 '>' took 4.5 s).
// Deeper text is shown as the characters it holds (see [Flatten]), as is
// text whose parse would take time superlinear in its length (see costly).
const MaxNest = 100

// TooDeep reports whether src, parsed as markdown, nests deeper than
// MaxNest, or would take the parser time superlinear in its length, which
// a scan of the text counts (see costly): either is shown flat. A scan
// of the text bounds the depth first: each level needs a marker at the
// start of a line (>, -, +, *, 1.), two columns of indent,
// an open bracket, or two emphasis characters within a paragraph; only
// text past the bound is parsed, and text whose lines open more than
// MaxNest quotes or lists, or whose brackets nest deeper, is too deep
// without a parse, which would take quadratic time.
func TooDeep(src string) bool {
	bound, brackets := 0, 0
	emph := 0 // '*', '_' and '~' in the current paragraph
	for line := range strings.Lines(src) {
		markers, indent, i := 0, 0, 0
	lead:
		for ; i < len(line); i++ {
			switch c := line[i]; {
			case c == ' ':
				indent++
			case c == '\t':
				indent += 4
			case c == '>' || c == '-' || c == '+' || c == '*' || c == '.' || c == ')':
				markers++
			case c >= '0' && c <= '9':
			default:
				break lead
			}
		}
		if markers > MaxNest {
			return true
		}
		if strings.TrimSpace(line) == "" {
			emph = 0
		}
		for j := 0; j < len(line); j++ {
			switch line[j] {
			case '\\':
				j++
			case '[':
				if brackets++; brackets > MaxNest {
					return true
				}
			case ']':
				brackets = max(brackets-1, 0)
			case '*', '_', '~':
				emph++
			}
		}
		bound = max(bound, markers+indent/2+brackets+emph/2)
	}
	if costly(src) {
		return true
	}
	if bound <= MaxNest {
		return false
	}
	if parseHook != nil {
		parseHook()
	}
	return depth(Parse([]byte(src))) > MaxNest+2 // the document, and the text in the deepest block
}

// parseHook, when set by a test, is told when TooDeep parses.
var parseHook func()

// depth is how deeply the tree under n nests, walked without recursion.
func depth(n ast.Node) int {
	most, d := 0, 0
	for c := n; c != nil; {
		most = max(most, d)
		if c.FirstChild() != nil {
			c, d = c.FirstChild(), d+1
			continue
		}
		for c != n && c.NextSibling() == nil {
			c, d = c.Parent(), d-1
		}
		if c == n {
			break
		}
		c = c.NextSibling()
	}
	return most
}

// Flatten returns src with every ASCII punctuation character escaped (but
// '/', which glamour would show escaped and which makes nothing), so that
// markdown reads it as the text it is: no quote, list, emphasis, link,
// heading, table, fence or HTML, nothing nested.
func Flatten(src string) string {
	var b strings.Builder
	b.Grow(len(src) + len(src)/4)
	for i := 0; i < len(src); i++ {
		if c := src[i]; c != '/' && util.IsPunct(c) {
			b.WriteByte('\\')
		}
		b.WriteByte(src[i])
	}
	return b.String()
}
