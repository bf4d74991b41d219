package tomlfile

import (
	"fmt"
	"strings"
)

// Suggest returns ` (did you mean "x"?)` for the known name closest to name,
// or "" when none is close.
func Suggest(name string, known []string) string {
	if len(name) > 64 {
		return ""
	}
	lower := strings.ToLower(name)
	best, bestD := "", -1
	for _, k := range known {
		d := distance(lower, k)
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
		if len(name) >= 3 && subsequence(lower, k) && (best == "" || len(k) < len(best)) {
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
	var bufA, bufB [64]rune
	var bufP, bufC [65]int
	ra, rb := append(bufA[:0], []rune(a)...), append(bufB[:0], []rune(b)...)
	prev, cur := bufP[:0], bufC[:0]
	if len(rb) >= len(bufP) {
		prev, cur = make([]int, 0, len(rb)+1), make([]int, 0, len(rb)+1)
	}
	prev, cur = prev[:len(rb)+1], cur[:len(rb)+1]
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
