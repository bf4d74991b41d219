package sanitize

import (
	"unicode/utf16"
	"unicode/utf8"
)

// JSON returns the JSON text b with every rune that encoding/json leaves raw
// but a terminal or a JavaScript parser may act on written as a \u escape:
// DEL, the C1 controls U+0080–U+009F, the line and paragraph separators
// U+2028 and U+2029, and every invisible format character (the bidi
// embedding, override and isolate controls U+202A–U+202E and U+2066–U+2069,
// zero-width characters, tag characters and the rest of invisible.go's
// list, those beyond the Basic Multilingual Plane as a surrogate pair), so
// that a JSON file printed shows what it holds. Each byte that is not
// valid UTF-8 becomes \ufffd, which is what a decoder reads it as.
//
// In valid JSON these runes can only occur inside strings, where the escape
// means the same rune, so the result decodes to the same value as b. Other
// bytes, including the C0 controls that encoding/json already escapes, are
// left alone. b is returned unchanged, without allocating, when there is
// nothing to rewrite; otherwise b itself is not modified.
func JSON(b []byte) []byte {
	i := jsonCleanPrefix(b)
	if i == len(b) {
		return b
	}
	out := make([]byte, 0, len(b)+len(b)/16+16)
	out = append(out, b[:i]...)
	for i < len(b) {
		// b[i] starts DEL, a byte that is not valid UTF-8 (decoded as
		// U+FFFD) or a rune to escape.
		r, n := utf8.DecodeRune(b[i:])
		out = appendEscape(out, r)
		i += n
		j := i + jsonCleanPrefix(b[i:])
		out = append(out, b[i:j]...)
		i = j
	}
	return out
}

// jsonCleanPrefix returns the length of the longest prefix of b that JSON
// keeps unchanged.
func jsonCleanPrefix(b []byte) int {
	i := 0
	for i < len(b) {
		c := b[i]
		if c < del {
			i++
			continue
		}
		if c == del {
			return i
		}
		r, n := utf8.DecodeRune(b[i:])
		if n == 1 || jsonEscaped(r) {
			return i
		}
		i += n
	}
	return i
}

// jsonEscaped reports whether JSON writes the valid rune r as an escape.
func jsonEscaped(r rune) bool {
	return r <= 0x9f || r == 0x2028 || r == 0x2029 || isInvisible(r)
}

// appendEscape appends r as a \u escape of four lowercase hex digits, or
// two (a surrogate pair) beyond the Basic Multilingual Plane.
func appendEscape(out []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	if r > 0xffff {
		hi, lo := utf16.EncodeRune(r)
		return appendEscape(appendEscape(out, hi), lo)
	}
	return append(out, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}

// ForExport makes an export of a session safe to print or save: Markdown
// ("md") loses its escape sequences and control characters other than
// newline and tab (Plain); JSON keeps every text, with its control
// characters escaped (JSON).
func ForExport(format string, data []byte) []byte {
	if format == "json" {
		return JSON(data)
	}
	return []byte(Plain(string(data)))
}
