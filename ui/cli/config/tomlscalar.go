package config

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// basicString reads a "basic string" on one line, with escapes.
func (p *tomlParser) basicString() string {
	start := p.pos
	p.pos++
	var b *strings.Builder // nil until the string has an escape
	from := p.pos
	for {
		if p.eof() {
			p.failAt(start, `this string never ends: add the closing "`)
		}
		switch c := p.src[p.pos]; {
		case c == '"':
			s := p.src[from:p.pos]
			p.pos++
			if b == nil {
				return s
			}
			b.WriteString(s)
			return b.String()
		case c == '\\':
			if b == nil {
				b = &strings.Builder{}
			}
			b.WriteString(p.src[from:p.pos])
			p.escape(b)
			from = p.pos
		case c == '\n' || c == '\r':
			p.failAt(start, `this string ends at the end of the line without its closing ": close it, or use """ for text on several lines`)
		case isControl(c):
			p.fail(`strings must not contain control characters such as %q: write it as an escape, such as \u%04x`, rune(c), c)
		default:
			p.pos++
		}
	}
}

// escape reads the escape sequence at the current position into b.
func (p *tomlParser) escape(b *strings.Builder) {
	start := p.pos
	p.pos++
	if p.eof() {
		p.failAt(start, `a \ at the end of the file: escape it as \\`)
	}
	c := p.src[p.pos]
	p.pos++
	switch c {
	case 'b':
		b.WriteByte('\b')
	case 't':
		b.WriteByte('\t')
	case 'n':
		b.WriteByte('\n')
	case 'f':
		b.WriteByte('\f')
	case 'r':
		b.WriteByte('\r')
	case 'e':
		b.WriteByte(0x1b)
	case '"':
		b.WriteByte('"')
	case '\\':
		b.WriteByte('\\')
	case 'x', 'u', 'U':
		n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
		hex := p.src[p.pos:min(p.pos+n, len(p.src))]
		v, err := strconv.ParseUint(hex, 16, 32)
		if len(hex) != n || err != nil || strings.ContainsAny(hex, "+-_") {
			p.failAt(start, `\%c needs %d hexadecimal digits, such as \%c%s`, c, n, c, strings.Repeat("0", n-1)+"9")
		}
		r := rune(v)
		if !utf8.ValidRune(r) {
			p.failAt(start, `\%c%s is not a Unicode character`, c, hex)
		}
		b.WriteRune(r)
		p.pos += n
	default:
		r, _ := utf8.DecodeRuneInString(p.src[p.pos-1:])
		p.failAt(start, `unknown escape %s: write a backslash as \\`, quote(`\`+string(r)))
	}
}

// literalString reads a 'literal string' on one line: no escapes.
func (p *tomlParser) literalString() string {
	start := p.pos
	p.pos++
	for ; p.pos < len(p.src); p.pos++ {
		switch c := p.src[p.pos]; {
		case c == '\'':
			p.pos++
			return p.src[start+1 : p.pos-1]
		case c == '\n' || c == '\r':
			p.failAt(start, `this string ends at the end of the line without its closing ': close it, or use ''' for text on several lines`)
		case isControl(c):
			p.fail("strings must not contain control characters such as %q", rune(c))
		}
	}
	p.failAt(start, "this string never ends: add the closing '")
	return ""
}

// multiLineString reads a """multi-line basic""" string, with escapes, or a
// ”'multi-line literal”' one.
func (p *tomlParser) multiLineString(basic bool) string {
	start := p.pos
	quote := byte('\'')
	if basic {
		quote = '"'
	}
	delim := strings.Repeat(string(quote), 3)
	p.pos += 3
	// A newline right after the opening delimiter is left out.
	if p.peek() == '\n' || strings.HasPrefix(p.src[p.pos:], "\r\n") {
		p.newline()
	}
	var b strings.Builder
	from := p.pos
	for {
		if p.eof() {
			p.failAt(start, "this string never ends: add the closing %s", delim)
		}
		switch c := p.src[p.pos]; {
		case c == quote && strings.HasPrefix(p.src[p.pos:], delim):
			// Up to two more quotes belong to the string.
			n := 3
			for n < 5 && p.pos+n < len(p.src) && p.src[p.pos+n] == quote {
				n++
			}
			b.WriteString(p.src[from : p.pos+n-3])
			p.pos += n
			return b.String()
		case c == '\\' && basic:
			b.WriteString(p.src[from:p.pos])
			if p.lineEndingBackslash() {
				from = p.pos
				continue
			}
			p.escape(&b)
			from = p.pos
		case c == '\n':
			p.pos++
		case c == '\r':
			p.newline()
		case isControl(c):
			p.fail("strings must not contain control characters such as %q", rune(c))
		default:
			p.pos++
		}
	}
}

// lineEndingBackslash skips a \ that ends a line, with the white space and
// newlines after it, and reports whether there was one.
func (p *tomlParser) lineEndingBackslash() bool {
	i := p.pos + 1
	for i < len(p.src) && (p.src[i] == ' ' || p.src[i] == '\t') {
		i++
	}
	if i == len(p.src) || p.src[i] != '\n' && !strings.HasPrefix(p.src[i:], "\r\n") {
		return false
	}
	p.pos = i
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n':
			p.pos++
		case '\r':
			p.newline()
		default:
			return true
		}
	}
	return true
}

// scalar reads a number, boolean or date.
func (p *tomlParser) scalar() any {
	start := p.pos
	p.pos = scalarEnd(p.src, p.pos)
	tok := p.src[start:p.pos]
	switch tok {
	case "true":
		return true
	case "false":
		return false
	case "inf", "+inf":
		return math.Inf(1)
	case "-inf":
		return math.Inf(-1)
	case "nan", "+nan", "-nan":
		return math.NaN()
	}
	if isDatetime(tok) {
		if !validDatetime(tok) {
			p.failAt(start, "%s is not a valid date or time: write it as 1979-05-27, 07:32:00 or 1979-05-27T07:32:00Z", quote(tok))
		}
		return tomlDatetime(tok)
	}
	switch v, ok, err := parseInteger(tok); {
	case ok:
		return v
	case err != nil:
		p.failAt(start, "%s is out of range: integers must be between %d and %d", quote(tok), math.MinInt64, math.MaxInt64)
	}
	if v, ok := parseFloat(tok); ok {
		return v
	}
	if isNumberLike(tok) {
		p.failAt(start, "%s is not a valid number: write integers such as 42, -7, 1_000 or 0xff, and floats such as 0.5 or 1e6", quote(tok))
	}
	p.failAt(start, `expected a value, got %s: quote text, as in "%s"`, quote(tok), strings.ReplaceAll(tok, `"`, `\"`))
	return nil
}

// scalarEnd returns where the bare value starting at i ends. A date followed
// by a space and a time is one value.
func scalarEnd(s string, i int) int {
	start := i
	for i < len(s) && (isAlnum(s[i]) || strings.IndexByte("+-_.:", s[i]) >= 0) {
		i++
	}
	if i-start == 10 && isDate(s[start:i]) && i+3 < len(s) && s[i] == ' ' && isDigit(s[i+1]) && isDigit(s[i+2]) && s[i+3] == ':' {
		return scalarEnd(s, i+1)
	}
	return i
}

// parseInteger reads a TOML integer: decimal with an optional sign, or
// 0x, 0o or 0b with none, with single _ between digits. A well-formed
// integer too large for int64 is an error; anything else is not an integer.
func parseInteger(s string) (int64, bool, error) {
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o' || s[1] == 'b') {
		base := map[byte]int{'x': 16, 'o': 8, 'b': 2}[s[1]]
		if !underscored(s[2:], base) {
			return 0, false, nil
		}
		v, err := strconv.ParseInt(strings.ReplaceAll(s[2:], "_", ""), base, 64)
		return v, err == nil, err
	}
	unsigned := s
	if s != "" && (s[0] == '+' || s[0] == '-') {
		unsigned = s[1:]
	}
	if len(unsigned) > 1 && unsigned[0] == '0' || !underscored(unsigned, 10) {
		return 0, false, nil
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 10, 64)
	return v, err == nil, err
}

// parseFloat reads a TOML float: an integer part, then a fraction, an
// exponent or both.
func parseFloat(s string) (float64, bool) {
	mant, exp, hasExp := strings.Cut(strings.ReplaceAll(s, "E", "e"), "e")
	whole, frac, hasFrac := strings.Cut(mant, ".")
	if !hasExp && !hasFrac {
		return 0, false
	}
	unsigned := strings.TrimLeft(whole, "+-")
	if len(whole)-len(unsigned) > 1 || len(unsigned) > 1 && unsigned[0] == '0' || !underscored(unsigned, 10) {
		return 0, false
	}
	if hasFrac && !underscored(frac, 10) {
		return 0, false
	}
	if hasExp {
		e := exp
		if e != "" && (e[0] == '+' || e[0] == '-') {
			e = e[1:]
		}
		if !underscored(e, 10) {
			return 0, false
		}
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
	return v, err == nil
}

// underscored reports whether s is digits of base with single _ between
// digits.
func underscored(s string, base int) bool {
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '_' && !isDigitOf(c, base) {
			return false
		}
	}
	return true
}

func isDigitOf(c byte, base int) bool {
	switch base {
	case 2:
		return c == '0' || c == '1'
	case 8:
		return '0' <= c && c <= '7'
	case 16:
		return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
	}
	return isDigit(c)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isNumberLike reports whether s starts like a number, so that a message can
// say that it is a bad one.
func isNumberLike(s string) bool {
	s = strings.TrimLeft(s, "+-")
	return s != "" && (isDigit(s[0]) || s[0] == '.' || s[0] == '_')
}

// isDate reports whether s has the shape YYYY-MM-DD.
func isDate(s string) bool {
	return len(s) == 10 && s[4] == '-' && s[7] == '-' && allDigits(s[:4]) && allDigits(s[5:7]) && allDigits(s[8:])
}

// isDatetime reports whether s starts like a date or a time, so that it is
// read as one.
func isDatetime(s string) bool {
	return len(s) >= 10 && allDigits(s[:4]) && s[4] == '-' || len(s) >= 5 && allDigits(s[:2]) && s[2] == ':'
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// validDatetime checks an offset date-time, a local date-time, a local date
// or a local time (TOML 1.1: seconds are optional).
func validDatetime(s string) bool {
	if len(s) >= 3 && s[2] == ':' {
		rest, ok := validTime(s)
		return ok && rest == ""
	}
	if len(s) < 10 || !isDate(s[:10]) {
		return false
	}
	y, _ := strconv.Atoi(s[:4])
	m, _ := strconv.Atoi(s[5:7])
	d, _ := strconv.Atoi(s[8:10])
	if m < 1 || m > 12 || d < 1 || d > daysIn(m, y) {
		return false
	}
	if len(s) == 10 {
		return true
	}
	if c := s[10]; c != 'T' && c != 't' && c != ' ' {
		return false
	}
	rest, ok := validTime(s[11:])
	if !ok {
		return false
	}
	switch {
	case rest == "" || rest == "Z" || rest == "z":
		return true
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':' && allDigits(rest[1:3]) && allDigits(rest[4:]):
		h, _ := strconv.Atoi(rest[1:3])
		mm, _ := strconv.Atoi(rest[4:])
		return h <= 23 && mm <= 59
	}
	return false
}

// validTime checks HH:MM[:SS[.fraction]] at the start of s and returns what
// follows.
func validTime(s string) (rest string, ok bool) {
	if len(s) < 5 || !allDigits(s[:2]) || s[2] != ':' || !allDigits(s[3:5]) {
		return "", false
	}
	h, _ := strconv.Atoi(s[:2])
	m, _ := strconv.Atoi(s[3:5])
	if h > 23 || m > 59 {
		return "", false
	}
	s = s[5:]
	if len(s) == 0 || s[0] != ':' {
		return s, true
	}
	if len(s) < 3 || !allDigits(s[1:3]) {
		return "", false
	}
	if sec, _ := strconv.Atoi(s[1:3]); sec > 59 {
		return "", false
	}
	s = s[3:]
	if len(s) > 0 && s[0] == '.' {
		i := 1
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == 1 {
			return "", false
		}
		s = s[i:]
	}
	return s, true
}

// daysIn returns the number of days of month m in year y.
func daysIn(m, y int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
