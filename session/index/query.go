package index

// A search query as people type it, translated to an FTS5 MATCH
// expression that is always valid: every word and phrase is quoted, so no
// character of the query reaches FTS5's own syntax, and the operators are
// checked here, with a message that says what to write instead.
//
//	word            entries holding the word (any case, accents ignored)
//	"two words"     the exact phrase
//	pre*            words starting with "pre"
//	a b, a AND b    both
//	a OR b          either
//	a NOT b         a, without b
//	( ... )         grouping

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SyntaxError is a query that cannot be read, with what is wrong.
type SyntaxError struct {
	Msg string
}

func (e *SyntaxError) Error() string { return "search query: " + e.Msg }

// token kinds of a query.
const (
	tokWord = iota
	tokPrefix
	tokPhrase
	tokAnd
	tokOr
	tokNot
	tokOpen
	tokClose
)

// token is one word, phrase, operator or parenthesis of a query.
type token struct {
	kind int
	text string
}

// lex splits a query into tokens.
func lex(q string) ([]token, error) {
	var toks []token
	r := []rune(q)
	for i := 0; i < len(r); {
		c := r[i]
		switch {
		case unicode.IsSpace(c):
			i++
		case c == '(':
			toks = append(toks, token{kind: tokOpen})
			i++
		case c == ')':
			toks = append(toks, token{kind: tokClose})
			i++
		case c == '"':
			j := i + 1
			for j < len(r) && r[j] != '"' {
				j++
			}
			if j == len(r) {
				return nil, &SyntaxError{Msg: `a quote is not closed: end the phrase with "`}
			}
			phrase := strings.Join(strings.Fields(string(r[i+1:j])), " ")
			if phrase == "" {
				return nil, &SyntaxError{Msg: `"" is an empty phrase: put words between the quotes`}
			}
			toks = append(toks, token{kind: tokPhrase, text: phrase})
			i = j + 1
		default:
			j := i
			for j < len(r) && !unicode.IsSpace(r[j]) && r[j] != '"' && r[j] != '(' && r[j] != ')' {
				j++
			}
			w := string(r[i:j])
			i = j
			switch {
			case w == "AND":
				toks = append(toks, token{kind: tokAnd})
			case w == "OR":
				toks = append(toks, token{kind: tokOr})
			case w == "NOT":
				toks = append(toks, token{kind: tokNot})
			case strings.HasSuffix(w, "*"):
				stem := strings.TrimRight(w, "*")
				if !hasWord(stem) {
					return nil, &SyntaxError{Msg: fmt.Sprintf("%q: a * ends a word, as in pre*", w)}
				}
				toks = append(toks, token{kind: tokPrefix, text: stem})
			default:
				toks = append(toks, token{kind: tokWord, text: w})
			}
		}
	}
	return toks, nil
}

// hasWord reports whether s holds a letter or a digit, which make words.
func hasWord(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) >= 0
}

// parser reads tokens into an FTS5 expression.
type parser struct {
	toks  []token
	i     int
	depth int // how many ( are open
	// word, when not nil, makes the expression of a word, and of the last
	// when typed.
	word  func(string) (string, error)
	typed bool
}

// The most words and phrases a query may hold, and the most parentheses
// inside each other: FTS5 refuses deeper expressions, in its own words.
// Operators of one precedence need none: AND, OR and NOT bind as in FTS5
// (NOT, then AND, then OR, each from the left), so only groups are
// written with parentheses.
const (
	maxTerms = 200
	maxDepth = 10
)

// MaxQueryBytes is the longest query searched: far more than 200 words,
// and short of what would cost the parser and SQLite more than a
// keystroke's time.
const MaxQueryBytes = 4096

// parseQuery reads the query q, and returns it as an FTS5 expression.
func parseQuery(q string) (string, error) { return parseWords(q, nil, false) }

// parseWords is parseQuery, with word, when not nil, making the
// expression of each word (not of a phrase or a prefix): stemming. typed
// says the last word was made a prefix by asTyped: word makes its
// expression too, and it finds the words it starts or either.
func parseWords(q string, word func(string) (string, error), typed bool) (string, error) {
	if len(q) > MaxQueryBytes {
		return "", &SyntaxError{Msg: fmt.Sprintf("it is %d bytes, more than the %d a query may hold: search for a few words of it", len(q), MaxQueryBytes)}
	}
	if i := strings.IndexByte(q, 0); i >= 0 {
		return "", &SyntaxError{Msg: fmt.Sprintf("it holds a NUL byte (at byte %d), which no session's text holds: leave it out", i+1)}
	}
	toks, err := lex(q)
	if err != nil {
		return "", err
	}
	if len(toks) == 0 {
		return "", &SyntaxError{Msg: "nothing to search for"}
	}
	terms := 0
	for _, t := range toks {
		if t.kind == tokWord || t.kind == tokPhrase || t.kind == tokPrefix {
			terms++
		}
	}
	if terms > maxTerms {
		return "", &SyntaxError{Msg: fmt.Sprintf("%d words and phrases are more than the %d a query may hold", terms, maxTerms)}
	}
	ps := &parser{toks: toks, word: word, typed: typed}
	expr, err := ps.or()
	if err != nil {
		return "", err
	}
	if ps.i < len(toks) {
		// Only a ) that nothing opened stops the parse early.
		return "", &SyntaxError{Msg: "a ) has no ( before it"}
	}
	return expr, nil
}

func (ps *parser) peek() (token, bool) {
	if ps.i < len(ps.toks) {
		return ps.toks[ps.i], true
	}
	return token{}, false
}

// or reads terms joined by OR.
func (ps *parser) or() (string, error) { return ps.chain(tokOr, "OR", false, ps.and) }

// and reads terms joined by AND, or by nothing.
func (ps *parser) and() (string, error) { return ps.chain(tokAnd, "AND", true, ps.not) }

// not reads a term and the terms after NOT that it must not hold.
func (ps *parser) not() (string, error) { return ps.chain(tokNot, "NOT", false, ps.term) }

// chain reads what next reads, joined by the operator of token kind, op
// in FTS5's syntax. With implicit, what stands side by side joins too, up
// to an OR or a closing parenthesis: words are joined by AND unless told.
func (ps *parser) chain(kind int, op string, implicit bool, next func() (string, error)) (string, error) {
	left, err := next()
	if err != nil {
		return "", err
	}
	for {
		t, ok := ps.peek()
		switch {
		case ok && t.kind == kind:
			ps.i++
		case ok && implicit && t.kind != tokOr && t.kind != tokClose:
		default:
			return left, nil
		}
		right, err := next()
		if err != nil {
			return "", err
		}
		left += " " + op + " " + right
	}
}

// term reads a word, a phrase, a prefix or a group in parentheses.
func (ps *parser) term() (string, error) {
	t, ok := ps.peek()
	if !ok {
		prev := ps.toks[len(ps.toks)-1]
		return "", &SyntaxError{Msg: fmt.Sprintf("%s at the end needs a word after it", opName(prev))}
	}
	ps.i++
	switch t.kind {
	case tokWord:
		if ps.word != nil {
			return ps.word(t.text)
		}
		return quote(t.text), nil
	case tokPhrase:
		return quote(t.text), nil
	case tokPrefix:
		if ps.word != nil && ps.typed && ps.i == len(ps.toks) {
			w, err := ps.word(t.text)
			return "(" + w + " OR " + quote(t.text) + " *)", err
		}
		return quote(t.text) + " *", nil
	case tokOpen:
		if ps.depth++; ps.depth > maxDepth {
			return "", &SyntaxError{Msg: fmt.Sprintf("more than %d ( inside each other: write a simpler query", maxDepth)}
		}
		inner, err := ps.or()
		ps.depth--
		if err != nil {
			return "", err
		}
		if c, ok := ps.peek(); !ok || c.kind != tokClose {
			return "", &SyntaxError{Msg: "a ( is not closed: add )"}
		}
		ps.i++
		return "(" + inner + ")", nil
	case tokClose:
		return "", &SyntaxError{Msg: "() holds nothing, or a ) comes too early"}
	case tokNot:
		return "", &SyntaxError{Msg: "NOT needs a word before it, as in: cats NOT dogs"}
	}
	return "", &SyntaxError{Msg: fmt.Sprintf("%s needs a word before it, as in: cats %s dogs", opName(t), opName(t))}
}

// opName names an operator token.
func opName(t token) string {
	switch t.kind {
	case tokAnd:
		return "AND"
	case tokOr:
		return "OR"
	case tokNot:
		return "NOT"
	case tokOpen:
		return "("
	}
	return fmt.Sprintf("%q", t.text)
}

// quote makes s an FTS5 string: in double quotes, its own doubled.
func quote(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// asTyped is text with its last word, when it is one of at least
// prefixFrom runes outside quotes, as a prefix (capy finds capybara): a
// word being typed in the picker is likely unfinished, and one given to
// sessions search may be the start of the word meant.
func asTyped(text string) string {
	if strings.Count(text, `"`)%2 != 0 {
		return text
	}
	i := strings.LastIndexFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
	last := text
	if i >= 0 {
		r, n := utf8.DecodeRuneInString(text[i:])
		if r == '"' {
			return text // a phrase just closed
		}
		last = text[i+n:]
	}
	if utf8.RuneCountInString(last) < prefixFrom || last == "AND" || last == "OR" || last == "NOT" {
		return text
	}
	return text + "*"
}

// prefixFrom is the shortest last word searched as a prefix as it is
// typed: shorter ones stand for too many words to merge at each keystroke.
const prefixFrom = 3
