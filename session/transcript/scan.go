package transcript

import (
	"unicode/utf8"

	"muse/session"
)

// Sizing an entry before it is decoded. An export whose one entry held a
// 150 MB text was decoded whole, copied some ten times over, before the
// record it makes was found too large for a journal: the import ran out of
// memory first. So each entry's extent is found by scanning the bytes of
// the input as they are read, counting what its record will take, and an
// entry too large is refused once the count passes the limit: the scan
// holds no more than the limit of it. The JSON is checked by encoding/json
// afterwards; the scan only finds where a value ends.

// Limits of an entry in an export.
const (
	// maxEntry is the most an entry's JSON may take once compacted, its
	// strings as a journal writes them: its record may take no more.
	maxEntry = session.MaxRecord
	// maxEntryInput is the most an entry may take of the input, white
	// space and escapes (\u00e9 takes 6 bytes for 2) included.
	maxEntryInput = 3 * session.MaxRecord
	// maxFile is the largest file muse stores, and maxFileInput the most
	// the base64 of one may take, decoded from JSON: line breaks in it
	// are let be.
	maxFile      = max(session.MaxImageBytes, session.MaxAttachmentBytes)
	maxFileInput = (maxFile + 2) / 3 * 4 * 33 / 32
	// bigString is the length from which a string of an entry is left
	// out of the decoding that checks its fields (see shrunk).
	bigString = 16 << 10
)

// extent is what scan found of a JSON value of the input.
type extent struct {
	start, end int64 // its offsets: end is just past it
	// size is its size compacted, its strings written as a journal
	// writes them; a raw U+2028 or U+2029, or a byte that is not UTF-8,
	// counts less than the journal's \u escape (a record too large for
	// them is refused as it is saved).
	size int64
	// big are the offsets of the strings, not object keys, of at least
	// bigString bytes: just past the opening quote, and at the closing one.
	big [][2]int64
	// tooLarge is set when the value takes more than maxEntry compacted
	// or maxEntryInput bytes of the input: end is where the scan stopped.
	tooLarge bool
}

// scan finds the extent of the object that starts at start, reading the
// input as it goes. It reports false when the bytes are not an object it
// can delimit (the end of the input comes first, a string holds a control
// character or a bad escape, a bracket closes another): encoding/json
// says what is wrong. Not every object scan delimits is valid JSON.
func (p *parser) scan(start int64) (extent, bool) {
	x := extent{start: start}
	if c, ok := p.in.byteAt(start); !ok || c != '{' {
		return x, false
	}
	var stack []byte // the closing brackets awaited
	inString := false
	var strAt, strSize int64 // the string being read: past its quote, and its size
	pending := false         // the last of x.big may be a key: what follows it tells
	for at := start; ; at++ {
		if x.size > maxEntry || at-start > maxEntryInput {
			x.end, x.tooLarge = at, true
			return x, true
		}
		c, ok := p.in.byteAt(at)
		if !ok {
			return x, false
		}
		if inString {
			switch {
			case c == '"':
				inString = false
				if strSize >= bigString {
					x.big = append(x.big, [2]int64{strAt, at})
					pending = true
				}
				x.size++
			case c == '\\':
				n, size, ok := p.escape(at)
				if !ok {
					return x, false
				}
				at += n - 1
				x.size += size
				strSize += size
			case c < 0x20:
				return x, false
			default:
				x.size++
				strSize++
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '"':
			inString, strAt, strSize = true, at+1, 0
		case ':':
			if pending {
				x.big = x.big[:len(x.big)-1] // a key: kept
			}
		case '{':
			stack = append(stack, '}')
		case '[':
			stack = append(stack, ']')
		case '}', ']':
			if len(stack) == 0 || stack[len(stack)-1] != c {
				return x, false
			}
			stack = stack[:len(stack)-1]
		}
		if c != '"' {
			pending = false
		}
		x.size++
		if len(stack) == 0 {
			x.end = at + 1
			return x, true
		}
	}
}

// scanString finds the extent of the string that starts at start, its size
// being the bytes it holds decoded (an escape counts one), as scan does a
// value; tooLarge is set past maxFileInput bytes, or twice as many of the
// input.
func (p *parser) scanString(start int64) (extent, bool) {
	x := extent{start: start}
	if c, ok := p.in.byteAt(start); !ok || c != '"' {
		return x, false
	}
	for at := start + 1; ; at++ {
		if x.size > maxFileInput || at-start > 2*maxFileInput {
			x.end, x.tooLarge = at, true
			return x, true
		}
		c, ok := p.in.byteAt(at)
		switch {
		case !ok || c < 0x20:
			return x, false
		case c == '"':
			x.end = at + 1
			return x, true
		case c == '\\':
			at++
		}
		x.size++
	}
}

// escape reads the escape at the offset at of a string: it returns how
// many bytes of the input it takes, and how many a journal writes for it.
func (p *parser) escape(at int64) (n, size int64, ok bool) {
	c, ok := p.in.byteAt(at + 1)
	switch {
	case !ok:
		return 0, 0, false
	case c == '/':
		return 2, 1, true
	case c == '"' || c == '\\' || c == 'b' || c == 'f' || c == 'n' || c == 'r' || c == 't':
		return 2, 2, true
	case c != 'u':
		return 0, 0, false
	}
	var r rune
	for i := range int64(4) {
		h, ok := p.in.byteAt(at + 2 + i)
		if !ok {
			return 0, 0, false
		}
		switch {
		case '0' <= h && h <= '9':
			r = r<<4 | rune(h-'0')
		case 'a' <= h && h <= 'f':
			r = r<<4 | rune(h-'a'+10)
		case 'A' <= h && h <= 'F':
			r = r<<4 | rune(h-'A'+10)
		default:
			return 0, 0, false
		}
	}
	switch {
	case r == '\b' || r == '\f' || r == '\n' || r == '\r' || r == '\t' || r == '"' || r == '\\':
		size = 2
	case r < 0x20 || r == '\u2028' || r == '\u2029':
		size = 6
	case 0xD800 <= r && r < 0xE000:
		size = 2 // of a pair's 4
	default:
		size = int64(utf8.RuneLen(r))
	}
	return 6, size, true
}

// shrunk returns the entry raw, whose extent is x, with its big strings
// emptied: what decoding it strictly checks is the same (the fields, their
// kinds), without copies of the long text.
func shrunk(raw []byte, x extent) []byte {
	if len(x.big) == 0 {
		return raw
	}
	size := int64(len(raw))
	for _, b := range x.big {
		size -= b[1] - b[0]
	}
	out := make([]byte, 0, size)
	prev := int64(0)
	for _, b := range x.big {
		out = append(out, raw[prev:b[0]-x.start]...)
		prev = b[1] - x.start
	}
	return append(out, raw[prev:]...)
}
