package config

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// parseTOML reads a TOML 1.1 document into a tree whose keys and elements
// know their lines. It works in time and memory linear in the size of src:
// nesting is capped at [MaxDepth] levels, and no key path is ever copied per
// key. The first problem is returned as an [*Error] with its line and column.
func parseTOML(path, src string) (root *tomlTable, err error) {
	p := &tomlParser{path: path, src: src, lnLine: 1}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(tomlStop)
			if !ok {
				panic(r)
			}
			root, err = nil, e.err
		}
	}()
	if i := invalidUTF8(src); i >= 0 {
		p.pos = i
		p.fail("the file is not valid UTF-8 text (byte 0x%02x): save it as UTF-8", src[i])
	}
	if strings.HasPrefix(src, utf8BOM) {
		p.pos = len(utf8BOM)
	}
	p.root = &tomlTable{kind: headerTable, line: 1}
	p.document()
	return p.root, nil
}

const utf8BOM = "\uFEFF"

// tomlStop carries a parse error out of the parser's recursion.
type tomlStop struct{ err *Error }

// tomlParser reads one document.
type tomlParser struct {
	path string
	src  string
	pos  int

	// lnPos and lnLine cache the line of a position: positions are asked
	// for in increasing order, so counting newlines stays linear.
	lnPos, lnLine int

	root     *tomlTable
	cur      *tomlTable // the table of the current [section]
	curPath  []string   // its key path
	section  int32      // the current section's number
	sections int32      // sections and inline tables numbered so far
}

// fail stops the parse with a problem at the current position.
func (p *tomlParser) fail(format string, args ...any) {
	p.failAt(p.pos, format, args...)
}

// failAt stops the parse with a problem at pos.
func (p *tomlParser) failAt(pos int, format string, args ...any) {
	pos = min(max(pos, 0), len(p.src))
	line := strings.Count(p.src[:pos], "\n") + 1
	col := pos - strings.LastIndexByte(p.src[:pos], '\n')
	panic(tomlStop{&Error{Path: p.path, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}})
}

// line returns the 1-based line of pos.
func (p *tomlParser) line(pos int) int32 {
	if pos < p.lnPos {
		p.lnPos, p.lnLine = 0, 1
	}
	p.lnLine += strings.Count(p.src[p.lnPos:pos], "\n")
	p.lnPos = pos
	return int32(p.lnLine)
}

func (p *tomlParser) peek() byte {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *tomlParser) eof() bool { return p.pos >= len(p.src) }

// what describes the text at the current position, for messages.
func (p *tomlParser) what() string {
	if p.eof() {
		return "the end of the file"
	}
	switch c := p.src[p.pos]; c {
	case '\n':
		return "the end of the line"
	case '\r':
		if strings.HasPrefix(p.src[p.pos:], "\r\n") {
			return "the end of the line"
		}
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return fmt.Sprintf("%q", r)
}

// document reads the whole file: key/value pairs and [table] headers.
func (p *tomlParser) document() {
	p.cur = p.root
	for {
		p.skipBlank()
		if p.eof() {
			return
		}
		if p.peek() == '[' {
			p.header()
		} else {
			p.keyValue(p.cur, p.curPath, p.section)
		}
		p.endLine()
	}
}

// skipSpace skips spaces and tabs.
func (p *tomlParser) skipSpace() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

// skipBlank skips white space, newlines and comments.
func (p *tomlParser) skipBlank() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n':
			p.pos++
		case '\r':
			p.newline()
		case '#':
			p.comment()
		default:
			return
		}
	}
}

// newline consumes "\n" or "\r\n".
func (p *tomlParser) newline() {
	switch {
	case p.peek() == '\n':
		p.pos++
	case strings.HasPrefix(p.src[p.pos:], "\r\n"):
		p.pos += 2
	default:
		p.fail("a carriage return (\\r) must be followed by a newline (\\n)")
	}
}

// comment skips a comment up to the end of its line.
func (p *tomlParser) comment() {
	for p.pos++; p.pos < len(p.src); p.pos++ {
		c := p.src[p.pos]
		if c == '\n' || c == '\r' && strings.HasPrefix(p.src[p.pos:], "\r\n") {
			return
		}
		if isControl(c) {
			p.fail("comments must not contain control characters such as %q", rune(c))
		}
	}
}

// endLine expects the end of a line, allowing white space and a comment.
func (p *tomlParser) endLine() {
	p.skipSpace()
	if p.peek() == '#' {
		p.comment()
	}
	if p.eof() {
		return
	}
	if c := p.peek(); c != '\n' && c != '\r' {
		p.fail("expected the end of the line, got %s: put one key = value or [table] per line", p.what())
	}
	p.newline()
}

// header reads a [table] or [[array of tables]] header and makes its table
// the current one.
func (p *tomlParser) header() {
	start := p.pos
	line := p.line(start)
	p.pos++
	aot := p.peek() == '['
	if aot {
		p.pos++
	}
	p.skipSpace()
	segs := p.keyPath()
	p.skipSpace()
	if p.peek() != ']' || aot && !strings.HasPrefix(p.src[p.pos:], "]]") {
		want := "]"
		if aot {
			want = "]]"
			if p.peek() == ']' {
				p.pos++
			}
		}
		p.fail("expected %s to close the table header, got %s", want, p.what())
	}
	p.pos += 1 + boolInt(aot)
	p.sections++
	p.section = p.sections
	p.curPath = segs

	t := p.root
	for i, seg := range segs[:len(segs)-1] {
		t = p.headerStep(t, seg, segs[:i+1], line, start)
	}
	last := segs[len(segs)-1]
	i := t.find(last)
	if aot {
		if i < 0 {
			t.add(last, &tomlArray{tables: true, depth: t.depth + 1}, line)
			i = len(t.keys) - 1
		}
		arr, ok := t.keys[i].val.(*tomlArray)
		if !ok || !arr.tables {
			p.failAt(start, "[[%s]] cannot add a table to %s: it is already %s at line %d", dotted(segs), dotted(segs), kindOf(t.keys[i].val), t.keys[i].line)
		}
		elem := &tomlTable{kind: headerTable, line: line, depth: arr.depth + 1}
		p.checkDepth(elem.depth, start)
		arr.push(elem, line)
		p.cur = elem
		return
	}
	if i < 0 {
		elem := &tomlTable{kind: headerTable, line: line, depth: t.depth + 1}
		p.checkDepth(elem.depth, start)
		t.add(last, elem, line)
		p.cur = elem
		return
	}
	if sub, ok := t.keys[i].val.(*tomlTable); ok && sub.kind == implicitTable {
		sub.kind, sub.line, t.keys[i].line = headerTable, line, line
		p.cur = sub
		return
	}
	p.failAt(start, "[%s] is defined twice: it is already %s at line %d", dotted(segs), kindOf(t.keys[i].val), t.keys[i].line)
}

// headerStep goes from t to its sub-table seg, on the way to the table of a
// header; segs is the path so far, for messages.
func (p *tomlParser) headerStep(t *tomlTable, seg string, segs []string, line int32, start int) *tomlTable {
	i := t.find(seg)
	if i < 0 {
		sub := &tomlTable{kind: implicitTable, line: line, depth: t.depth + 1}
		p.checkDepth(sub.depth, start)
		t.add(seg, sub, line)
		return sub
	}
	switch v := t.keys[i].val.(type) {
	case *tomlTable:
		if v.kind == inlineTable {
			p.failAt(start, "cannot add to %s: it is an inline table { ... } at line %d, complete where it is written", dotted(segs), t.keys[i].line)
		}
		return v
	case *tomlArray:
		if v.tables {
			return v.elems[len(v.elems)-1].val.(*tomlTable)
		}
	}
	p.failAt(start, "cannot add to %s: it is already %s at line %d, not a table", dotted(segs), kindOf(t.keys[i].val), t.keys[i].line)
	return nil
}

// keyValue reads key = value into t, whose path is prefix; section is the
// section or inline table being read, which dotted keys may add to.
func (p *tomlParser) keyValue(t *tomlTable, prefix []string, section int32) {
	start := p.pos
	line := p.line(start)
	segs := p.keyPath()
	p.skipSpace()
	if p.peek() != '=' {
		p.fail("expected = after the key %s, got %s", dotted(segs), p.what())
	}
	p.pos++
	p.skipSpace()
	full := func(n int) []string { return slices.Concat(prefix, segs[:n]) }
	for i, seg := range segs[:len(segs)-1] {
		t = p.dottedStep(t, seg, func() []string { return full(i + 1) }, section, line, start)
	}
	last := segs[len(segs)-1]
	if i := t.find(last); i >= 0 {
		p.failAt(start, "key %s is defined twice: it is already %s at line %d", dotted(full(len(segs))), kindOf(t.keys[i].val), t.keys[i].line)
	}
	t.add(last, p.value(t.depth+1), line)
}

// dottedStep goes from t to its sub-table seg for a dotted key, making it
// when it is missing; segs is the path to seg, for messages.
func (p *tomlParser) dottedStep(t *tomlTable, seg string, segs func() []string, section, line int32, start int) *tomlTable {
	i := t.find(seg)
	if i < 0 {
		sub := &tomlTable{kind: dottedTable, line: line, depth: t.depth + 1, section: section}
		p.checkDepth(sub.depth, start)
		t.add(seg, sub, line)
		return sub
	}
	sub, ok := t.keys[i].val.(*tomlTable)
	switch {
	case !ok:
		p.failAt(start, "cannot add keys to %s: it is already %s at line %d, not a table", dotted(segs()), kindOf(t.keys[i].val), t.keys[i].line)
	case sub.kind == implicitTable:
		sub.kind, sub.section = dottedTable, section
	case sub.kind == dottedTable && sub.section == section:
	case sub.kind == inlineTable:
		p.failAt(start, "cannot add to %s: it is an inline table { ... } at line %d, complete where it is written", dotted(segs()), t.keys[i].line)
	default:
		p.failAt(start, "cannot add keys to the table %s from here: it is defined at line %d, write them there", dotted(segs()), t.keys[i].line)
	}
	return sub
}

// keyPath reads a key such as a."b.c".d and returns its parts.
func (p *tomlParser) keyPath() []string {
	var segs []string
	for {
		p.skipSpace()
		segs = append(segs, p.key())
		p.skipSpace()
		if p.peek() != '.' {
			return segs
		}
		p.pos++
	}
}

// key reads one bare, "basic" or 'literal' key.
func (p *tomlParser) key() string {
	switch p.peek() {
	case '"':
		if strings.HasPrefix(p.src[p.pos:], `"""`) {
			p.fail(`a key cannot be a multi-line string: use "key"`)
		}
		return p.basicString()
	case '\'':
		if strings.HasPrefix(p.src[p.pos:], "'''") {
			p.fail(`a key cannot be a multi-line string: use 'key'`)
		}
		return p.literalString()
	}
	start := p.pos
	for p.pos < len(p.src) && isBare(p.src[p.pos]) {
		p.pos++
	}
	if p.pos == start {
		p.fail("expected a key (letters, digits, _ and -, or a quoted string), got %s", p.what())
	}
	return p.src[start:p.pos]
}

// value reads one value; depth is the nesting of an array or table there.
func (p *tomlParser) value(depth int32) any {
	switch c := p.peek(); {
	case c == '"':
		if strings.HasPrefix(p.src[p.pos:], `"""`) {
			return p.multiLineString(true)
		}
		return p.basicString()
	case c == '\'':
		if strings.HasPrefix(p.src[p.pos:], "'''") {
			return p.multiLineString(false)
		}
		return p.literalString()
	case c == '[':
		return p.array(depth)
	case c == '{':
		return p.inlineTable(depth)
	case c == '+' || c == '-' || c == '_' || c == '.' || c == ':' || isAlnum(c):
		return p.scalar()
	}
	p.fail("expected a value (a string, number, true, false, date, [array] or { table }), got %s", p.what())
	return nil
}

// array reads [v, v, ...].
func (p *tomlParser) array(depth int32) *tomlArray {
	start := p.pos
	p.checkDepth(depth, start)
	p.pos++
	a := &tomlArray{depth: depth}
	for {
		p.skipBlank()
		if p.peek() == ']' {
			p.pos++
			return a
		}
		line := p.line(p.pos)
		a.push(p.value(depth+1), line)
		p.skipBlank()
		switch p.peek() {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return a
		default:
			p.fail("expected , or ] in the array that starts at line %d, got %s", p.line(start), p.what())
		}
	}
}

// inlineTable reads { k = v, ... }. Like TOML 1.1, it allows newlines,
// comments and a trailing comma.
func (p *tomlParser) inlineTable(depth int32) *tomlTable {
	start := p.pos
	p.checkDepth(depth, start)
	p.pos++
	p.sections++
	t := &tomlTable{kind: dottedTable, line: p.line(start), depth: depth, section: p.sections}
	for {
		p.skipBlank()
		if p.peek() == '}' {
			break
		}
		p.keyValue(t, nil, t.section)
		p.skipBlank()
		if p.peek() == ',' {
			p.pos++
			continue
		}
		if p.peek() != '}' {
			p.fail("expected , or } in the table that starts at line %d, got %s", t.line, p.what())
		}
		break
	}
	p.pos++
	t.kind = inlineTable
	return t
}

// checkDepth refuses nesting deeper than MaxDepth.
func (p *tomlParser) checkDepth(depth int32, pos int) {
	if depth > MaxDepth {
		p.failAt(pos, "nested more than %d levels deep (tables and arrays inside each other): flatten it", MaxDepth)
	}
}

// kindOf names a value's kind, for messages.
func kindOf(v any) string {
	switch v := v.(type) {
	case *tomlTable:
		switch v.kind {
		case inlineTable:
			return "an inline table"
		case dottedTable:
			return "a table made by dotted keys"
		}
		return "a table"
	case *tomlArray:
		if v.tables {
			return "an array of tables"
		}
		return "an array"
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case tomlDatetime:
		return "a date-time"
	}
	return fmt.Sprintf("%T", v)
}

// invalidUTF8 returns the offset of the first byte that is not valid UTF-8,
// or -1.
func invalidUTF8(s string) int {
	if utf8.ValidString(s) {
		return -1
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

// isControl reports whether c is a control character other than tab, which
// TOML allows in no string or comment.
func isControl(c byte) bool { return c < 0x20 && c != '\t' || c == 0x7f }

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
