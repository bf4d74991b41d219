package index

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// fold returns the word w as the index compares words: lowercase, its
// accents removed.
func fold(w string) string {
	w = strings.ToLower(w)
	for _, r := range w {
		if r >= 0x80 {
			return strings.Map(func(r rune) rune {
				if unicode.Is(unicode.Mn, r) {
					return -1
				}
				return r
			}, norm.NFD.String(w))
		}
	}
	return w
}
