package page

import (
	"html"
	"io"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// maxHighlighted is the longest code block highlighted, in bytes: a longer
// one is written as plain text, which takes a browser no time to lay out.
const maxHighlighted = 128 << 10

// formatter writes code as spans with chroma's short classes (k, s, c…),
// coloured by the page's stylesheet; the <pre> around it is the page's.
var formatter = chromahtml.New(chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(true))

// codeClasses are the kinds of token the page colours, each with the
// class it is written with (see codeCSS). A token of any other kind is
// written as plain text, without a span: a page of code holds about as many
// bytes as the code.
var codeClasses = []chroma.TokenType{
	chroma.Keyword, chroma.NameFunction, chroma.LiteralString, chroma.LiteralNumber,
	chroma.Comment, chroma.GenericInserted, chroma.GenericDeleted, chroma.GenericHeading,
}

// reduce returns the kind, of codeClasses or Text, that t is written as.
func reduce(t chroma.TokenType) chroma.TokenType {
	switch {
	case t == chroma.KeywordType: // int, string: as many as the names, in the text's colour
		return chroma.Text
	case t.InCategory(chroma.Keyword):
		return chroma.Keyword
	case t == chroma.NameFunction || t == chroma.NameClass || t == chroma.NameBuiltin || t == chroma.NameFunctionMagic:
		return chroma.NameFunction
	case t.InSubCategory(chroma.LiteralString):
		return chroma.LiteralString
	case t.InSubCategory(chroma.LiteralNumber):
		return chroma.LiteralNumber
	case t.InCategory(chroma.Comment):
		return chroma.Comment
	case t == chroma.GenericInserted, t == chroma.GenericDeleted:
		return t
	case t == chroma.GenericHeading || t == chroma.GenericSubheading:
		return chroma.GenericHeading
	}
	return chroma.Text
}

// reduced returns the tokens of it reduced, each run of one kind joined
// into one token.
func reduced(it chroma.Iterator) chroma.Iterator {
	var (
		kind chroma.TokenType
		run  strings.Builder
		done bool
	)
	flush := func(next chroma.TokenType) chroma.Token {
		out := chroma.Token{Type: kind, Value: run.String()}
		run.Reset()
		kind = next
		return out
	}
	return func() chroma.Token {
		for !done {
			t := it()
			if t == chroma.EOF {
				done = true
				break
			}
			k := reduce(t.Type)
			if run.Len() > 0 && k != kind {
				out := flush(k)
				run.WriteString(t.Value)
				return out
			}
			kind = k
			run.WriteString(t.Value)
		}
		if run.Len() == 0 {
			return chroma.EOF
		}
		return flush(chroma.Text)
	}
}

// sink is what the page is written to.
type sink interface {
	io.Writer
	io.StringWriter
}

// writeCode writes code, a block of the language lang ("" when not known),
// as a <div class="code"> naming its language (which the stylesheet shows)
// around a <pre>,
// highlighted by chroma when it knows lang and code is short enough.
func writeCode(w sink, lang, code string) {
	if lang != "" {
		w.WriteString(`<div class="code" data-lang="` + html.EscapeString(lang) + `">`)
	} else {
		w.WriteString(`<div class="code">`)
	}
	w.WriteString(`<pre><code>`)
	defer w.WriteString("</code></pre></div>\n")
	var lexer chroma.Lexer
	if lang != "" && len(code) <= maxHighlighted {
		lexer = lexers.Get(lang)
	}
	if lexer != nil {
		if it, err := lexer.Tokenise(nil, code); err == nil {
			if err := formatter.Format(w, styles.Fallback, reduced(it)); err == nil {
				return
			}
		}
	}
	w.WriteString(html.EscapeString(code))
}
