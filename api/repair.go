package api

import (
	"encoding/json"
	"strings"
)

// RepairJSON completes a JSON text that was cut off: it keeps every value
// that finished, drops the unfinished one (a string, number or key cut in the
// middle) and closes the open arrays and objects. Text after the first
// complete top-level value is dropped. It returns {} when nothing usable is
// left, and its result is always valid JSON. It runs in linear time.
func RepairJSON(s string) json.RawMessage {
	end := safeEnd(s)
	if end < 0 {
		return json.RawMessage("{}")
	}
	out := s[:end] + closers(s[:end])
	if !json.Valid([]byte(out)) {
		return json.RawMessage("{}")
	}
	return json.RawMessage(out)
}

// safeEnd scans s once and returns the end of its longest prefix that ends
// just after a complete value or an opening bracket, where closing the open
// brackets gives JSON; -1 if there is none. Keys are not such ends: a key
// needs its value.
func safeEnd(s string) int {
	// expectKey has one entry per open bracket: whether the next string in
	// it is a key (true only in an object, before its colon).
	var expectKey []bool
	var inObj []bool
	safe := -1
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c == '{' || c == '[':
			inObj = append(inObj, c == '{')
			expectKey = append(expectKey, c == '{')
			i++
		case c == '}' || c == ']':
			if len(inObj) == 0 {
				return safe
			}
			inObj, expectKey = inObj[:len(inObj)-1], expectKey[:len(expectKey)-1]
			i++
		case c == ',' || c == ':':
			if n := len(inObj); n > 0 && inObj[n-1] {
				expectKey[n-1] = c == ','
			}
			i++
			continue
		case c == '"':
			end := stringEnd(s, i+1)
			if end < 0 {
				return safe
			}
			n := len(inObj)
			i = end
			if n > 0 && inObj[n-1] && expectKey[n-1] {
				continue // a key is not a value
			}
		default:
			j := i
			for j < len(s) && isLiteralByte(s[j]) {
				j++
			}
			if j == i || j == len(s) {
				return safe // not a literal, or a literal that may be cut short
			}
			i = j
		}
		safe = i
		if len(inObj) == 0 {
			return safe // the first top-level value is complete
		}
	}
	return safe
}

// closers returns the brackets that close those left open in s, a prefix
// that ends outside any string.
func closers(s string) string {
	var open []byte
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			end := stringEnd(s, i+1)
			if end < 0 {
				return "" // cannot happen for a safe prefix; the result is checked anyway
			}
			i = end - 1
		case '{':
			open = append(open, '}')
		case '[':
			open = append(open, ']')
		case '}', ']':
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		}
	}
	var b strings.Builder
	b.Grow(len(open))
	for k := len(open) - 1; k >= 0; k-- {
		b.WriteByte(open[k])
	}
	return b.String()
}

func isLiteralByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '+' || c == '-' || c == '.'
}

// stringEnd returns the index just past the closing quote of a JSON string
// whose body starts at i, or -1 when the string is not closed.
func stringEnd(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case '\\':
			i += 2
		case '"':
			return i + 1
		default:
			i++
		}
	}
	return -1
}
