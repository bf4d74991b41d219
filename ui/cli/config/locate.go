package config

import (
	"slices"
	"strconv"
	"strings"
)

// lines maps a key path to the line where that key, table header or array
// element starts. The TOML decoder reports no positions for the values it
// hands back, so the file is scanned a second time for them.
//
// A path is a list of segments: key names, and index(i) for the i-th element
// of an array or array of tables.
type lines map[string]int

// pathKey joins path segments into a map key.
func pathKey(segs ...string) string { return strings.Join(segs, "\x00") }

// index is the path segment for the i-th element of an array.
func index(i int) string { return "\x01" + strconv.Itoa(i) }

// at returns the line of the path, or of its nearest ancestor that has one,
// or 0.
func (l lines) at(segs ...string) int {
	for n := len(segs); n > 0; n-- {
		if ln, ok := l[pathKey(segs[:n]...)]; ok {
			return ln
		}
	}
	return 0
}

// scanLines finds the line of every key in src, which the TOML decoder has
// already accepted. On input it does not understand it skips to the next line
// rather than fail: a missing entry only makes a message less precise.
func scanLines(src string) lines {
	s := &scanner{src: src, line: 1, out: lines{}, aot: map[string]int{}}
	var table []string
	for {
		s.skipBlank()
		if s.pos >= len(s.src) {
			return s.out
		}
		start := s.pos
		if s.src[s.pos] == '[' {
			table = s.header()
		} else {
			s.keyValue(table)
		}
		if s.pos == start {
			s.skipLine()
		}
	}
}

// scanner walks TOML text, recording lines in out.
type scanner struct {
	src  string
	pos  int
	line int
	out  lines
	aot  map[string]int // array-of-tables path → number of elements so far
}

func (s *scanner) peek() byte {
	if s.pos < len(s.src) {
		return s.src[s.pos]
	}
	return 0
}

// set records the line of a path, keeping the first line seen unless
// overwrite is set.
func (s *scanner) set(path []string, line int, overwrite bool) {
	k := pathKey(path...)
	if _, ok := s.out[k]; !ok || overwrite {
		s.out[k] = line
	}
}

// skipSpace skips spaces and tabs.
func (s *scanner) skipSpace() {
	for s.pos < len(s.src) && (s.src[s.pos] == ' ' || s.src[s.pos] == '\t') {
		s.pos++
	}
}

// skipBlank skips white space, newlines and comments.
func (s *scanner) skipBlank() {
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case '\n':
			s.line++
			s.pos++
		case ' ', '\t', '\r':
			s.pos++
		case '#':
			s.skipLine()
		default:
			return
		}
	}
}

// skipLine moves to the newline that ends the current line.
func (s *scanner) skipLine() {
	if i := strings.IndexByte(s.src[s.pos:], '\n'); i >= 0 {
		s.pos += i
	} else {
		s.pos = len(s.src)
	}
}

// header reads a [table] or [[array]] header and returns the table's path.
func (s *scanner) header() []string {
	line := s.line
	s.pos++
	aot := s.peek() == '['
	if aot {
		s.pos++
	}
	segs := s.keyPath()
	s.skipLine()
	var path []string
	for i, seg := range segs {
		path = append(path, seg)
		k := pathKey(path...)
		if i == len(segs)-1 && aot {
			n := s.aot[k]
			s.aot[k] = n + 1
			s.set(path, line, false)
			path = append(path, index(n))
		} else if n, ok := s.aot[k]; ok {
			path = append(path, index(n-1))
		}
	}
	s.set(path, line, true)
	return path
}

// keyValue reads "key = value" inside table.
func (s *scanner) keyValue(table []string) {
	line := s.line
	segs := s.keyPath()
	s.skipSpace()
	if len(segs) == 0 || s.peek() != '=' {
		return
	}
	s.pos++
	s.skipSpace()
	path := append(slices.Clone(table), segs...)
	for i := len(table) + 1; i < len(path); i++ {
		s.set(path[:i], line, false)
	}
	s.set(path, line, true)
	s.value(path)
}

// value skips one value, recording the keys and elements inside it.
func (s *scanner) value(path []string) {
	rest := s.src[s.pos:]
	switch {
	case strings.HasPrefix(rest, `"""`):
		s.pos += 3
		s.until(`"""`, true)
	case strings.HasPrefix(rest, "'''"):
		s.pos += 3
		s.until("'''", false)
	case strings.HasPrefix(rest, `"`):
		s.pos++
		s.until(`"`, true)
	case strings.HasPrefix(rest, "'"):
		s.pos++
		s.until("'", false)
	case strings.HasPrefix(rest, "["):
		s.array(path)
	case strings.HasPrefix(rest, "{"):
		s.inline(path)
	default:
		for s.pos < len(s.src) && !strings.ContainsRune(",]}#\r\n", rune(s.src[s.pos])) {
			s.pos++
		}
	}
}

// until moves past the closing delimiter of a string, counting newlines and,
// in basic strings, skipping escaped characters. Up to two quotes right after
// a multi-line closing delimiter belong to the string.
func (s *scanner) until(end string, escapes bool) {
	for s.pos < len(s.src) {
		switch c := s.src[s.pos]; {
		case escapes && c == '\\':
			s.pos++
			if s.peek() == '\n' {
				s.line++
			}
			s.pos++
		case strings.HasPrefix(s.src[s.pos:], end):
			s.pos += len(end)
			for n := 0; len(end) == 3 && n < 2 && s.peek() == end[0]; n++ {
				s.pos++
			}
			return
		default:
			if c == '\n' {
				s.line++
			}
			s.pos++
		}
	}
}

// array reads [v, v, ...], recording each element's line.
func (s *scanner) array(path []string) {
	s.pos++
	for i := 0; s.pos < len(s.src); {
		s.skipBlank()
		switch s.peek() {
		case ']':
			s.pos++
			return
		case ',':
			s.pos++
			continue
		}
		elem := append(slices.Clone(path), index(i))
		s.set(elem, s.line, true)
		start := s.pos
		s.value(elem)
		if s.pos == start {
			s.pos++
		}
		i++
	}
}

// inline reads { k = v, ... }, recording each key's line.
func (s *scanner) inline(path []string) {
	s.pos++
	for s.pos < len(s.src) {
		s.skipBlank()
		switch s.peek() {
		case '}':
			s.pos++
			return
		case ',':
			s.pos++
			continue
		}
		line := s.line
		segs := s.keyPath()
		s.skipSpace()
		if len(segs) == 0 || s.peek() != '=' {
			s.pos++
			continue
		}
		s.pos++
		s.skipSpace()
		key := append(slices.Clone(path), segs...)
		for i := len(path) + 1; i < len(key); i++ {
			s.set(key[:i], line, false)
		}
		s.set(key, line, true)
		s.value(key)
	}
}

// keyPath reads a dotted key such as a."b.c".d.
func (s *scanner) keyPath() []string {
	var segs []string
	for {
		s.skipSpace()
		seg, ok := s.key()
		if !ok {
			return segs
		}
		segs = append(segs, seg)
		s.skipSpace()
		if s.peek() != '.' {
			return segs
		}
		s.pos++
	}
}

// key reads one bare, basic-quoted or literal-quoted key.
func (s *scanner) key() (string, bool) {
	start := s.pos
	switch s.peek() {
	case '"':
		s.pos++
		s.until(`"`, true)
		raw := s.src[start:s.pos]
		if k, err := strconv.Unquote(raw); err == nil {
			return k, true
		}
		return strings.Trim(raw, `"`), true
	case '\'':
		s.pos++
		s.until("'", false)
		return strings.Trim(s.src[start:s.pos], "'"), true
	}
	for s.pos < len(s.src) && isBare(s.src[s.pos]) {
		s.pos++
	}
	return s.src[start:s.pos], s.pos > start
}

func isBare(c byte) bool {
	return c == '_' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
