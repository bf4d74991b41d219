package sanitize

import (
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// MaxCluster is how many code points a grapheme cluster keeps; the rest of
// a longer one is dropped. A cluster draws as one character one or two
// columns wide however many code points it holds ("a" and 40,000 combining
// acute accents is one), so nothing that wraps or cuts text by columns can
// break it, and the wrappers that measure a word again for each code point
// they add (muesli/reflow's, in glamour) took time quadratic in its length:
// 80 KB of accents on one letter took 20 s to print. The longest clusters
// real text holds are far shorter: emoji ZWJ sequences (👩🏻‍❤️‍💋‍👨🏼 is 10
// code points), flag tag sequences (7), stacked Indic and Tibetan
// consonants (under 10), and Unicode's Stream-Safe Text Format (UAX #15)
// itself allows at most 30 non-starters in a row. 32 keeps all of them
// and bounds a cluster at 128 bytes.
const MaxCluster = 32

// capClusters returns s with each grapheme cluster cut to its first
// MaxCluster code points, less a ZWJ left at the end of what is kept
// (which would join the cluster to an emoji after it). After its first
// code point a cluster holds only non-ASCII ones (but the LF of CR LF), so
// only a run of more than MaxCluster-1 non-ASCII code points can hold one
// too long: s is returned unchanged, without allocating, when it has none,
// and only such runs are segmented.
func capClusters(s string) string {
	start, end := longRun(s, 0)
	if start < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	done := 0
	for start >= 0 {
		from := max(start-1, done) // the cluster's first code point may be ASCII
		b.WriteString(s[done:from])
		state := -1
		for pos := from; pos < end; {
			c, _, _, st := uniseg.FirstGraphemeClusterInString(s[pos:end], state)
			pos, state = pos+len(c), st
			b.WriteString(capCluster(c))
		}
		done = end
		start, end = longRun(s, end)
	}
	b.WriteString(s[done:])
	return b.String()
}

// capCluster returns the first MaxCluster code points of the cluster c,
// without a ZWJ at their end, or c when it is not longer.
func capCluster(c string) string {
	n, k := 0, 0
	for k < len(c) {
		if n == MaxCluster {
			return strings.TrimRight(c[:k], "\u200d")
		}
		_, size := utf8.DecodeRuneInString(c[k:])
		k += size
		n++
	}
	return c
}

// longRun returns where the first run of more than MaxCluster-1 non-ASCII
// code points in s at or after from starts and ends, or -1, -1.
func longRun(s string, from int) (int, int) {
	start, runes := -1, 0
	for i := from; i < len(s); i++ {
		switch c := s[i]; {
		case c < utf8.RuneSelf:
			if runes >= MaxCluster {
				return start, i
			}
			start, runes = -1, 0
		case utf8.RuneStart(c):
			if start < 0 {
				start = i
			}
			runes++
		}
	}
	if runes >= MaxCluster {
		return start, len(s)
	}
	return -1, -1
}

// clustersFit reports whether no grapheme cluster of s holds more than
// MaxCluster code points, without allocating.
func clustersFit(s string) bool {
	for start, end := longRun(s, 0); start >= 0; start, end = longRun(s, end) {
		state := -1
		for pos := max(start-1, 0); pos < end; {
			c, _, _, st := uniseg.FirstGraphemeClusterInString(s[pos:end], state)
			if len(c) > MaxCluster && capCluster(c) != c {
				return false
			}
			pos, state = pos+len(c), st
		}
	}
	return true
}
