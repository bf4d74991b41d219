package sanitize

import (
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// Invisible format characters (Unicode's default-ignorable code points:
// category Cf, the variation selectors, the Hangul fillers and the rest of
// Other_Default_Ignorable_Code_Point) draw nothing, so untrusted text could
// use them to hide words from a reader (tag characters spell whole
// sentences) or to make two different titles, file names or tool names
// look the same. Each is kept only where it does visible work:
//
//   - ZWJ U+200D inside a grapheme cluster, joining an emoji sequence such as
//     👨‍👩‍👧 (as uniseg segments it);
//   - ZWJ and ZWNJ U+200C between two letters of a script that joins or forms
//     conjuncts (Arabic, Syriac, the Indic scripts, …), where they choose
//     the letters' shapes;
//   - one variation selector directly after a symbol or an "other" letter
//     (emoji presentation, CJK ideographic variants), and U+FE0F in a keycap
//     sequence such as 1️⃣;
//   - tag characters in an emoji tag sequence (🏴 + 1–6 tags + CANCEL TAG,
//     the subdivision flags);
//   - the marks LRM, RLM and ALM in text that has right-to-left letters.
//
// Every other one is removed by [Text] and [Plain], and shown by [Line] as a
// visible escape such as <U+200B>, so a single-line name that differs from
// another only by invisible characters no longer looks the same. Prepended
// concatenation marks (U+0600–U+0605 and kin) are Cf but visible, and stay.
// Look-alike letters from other scripts (homoglyphs) are not this package's
// concern.

// isInvisible reports whether r is an invisible format character: in
// Unicode's Cf (but not a prepended concatenation mark), Variation_Selector
// or Other_Default_Ignorable_Code_Point, spelled out as ranges because the
// check runs on every non-ASCII rune (TestIsInvisibleTable holds it to the
// tables).
func isInvisible(r rune) bool {
	switch {
	case r < 0x2000:
		return r == 0xad || r == 0x34f || r == 0x61c || r == 0x115f || r == 0x1160 ||
			r == 0x17b4 || r == 0x17b5 || r >= 0x180b && r <= 0x180f
	case r < 0x3000:
		return r >= 0x200b && r <= 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2060 && r <= 0x206f
	case r < 0x10000:
		return r == 0x3164 || r >= 0xfe00 && r <= 0xfe0f || r == 0xfeff || r == 0xffa0 || r >= 0xfff0 && r <= 0xfffb
	default:
		return r >= 0xe0000 && r <= 0xe0fff || r >= 0x13430 && r <= 0x1343f ||
			r >= 0x1bca0 && r <= 0x1bca3 || r >= 0x1d173 && r <= 0x1d17a
	}
}

// countWork, when set by a test, is told how many bytes each step scans.
var countWork func(n int)

// nextInvisible returns the index of the first invisible format character
// in s at or after i, or len(s).
func nextInvisible(s string, i int) int {
	start := i
	for i < len(s) {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if isInvisible(r) {
			break
		}
		i += n
	}
	if countWork != nil {
		countWork(i - start)
	}
	return i
}

// clusterStart returns a grapheme cluster boundary at or before j and at or
// after floor, itself a boundary: just after a line feed, or between two
// ASCII characters other than CR LF, where no rule joins across.
func clusterStart(s string, floor, j int) int {
	k := j
	for ; k > floor; k-- {
		if s[k-1] == '\n' || s[k-1] < utf8.RuneSelf && s[k] < utf8.RuneSelf && s[k-1] != '\r' {
			break
		}
	}
	if countWork != nil {
		countWork(j - k)
	}
	return k
}

// invisibles applies the rules above to s, which has no escape sequences
// other than SGR, no controls and no bidi controls left, and no invisible
// character before from; rtl says that right-to-left text came before s
// (in a stream). It returns s itself,
// without allocating, when every invisible character in it stays, and
// whether anything went. With check set it only answers that, never
// allocating.
func invisibles(s string, from int, m mode, rtl, check bool) (string, bool) {
	j := nextInvisible(s, from)
	if j == len(s) {
		return s, false
	}
	w := invWriter{s: s, line: m == modeLine, rtl: -1, check: check}
	if rtl {
		w.rtl = 1
	}
	done := 0 // a cluster boundary: s[:done] has been decided
	for j < len(s) && !w.changed {
		pos := clusterStart(s, done, j)
		state := -1
		for pos <= j {
			cluster, _, _, st := uniseg.FirstGraphemeClusterInString(s[pos:], state)
			if countWork != nil {
				countWork(len(cluster))
			}
			if pos+len(cluster) > j {
				w.cluster(pos, cluster)
			}
			pos, state = pos+len(cluster), st
		}
		done = pos
		j = nextInvisible(s, done)
	}
	return w.finish(), w.out != nil || w.changed
}

// invWriter builds the result of invisibles, allocating only when an
// invisible character goes.
type invWriter struct {
	s      string
	out    []byte // nil until the first change
	copied int    // s[:copied] is in out
	line   bool   // show what goes as <U+XXXX>
	rtl    int    // -1 unknown, else 1 when s has a right-to-left letter
	check  bool   // only find out whether anything goes
	// changed is set in check mode when something would go.
	changed bool
}

// cluster decides each invisible character of the grapheme cluster c,
// which starts at s[pos].
func (w *invWriter) cluster(pos int, c string) {
	tagsEnd := -1
	shown := false // an escape written in Line mode splits the cluster
	for k := 0; k < len(c); {
		r, n := utf8.DecodeRuneInString(c[k:])
		if !isInvisible(r) {
			k += n
			continue
		}
		at := pos + k
		keep := false
		switch {
		case r == 0x200d && k+n < len(c):
			next, _ := utf8.DecodeRuneInString(c[k+n:])
			prev := w.prev(at)
			keep = !shown && prev >= utf8.RuneSelf && !unicode.IsMark(next) && !isInvisible(next)
			if !keep {
				keep = w.joins(at, at+n)
			}
		case r == 0x200c || r == 0x200d:
			keep = w.joins(at, at+n)
		case unicode.Is(unicode.Variation_Selector, r):
			keep = w.selects(at, at+n, r)
		case r == 0xe0001 || r >= 0xe0020 && r <= 0xe007f:
			if tagsEnd < 0 {
				tagsEnd = flagTags(c)
			}
			keep = k < tagsEnd
		case r == 0x200e || r == 0x200f || r == 0x061c:
			keep = w.hasRTL()
		}
		if !keep {
			w.drop(at, n, r)
			shown = w.line
		}
		k += n
	}
}

// prev returns the last rune of the result so far, just before s[at], or
// utf8.RuneError at the start.
func (w *invWriter) prev(at int) rune {
	if at > w.copied || w.out == nil {
		r, _ := utf8.DecodeLastRuneInString(w.s[:at])
		return r
	}
	r, _ := utf8.DecodeLastRune(w.out)
	return r
}

// joins reports whether a ZWJ or ZWNJ between the result so far and s[next:]
// stands between two letters of a joining script.
func (w *invWriter) joins(at, next int) bool {
	a, b := w.prev(at), rune(utf8.RuneError)
	if next < len(w.s) {
		b, _ = utf8.DecodeRuneInString(w.s[next:])
	}
	return (unicode.IsLetter(a) || unicode.IsMark(a)) && unicode.In(a, joiningScripts...) &&
		unicode.IsLetter(b) && unicode.In(b, joiningScripts...)
}

// selects reports whether the variation selector r at s[at:next] follows a
// base it can select a form of.
func (w *invWriter) selects(at, next int, r rune) bool {
	base := w.prev(at)
	if base < utf8.RuneSelf {
		keycap := r == 0xfe0f && (base >= '0' && base <= '9' || base == '#' || base == '*')
		return keycap && next+3 <= len(w.s) && w.s[next:next+3] == "\u20e3"
	}
	return !isInvisible(base) && (unicode.IsSymbol(base) || unicode.Is(unicode.Lo, base))
}

// hasRTL reports whether s has a right-to-left letter, deciding once.
func (w *invWriter) hasRTL() bool {
	if w.rtl < 0 {
		w.rtl = 0
		for _, r := range w.s {
			if r >= 0x590 && unicode.IsLetter(r) && unicode.In(r, rtlScripts...) {
				w.rtl = 1
				break
			}
		}
		if countWork != nil {
			countWork(len(w.s))
		}
	}
	return w.rtl == 1
}

// drop removes the invisible rune r at s[at:at+n], or shows it in Line mode.
func (w *invWriter) drop(at, n int, r rune) {
	if w.check {
		w.changed = true
		return
	}
	if w.out == nil {
		w.out = make([]byte, 0, len(w.s)+16)
	}
	w.out = append(w.out, w.s[w.copied:at]...)
	if w.line {
		w.out = append(w.out, "<U+"...)
		hex := strconv.FormatInt(int64(r), 16)
		for range 4 - len(hex) {
			w.out = append(w.out, '0')
		}
		for i := 0; i < len(hex); i++ {
			c := hex[i]
			if c >= 'a' {
				c -= 'a' - 'A'
			}
			w.out = append(w.out, c)
		}
		w.out = append(w.out, '>')
	}
	w.copied = at + n
}

// finish returns the result.
func (w *invWriter) finish() string {
	if w.out == nil {
		return w.s
	}
	return string(append(w.out, w.s[w.copied:]...))
}

// flagTags returns where the emoji tag sequence at the start of the
// grapheme cluster c ends: U+1F3F4, one to six tag digits or lowercase
// letters, then CANCEL TAG. It returns 0 if c does not start with one.
func flagTags(c string) int {
	const flag = "\U0001F3F4"
	if len(c) < len(flag) || c[:len(flag)] != flag {
		return 0
	}
	tags := 0
	for k, r := range c[len(flag):] {
		switch {
		case r == 0xe007f && tags >= 1 && tags <= 6:
			return len(flag) + k + utf8.RuneLen(r)
		case r >= 0xe0030 && r <= 0xe0039, r >= 0xe0061 && r <= 0xe007a:
			tags++
		default:
			return 0
		}
	}
	return 0
}

// joiningScripts are the scripts whose letters ZWJ and ZWNJ shape: the
// cursive ones and those that form conjuncts.
var joiningScripts = []*unicode.RangeTable{
	unicode.Arabic, unicode.Syriac, unicode.Nko, unicode.Mongolian, unicode.Mandaic,
	unicode.Manichaean, unicode.Psalter_Pahlavi, unicode.Hanifi_Rohingya, unicode.Adlam,
	unicode.Devanagari, unicode.Bengali, unicode.Gurmukhi, unicode.Gujarati, unicode.Oriya,
	unicode.Tamil, unicode.Telugu, unicode.Kannada, unicode.Malayalam, unicode.Sinhala,
	unicode.Khmer, unicode.Myanmar, unicode.Tibetan, unicode.Balinese, unicode.Javanese,
}

// rtlScripts are the scripts written right to left that LRM, RLM and ALM
// serve.
var rtlScripts = []*unicode.RangeTable{
	unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko,
	unicode.Samaritan, unicode.Mandaic, unicode.Adlam, unicode.Hanifi_Rohingya,
}
