// Package sanitize neutralises untrusted text before it reaches the terminal.
//
// Every string that muse did not produce itself — server text, error bodies,
// URLs, revised prompts, titles, file names, and glamour's rendered output —
// must pass through this package before it is written to the terminal.
//
// What survives:
//
//   - printable text (valid UTF-8, including emoji and CJK), '\n' and '\t';
//   - with [Text] only, SGR colour/style sequences: ESC '[', parameter bytes
//     limited to digits, ';' and ':', then 'm', at most 64 bytes in all.
//
// Everything else is removed: every other CSI sequence (cursor movement,
// erase, private modes, sequences with intermediate bytes), OSC strings
// (clipboard, window title, hyperlinks; the text between two OSC 8 sequences
// is kept), DCS, SOS, PM and APC strings, every other escape sequence, C0
// controls other than '\n' and '\t', DEL, C1 controls (an 8-bit CSI, OSC,
// DCS, SOS, PM or APC is removed with its whole sequence), and the bidi
// embedding, override and isolate controls U+202A–U+202E and U+2066–U+2069
// (the marks LRM, RLM and ALM stay: right-to-left text needs them, and they
// move only the neutral characters beside them). Each byte that is not
// valid UTF-8 becomes U+FFFD. CRLF becomes LF and a lone CR is dropped. The
// line and paragraph separators U+2028 and U+2029 become LF (a space with
// [Line]), so no line break hides from a reader of the text. Invisible
// format characters (zero-width space, soft hyphen, BOM, tag characters,
// stray joiners and variation selectors, …) go where they do no visible
// work; [Line] shows them as <U+XXXX> instead (see invisible.go). A
// grapheme cluster keeps its first [MaxCluster] code points (see
// cluster.go): 40,000 accents on one letter made wrapping quadratic.
//
// A string sequence (OSC, DCS, SOS, PM, APC) ends at ST (ESC '\\' or U+009C),
// at BEL for OSC only, or — as in a VT500-style parser — where an ESC, CAN or
// SUB aborts it; an ESC that aborts a string starts the next sequence. A
// string sequence that never ends swallows the rest of the input, so its
// payload can never leak out as text.
//
// All functions run in linear time and return their argument unchanged,
// without allocating, when there is nothing to remove.
package sanitize

import (
	"strings"
	"unicode/utf8"
)

// maxSGR is the longest SGR sequence, in bytes counting ESC '[' and the
// final 'm', that Text keeps; a longer one is dropped.
const maxSGR = 64

const (
	bel = 0x07
	can = 0x18
	sub = 0x1a
	esc = 0x1b
	del = 0x7f
)

// mode selects what a pass keeps.
type mode uint8

const (
	modeText  mode = iota // keep SGR, '\n' and '\t'
	modePlain             // drop SGR too
	modeLine              // as modePlain, and each run of '\n'/'\t' becomes one space
)

// Text returns s with everything that could control the terminal removed,
// keeping printable text, '\n', '\t' and SGR colour/style sequences.
func Text(s string) string { return sanitize(s, modeText) }

// Plain returns s sanitised like Text but with SGR sequences removed as well.
func Plain(s string) string { return sanitize(s, modePlain) }

// Line returns Plain(s) with every run of '\n' and '\t' replaced by a single
// space, for single-line fields such as titles, file names, URLs and header
// values.
func Line(s string) string { return sanitize(s, modeLine) }

// IsClean reports whether Text(s) == s, without allocating.
func IsClean(s string) bool {
	i, inv := cleanPrefix(s, modeText)
	if i != len(s) {
		return false
	}
	_, changed := invisibles(s, inv, modeText, false, true)
	return !changed && clustersFit(s)
}

// sanitize implements Text, Plain and Line.
func sanitize(s string, m mode) string { return sanitizeAfter(s, m, false) }

// sanitizeAfter is sanitize for text that follows right-to-left text, when
// rtl is set, in a stream.
func sanitizeAfter(s string, m mode, rtl bool) string {
	i, inv := cleanPrefix(s, m)
	if i < len(s) {
		s, inv = controls(s, i, inv, m)
	}
	out, _ := invisibles(s, inv, m, rtl, false)
	return capClusters(out)
}

// controls removes escape sequences and control characters from s, whose
// first i bytes are clean, with its first invisible character at inv (or
// none in s[:i]). It returns the result, and where its first invisible
// character is (or its length).
func controls(s string, i, inv int, m mode) (string, int) {
	first := -1
	if inv < i {
		first = inv
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	space := -1 // b.Len() just after the last space written for a '\n'/'\t' run
	for i < len(s) {
		// s[i] starts something cleanPrefix rejected.
		switch c := s[i]; {
		case c == '\n' || c == '\t': // only rejected in modeLine
			for i < len(s) && (s[i] == '\n' || s[i] == '\t') {
				i++
			}
			// Runs separated only by removed bytes form one run.
			if b.Len() != space {
				b.WriteByte(' ')
				space = b.Len()
			}
		case c == esc:
			i = skipEscape(s, i+1)
		case c < utf8.RuneSelf:
			i++ // C0 control (CR included) or DEL
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			i += n
			switch r {
			case utf8.RuneError: // n == 1: a U+FFFD in the input is clean
				b.WriteRune(utf8.RuneError)
			case 0x9b: // CSI
				i = skipCSI(s, i)
			case 0x9d: // OSC
				i = skipString(s, i, true)
			case 0x90, 0x98, 0x9e, 0x9f: // DCS, SOS, PM, APC
				i = skipString(s, i, false)
			case 0x2028, 0x2029: // line and paragraph separators
				if m != modeLine {
					b.WriteByte('\n')
				} else if b.Len() != space {
					b.WriteByte(' ')
					space = b.Len()
				}
			}
			// Any other C1 control or bidi control is simply dropped.
		}
		n, k := cleanPrefix(s[i:], m)
		if first < 0 && k < n {
			first = b.Len() + k
		}
		j := i + n
		b.WriteString(s[i:j])
		i = j
	}
	if first < 0 {
		first = b.Len()
	}
	return b.String(), first
}

// cleanPrefix returns the length of the longest prefix of s that mode m
// keeps unchanged by removing controls, and the index of the first
// invisible format character in that prefix (see invisible.go), or
// len(s), so that the invisible characters' pass starts there.
func cleanPrefix(s string, m mode) (int, int) {
	i, inv := 0, len(s)
	for i < len(s) {
		c := s[i]
		switch {
		case c >= 0x20 && c < del:
			i++
		case c == '\n' || c == '\t':
			if m == modeLine {
				return i, inv
			}
			i++
		case c == esc:
			n := 0
			if m == modeText {
				n = sgrLen(s[i:])
			}
			if n == 0 {
				return i, inv
			}
			i += n
		case c < utf8.RuneSelf:
			return i, inv
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if n == 1 || r <= 0x9f || isBidi(r) || r == 0x2028 || r == 0x2029 {
				return i, inv
			}
			if inv == len(s) && isInvisible(r) {
				inv = i
			}
			i += n
		}
	}
	return i, inv
}

// sgrLen returns the length of the SGR sequence at the start of s, which
// begins with ESC, or 0 if s does not start with an acceptable SGR.
func sgrLen(s string) int {
	if len(s) < 3 || s[1] != '[' {
		return 0
	}
	for j := 2; j < len(s) && j < maxSGR; j++ {
		switch c := s[j]; {
		case c >= '0' && c <= '9' || c == ';' || c == ':':
		case c == 'm':
			return j + 1
		default:
			return 0
		}
	}
	return 0
}

// isBidi reports whether r is a bidi embedding, override or isolate control.
func isBidi(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// skipEscape returns the index just past the escape sequence whose ESC ends
// at s[i-1]. A malformed sequence ends before the offending byte, which is
// then sanitised on its own.
func skipEscape(s string, i int) int {
	if i == len(s) {
		return i // lone trailing ESC
	}
	switch c := s[i]; {
	case c == '[':
		return skipCSI(s, i+1)
	case c == ']':
		return skipString(s, i+1, true)
	case c == 'P' || c == 'X' || c == '^' || c == '_': // DCS, SOS, PM, APC
		return skipString(s, i+1, false)
	case c >= 0x20 && c <= 0x2f: // nF: intermediates, then a final byte
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
			i++
		}
		if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
			i++
		}
		return i
	case c >= 0x30 && c <= 0x7e: // two-byte Fp, Fe and Fs sequences
		return i + 1
	default: // a control, DEL or non-ASCII byte: drop the ESC alone
		return i
	}
}

// skipCSI returns the index just past the CSI sequence whose introducer
// ends at s[i-1]: parameter and intermediate bytes, then a final byte.
func skipCSI(s string, i int) int {
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipString returns the index just past the control string whose
// introducer ends at s[i-1]. BEL terminates it only if belEnds is set.
func skipString(s string, i int, belEnds bool) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case bel:
			if belEnds {
				return i + 1
			}
		case can, sub:
			return i + 1
		case esc:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i // the ESC aborts the string and starts a new sequence
		case 0xc2: // a lead byte, so 0xc2 0x9c is always U+009C (ST)
			if i+1 < len(s) && s[i+1] == 0x9c {
				return i + 2
			}
		}
	}
	return i
}
