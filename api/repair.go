package api

import (
	"encoding/json"
	"strings"
)

// RepairJSON completes a JSON text that was cut off: it keeps every value
// that finished, drops the unfinished one (a string, number or key cut in the
// middle) and closes the open arrays and objects. It returns {} when nothing
// usable is left.
func RepairJSON(s string) json.RawMessage {
	type frame struct{ obj, expectKey bool }
	var stack, safeStack []frame
	safeEnd := -1
	markSafe := func(end int) {
		safeEnd = end
		safeStack = append(safeStack[:0], stack...)
	}
	i := 0
scan:
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '{' || c == '[':
			stack = append(stack, frame{obj: c == '{', expectKey: c == '{'})
			i++
			markSafe(i)
		case c == '}' || c == ']':
			if len(stack) == 0 {
				break scan
			}
			stack = stack[:len(stack)-1]
			i++
			markSafe(i)
		case c == ',':
			if n := len(stack); n > 0 && stack[n-1].obj {
				stack[n-1].expectKey = true
			}
			i++
		case c == ':':
			if n := len(stack); n > 0 && stack[n-1].obj {
				stack[n-1].expectKey = false
			}
			i++
		case c == '"':
			end := stringEnd(s, i+1)
			if end < 0 {
				break scan
			}
			isKey := len(stack) > 0 && stack[len(stack)-1].obj && stack[len(stack)-1].expectKey
			i = end
			if !isKey {
				markSafe(i)
			}
		default:
			j := i
			for j < len(s) && strings.IndexByte("+-.0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", s[j]) >= 0 {
				j++
			}
			if j == i || j == len(s) {
				break scan // not a literal, or a literal that may be cut short
			}
			i = j
			markSafe(i)
		}
	}
	if safeEnd < 0 {
		return json.RawMessage("{}")
	}
	var b strings.Builder
	b.WriteString(s[:safeEnd])
	for k := len(safeStack) - 1; k >= 0; k-- {
		if safeStack[k].obj {
			b.WriteByte('}')
		} else {
			b.WriteByte(']')
		}
	}
	out := b.String()
	if !json.Valid([]byte(out)) {
		return json.RawMessage("{}")
	}
	return json.RawMessage(out)
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
