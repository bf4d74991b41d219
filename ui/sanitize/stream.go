package sanitize

import (
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// maxHeld bounds what a Stream holds back waiting for the end of an escape
// sequence; past it, the unfinished sequence is dropped as it stands.
const maxHeld = 64 << 10

// Stream sanitizes text that arrives in pieces, such as a streamed reply,
// so that an escape sequence split across two pieces is removed whole, as
// it would be from the whole text: the end of a piece that may begin an
// unfinished sequence (or rune) is held back until the next piece shows how
// it ends. The zero value sanitizes like Text; set Plain for Plain.
//
// The last grapheme cluster is held back too when it is not ASCII, with the
// clusters before it that end in an invisible character, because whether an
// invisible character stays depends on what follows it (a ZWJ joins the
// next emoji, a tag sequence ends with CANCEL TAG).
type Stream struct {
	// Plain drops colour and style sequences too, as Plain does.
	Plain bool
	held  string
	rtl   bool // right-to-left letters have been shown
}

// Write returns the clean text of piece that can be shown now.
func (s *Stream) Write(piece string) string {
	buf := s.held + piece
	cut := openCluster(buf[:unfinished(buf)])
	if len(buf)-cut > maxHeld {
		cut = len(buf)
	}
	s.held = buf[cut:]
	return s.clean(buf[:cut])
}

// Flush returns the clean text of what is held back, at the end of the
// stream.
func (s *Stream) Flush() string {
	out := s.clean(s.held)
	s.held = ""
	return out
}

func (s *Stream) clean(t string) string {
	m := modeText
	if s.Plain {
		m = modePlain
	}
	out := sanitizeAfter(t, m, s.rtl)
	if !s.rtl {
		w := invWriter{s: out, rtl: -1}
		s.rtl = w.hasRTL()
	}
	return out
}

// openCluster returns where the text that a following piece could still
// change the invisible characters of starts: the last grapheme cluster of s
// if it is not ASCII, with each cluster before it that ends in an invisible
// character; len(s) when s ends in ASCII.
func openCluster(s string) int {
	if s == "" || s[len(s)-1] < utf8.RuneSelf {
		return len(s)
	}
	pos := clusterStart(s, 0, len(s)-1)
	chain, state, openEnd := pos, -1, false
	for pos < len(s) {
		c, _, _, st := uniseg.FirstGraphemeClusterInString(s[pos:], state)
		if !openEnd {
			chain = pos
		}
		r, _ := utf8.DecodeLastRuneInString(c)
		openEnd = isInvisible(r)
		pos, state = pos+len(c), st
	}
	return chain
}

// unfinished returns where the unfinished sequence or rune at the end of s
// starts, or len(s) when s ends cleanly.
func unfinished(s string) int {
	// The last introducer decides: an ESC, or a C1 CSI, OSC or string.
	k := strings.LastIndexByte(s, esc)
	if c1 := strings.LastIndexByte(s, 0xc2); c1 > k {
		if c1+1 == len(s) {
			return c1 // the first byte of a two-byte rune: maybe a C1 control
		}
		switch s[c1+1] {
		case 0x9b, 0x9d, 0x90, 0x98, 0x9e, 0x9f:
			k = c1
		}
	}
	if k >= 0 && !finished(s[k:]) {
		return k
	}
	// A rune cut in two.
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			if !utf8.FullRuneInString(s[i:]) {
				return i
			}
			break
		}
	}
	return len(s)
}

// finished reports whether seq, which starts with ESC or a C1 introducer and
// runs to the end of the text, is a complete sequence (or one the
// sanitizer ends before the end anyway).
func finished(seq string) bool {
	var end int
	if seq[0] == esc {
		if len(seq) == 1 {
			return false
		}
		switch c := seq[1]; {
		case c == '[':
			end = skipCSI(seq, 2)
			return end < len(seq) || isFinal(seq[len(seq)-1]) && len(seq) > 2
		case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
			return terminated(seq, 2)
		case c >= 0x20 && c <= 0x2f:
			end = skipEscape(seq, 1)
			return end < len(seq) || isFinal(seq[len(seq)-1]) && seq[len(seq)-1] >= 0x30
		default:
			return true
		}
	}
	switch seq[1] { // 0xc2 0x9b…
	case 0x9b:
		end = skipCSI(seq, 2)
		return end < len(seq) || len(seq) > 2 && isFinal(seq[len(seq)-1])
	default:
		return terminated(seq, 2)
	}
}

// terminated reports whether the control string whose introducer ends at
// seq[i-1] ends within seq.
func terminated(seq string, i int) bool {
	end := skipString(seq, i, true)
	if end < len(seq) {
		return true
	}
	last := seq[len(seq)-1]
	return last == bel || last == can || last == sub ||
		len(seq) >= i+2 && (seq[len(seq)-2:] == "\x1b\\" || seq[len(seq)-2:] == "\xc2\x9c")
}

func isFinal(c byte) bool { return c >= 0x40 && c <= 0x7e }
