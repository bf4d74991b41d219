package config

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Error is a problem in a configuration or tools file, at a known place.
// Callers treat it as a usage error.
type Error struct {
	Path string // the file
	Line int    // 1-based line, 0 when unknown
	Col  int    // 1-based column, 0 when unknown
	Msg  string // what is wrong and what is expected
}

// Error formats the problem as "FILE:LINE:COL: MSG", leaving out the parts
// that are unknown.
func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	default:
		return fmt.Sprintf("%s: %s", e.Path, e.Msg)
	}
}

// describe names a parsed TOML value's type and, for scalars, shows the
// value, as in `string "lots"`. Long strings are shortened.
func describe(v any) string {
	switch v := v.(type) {
	case string:
		return "string " + quote(v)
	case int64:
		return fmt.Sprintf("integer %d", v)
	case float64:
		return fmt.Sprintf("float %v", v)
	case bool:
		return fmt.Sprintf("boolean %t", v)
	case tomlDatetime:
		return "date-time " + string(v)
	case *tomlArray:
		return "array"
	case *tomlTable:
		return "table"
	case json.Number:
		return "number " + string(v)
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case nil:
		return "null"
	default:
		return fmt.Sprintf("%T", v)
	}
}

// quote quotes s for a message, escaping control characters and invalid
// UTF-8, and cutting it short when it is long.
func quote(s string) string {
	const max = 60
	n := 0
	for i := range s {
		if n == max {
			return fmt.Sprintf("%q", s[:i]+"…")
		}
		n++
	}
	return fmt.Sprintf("%q", s)
}

// suggest returns ` (did you mean "x"?)` for the known name closest to name,
// or "" when none is close.
func suggest(name string, known []string) string {
	if len(name) > 64 {
		return ""
	}
	best, bestD := "", -1
	for _, k := range known {
		d := distance(strings.ToLower(name), k)
		if bestD < 0 || d < bestD {
			best, bestD = k, d
		}
	}
	if bestD >= 0 && (bestD <= 2 || bestD <= len(name)/3) {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	// An abbreviation, such as "cmd" for "command".
	best = ""
	for _, k := range known {
		if len(name) >= 3 && subsequence(strings.ToLower(name), k) && (best == "" || len(k) < len(best)) {
			best = k
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// subsequence reports whether the bytes of a appear in b in order.
func subsequence(a, b string) bool {
	for i := 0; i < len(b) && a != ""; i++ {
		if b[i] == a[0] {
			a = a[1:]
		}
	}
	return a == ""
}

// distance is the Levenshtein edit distance between a and b.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
