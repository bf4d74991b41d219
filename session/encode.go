package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"unicode/utf8"

	"muse/api"
)

// Encoding a record whose reply holds megabytes of text with encoding/json
// alone copies that text about ten times: each MarshalJSON of the api types
// encodes into a buffer of its own, which the level above checks and copies
// again. So the large strings of a record's content are lifted out first:
// the record is encoded with a placeholder in the place of each, which is
// then replaced by the string's JSON, written once, into a buffer of the
// line's exact size. The line is the same JSON either way.

// liftSize is the size from which a string of a record's content is lifted.
const liftSize = 16 << 10

// liftNonce makes this process's placeholders unlike any text.
var liftNonce = strconv.FormatUint(rand.Uint64(), 36)

// lifted is a string taken out of a record, and the JSON of its placeholder.
type lifted struct {
	s           string
	placeholder []byte
}

// lift returns rec, or a copy of it whose large content strings, and a
// large text of an entry, are placeholders, with the strings it took out;
// rec itself is not changed.
func lift(rec *record) (*record, []lifted) {
	var out []lifted
	take := func(s *string) {
		if len(*s) < liftSize {
			return
		}
		ph := "\x00muse:" + liftNonce + ":" + strconv.Itoa(len(out)) + "\x00"
		q, _ := json.Marshal(ph) // a string always encodes
		out = append(out, lifted{s: *s, placeholder: q})
		*s = ph
	}
	r := *rec
	if e := rec.Entry; e != nil && len(e.Text) >= liftSize {
		ec := *e
		take(&ec.Text)
		r.Entry = &ec
	}
	if e := r.Entry; e != nil && e.Message != nil && api.ContentSize(*e.Message) >= liftSize {
		ec, m := *e, *e.Message
		m.Content = slices.Clone(m.Content)
		for i := range m.Content {
			take(&m.Content[i].Text)
			take(&m.Content[i].Thinking)
		}
		ec.Message = &m
		r.Entry = &ec
	}
	if c := rec.Chunk; c != nil && slices.ContainsFunc(c.Blocks, bigDelta) {
		cc := *c
		cc.Blocks = slices.Clone(c.Blocks)
		for i := range cc.Blocks {
			d := &cc.Blocks[i]
			take(&d.Text)
			take(&d.Thinking)
			take(&d.Partial)
			if d.Block != nil {
				b := *d.Block
				take(&b.Text)
				take(&b.Thinking)
				d.Block = &b
			}
		}
		r.Chunk = &cc
	}
	if len(out) == 0 {
		return rec, nil
	}
	return &r, out
}

// bigDelta reports whether d holds a string worth lifting.
func bigDelta(d blockDelta) bool {
	n := max(len(d.Text), len(d.Thinking), len(d.Partial))
	if d.Block != nil {
		n = max(n, len(d.Block.Text), len(d.Block.Thinking))
	}
	return n >= liftSize
}

// splice returns line with the placeholder of each of ls replaced by the
// JSON of its string, in a new buffer of the exact size.
func splice(line []byte, ls []lifted) ([]byte, error) {
	at := make([]int, len(ls))
	size := len(line)
	for i, l := range ls {
		at[i] = bytes.Index(line, l.placeholder)
		if at[i] < 0 || bytes.Count(line, l.placeholder) != 1 {
			return nil, fmt.Errorf("a placeholder of a large string is not in the record once")
		}
		size += jsonStringLen(l.s) - len(l.placeholder)
	}
	order := make([]int, len(ls))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return at[a] - at[b] })
	out := make([]byte, 0, size)
	prev := 0
	for _, i := range order {
		out = append(out, line[prev:at[i]]...)
		out = appendJSONString(out, ls[i].s)
		prev = at[i] + len(ls[i].placeholder)
	}
	return append(out, line[prev:]...), nil
}

// jsonStringLen returns the length of appendJSONString's encoding of s.
func jsonStringLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f':
				n += 2
			case c < 0x20:
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1, r == '\u2028', r == '\u2029':
			n += 6
		default:
			n += size
		}
		i += size
	}
	return n
}

// appendJSONString appends s as a JSON string, as encoding/json writes it
// without HTML escaping: invalid UTF-8 becomes U+FFFD, and U+2028 and
// U+2029 are escaped.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
