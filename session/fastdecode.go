package session

// Decoding JSON with encoding/json is most of the time Load takes. Nearly
// every record of a journal is an entry record of a few common shapes,
// written by encodeRecord: a prompt, a reply of text and thinking blocks, an
// error or a notice. decodeEntryRecord decodes those shapes directly, several
// times faster, and declines anything else (an unknown or repeated key,
// whitespace, null, a \u escape of a surrogate, invalid UTF-8, a number that
// is not a plain integer...), which encoding/json then decodes as before.
// What it accepts it decodes exactly as encoding/json would: a differential
// fuzz test checks that, and a self-check at first use turns it off should
// the types it fills ever decode differently (say a field's JSON name
// changed in package api).

import (
	"encoding/json"
	"reflect"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"muse/api"
)

// decodeEntry decodes an entry record, the fast way when it can.
func decodeEntry(data []byte, rec *record) error {
	if fastDecodeOK() {
		if e, ok := decodeEntryRecord(data); ok {
			*rec = record{Type: recEntry, Entry: e}
			return nil
		}
	}
	return json.Unmarshal(data, rec)
}

// decodeEntryRecord decodes data, a whole entry record, and reports whether
// it could. The record's time is checked but not returned.
func decodeEntryRecord(data []byte) (*Entry, bool) {
	d := fastDecoder{b: data}
	var e *Entry
	var seen uint8
	ok := d.object(func(key []byte) bool {
		switch string(key) {
		case "type":
			t, ok := d.str()
			return d.once(&seen, 1) && ok && t == recEntry
		case "time":
			_, ok := d.time()
			return d.once(&seen, 2) && ok
		case "entry":
			e = new(Entry)
			return d.once(&seen, 4) && d.entry(e)
		}
		return false
	})
	if !ok || d.i != len(d.b) || e == nil || seen&1 == 0 {
		return nil, false
	}
	return e, true
}

// fastDecoder reads JSON from b at i.
type fastDecoder struct {
	b []byte
	i int
}

// once marks the bit of a key in *seen and reports whether it was unmarked:
// a repeated key is left to encoding/json.
func (d *fastDecoder) once(seen *uint8, bit uint8) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}

func (d *fastDecoder) eat(c byte) bool {
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

// object reads an object, calling value for each key to read its value.
func (d *fastDecoder) object(value func(key []byte) bool) bool {
	if !d.eat('{') {
		return false
	}
	if d.eat('}') {
		return true
	}
	for {
		key, ok := d.plain()
		if !ok || !d.eat(':') || !value(key) {
			return false
		}
		if !d.eat(',') {
			return d.eat('}')
		}
	}
}

// plain reads a string without escapes, such as a key, and returns its bytes.
func (d *fastDecoder) plain() ([]byte, bool) {
	if !d.eat('"') {
		return nil, false
	}
	start := d.i
	for j := start; j < len(d.b); j++ {
		switch c := d.b[j]; {
		case c == '"':
			d.i = j + 1
			return d.b[start:j], true
		case c == '\\' || c < 0x20:
			return nil, false
		}
	}
	return nil, false
}

// str reads a string.
func (d *fastDecoder) str() (string, bool) {
	if !d.eat('"') {
		return "", false
	}
	start := d.i
	for j := start; j < len(d.b); j++ {
		switch c := d.b[j]; {
		case c == '"':
			raw := d.b[start:j]
			if !utf8.Valid(raw) {
				return "", false
			}
			d.i = j + 1
			return string(raw), true
		case c == '\\':
			return d.escaped(start, j)
		case c < 0x20:
			return "", false
		}
	}
	return "", false
}

// escaped reads the rest of a string that started at start and has its
// first backslash at j.
func (d *fastDecoder) escaped(start, j int) (string, bool) {
	out := make([]byte, 0, j-start+64)
	out = append(out, d.b[start:j]...)
	for j < len(d.b) {
		c := d.b[j]
		switch {
		case c == '"':
			if !utf8.Valid(out) {
				return "", false
			}
			d.i = j + 1
			return string(out), true
		case c < 0x20:
			return "", false
		case c != '\\':
			out = append(out, c)
			j++
			continue
		}
		if j+1 >= len(d.b) {
			return "", false
		}
		switch e := d.b[j+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if j+6 > len(d.b) {
				return "", false
			}
			r, err := strconv.ParseUint(string(d.b[j+2:j+6]), 16, 16)
			if err != nil || (0xD800 <= r && r < 0xE000) {
				return "", false // surrogates, paired or not, are left to encoding/json
			}
			out = utf8.AppendRune(out, rune(r))
			j += 6
			continue
		default:
			return "", false
		}
		j += 2
	}
	return "", false
}

// time reads a time as time.Time's UnmarshalJSON does: the string's bytes,
// unescaped, in RFC 3339.
func (d *fastDecoder) time() (time.Time, bool) {
	raw, ok := d.plain()
	var t time.Time
	if !ok || t.UnmarshalText(raw) != nil {
		return time.Time{}, false
	}
	return t, true
}

// integer reads an integer of bits bits: digits, perhaps after a minus sign,
// without a fraction or an exponent.
func (d *fastDecoder) integer(bits int) (int64, bool) {
	start := d.i
	d.eat('-')
	digits := d.i
	for d.i < len(d.b) && '0' <= d.b[d.i] && d.b[d.i] <= '9' {
		d.i++
	}
	n := d.i - digits
	if n == 0 || (n > 1 && d.b[digits] == '0') {
		return 0, false
	}
	if d.i < len(d.b) {
		if c := d.b[d.i]; c == '.' || c == 'e' || c == 'E' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(string(d.b[start:d.i]), 10, bits)
	return v, err == nil
}

// intField reads an int into *p.
func (d *fastDecoder) intField(p *int) bool {
	v, ok := d.integer(strconv.IntSize)
	*p = int(v)
	return ok
}

// strField reads a string into *p.
func (d *fastDecoder) strField(p *string) bool {
	s, ok := d.str()
	*p = s
	return ok
}

// entry reads the fields of an Entry that the fast way handles.
func (d *fastDecoder) entry(e *Entry) bool {
	var seen uint16
	once := func(bit uint16) bool {
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return true
	}
	return d.object(func(key []byte) bool {
		switch string(key) {
		case "id":
			return once(1) && d.strField(&e.ID)
		case "kind":
			return once(2) && d.strField(&e.Kind)
		case "time":
			t, ok := d.time()
			e.Time = t
			return once(4) && ok
		case "text":
			return once(8) && d.strField(&e.Text)
		case "status":
			return once(16) && d.strField(&e.Status)
		case "request_id":
			return once(32) && d.strField(&e.RequestID)
		case "latency_ms":
			v, ok := d.integer(64)
			e.LatencyMS = v
			return once(64) && ok
		case "message":
			e.Message = new(api.Message)
			return once(128) && d.message(e.Message)
		case "error":
			e.Error = new(ErrorInfo)
			return once(256) && d.errorInfo(e.Error)
		}
		return false
	})
}

// message reads an api.Message whose blocks are text or thinking.
func (d *fastDecoder) message(m *api.Message) bool {
	var seen uint8
	return d.object(func(key []byte) bool {
		switch string(key) {
		case "id":
			return d.once(&seen, 1) && d.strField(&m.ID)
		case "type":
			return d.once(&seen, 2) && d.strField(&m.Type)
		case "role":
			return d.once(&seen, 4) && d.strField(&m.Role)
		case "model":
			return d.once(&seen, 8) && d.strField(&m.Model)
		case "stop_reason":
			return d.once(&seen, 16) && d.strField(&m.StopReason)
		case "stop_sequence":
			return d.once(&seen, 32) && d.strField(&m.StopSequence)
		case "usage":
			return d.once(&seen, 64) && d.usage(&m.Usage)
		case "content":
			return d.once(&seen, 128) && d.blocks(&m.Content)
		}
		return false
	})
}

func (d *fastDecoder) usage(u *api.Usage) bool {
	var seen uint8
	return d.object(func(key []byte) bool {
		switch string(key) {
		case "input_tokens":
			return d.once(&seen, 1) && d.intField(&u.InputTokens)
		case "output_tokens":
			return d.once(&seen, 2) && d.intField(&u.OutputTokens)
		case "cache_creation_input_tokens":
			return d.once(&seen, 4) && d.intField(&u.CacheCreationInputTokens)
		case "cache_read_input_tokens":
			return d.once(&seen, 8) && d.intField(&u.CacheReadInputTokens)
		}
		return false
	})
}

// blocks reads an array of text and thinking blocks. Like encoding/json it
// makes an empty array an empty, non-nil slice.
func (d *fastDecoder) blocks(p *[]api.ContentBlock) bool {
	if !d.eat('[') {
		return false
	}
	out := make([]api.ContentBlock, 0, 2)
	if !d.eat(']') {
		for {
			var b api.ContentBlock
			if !d.block(&b) {
				return false
			}
			out = append(out, b)
			if !d.eat(',') {
				if !d.eat(']') {
					return false
				}
				break
			}
		}
	}
	*p = out
	return true
}

// block reads a text or a thinking block, the way api.ContentBlock's
// UnmarshalJSON reads them.
func (d *fastDecoder) block(b *api.ContentBlock) bool {
	var seen uint8
	var text, thinking, signature string
	ok := d.object(func(key []byte) bool {
		switch string(key) {
		case "type":
			return d.once(&seen, 1) && d.strField(&b.Type)
		case "text":
			return d.once(&seen, 2) && d.strField(&text)
		case "thinking":
			return d.once(&seen, 4) && d.strField(&thinking)
		case "signature":
			return d.once(&seen, 8) && d.strField(&signature)
		}
		return false
	})
	switch {
	case !ok:
		return false
	case b.Type == api.BlockText && seen&^(1|2) == 0:
		b.Text = text
	case b.Type == api.BlockThinking && seen&^(1|4|8) == 0:
		b.Thinking, b.Signature = thinking, signature
	default:
		return false
	}
	return true
}

func (d *fastDecoder) errorInfo(e *ErrorInfo) bool {
	var seen uint8
	return d.object(func(key []byte) bool {
		switch string(key) {
		case "status":
			return d.once(&seen, 1) && d.intField(&e.Status)
		case "type":
			return d.once(&seen, 2) && d.strField(&e.Type)
		case "message":
			return d.once(&seen, 4) && d.strField(&e.Message)
		case "hint":
			return d.once(&seen, 8) && d.strField(&e.Hint)
		}
		return false
	})
}

// fastDecodeSamples are records of every shape decodeEntryRecord accepts.
var fastDecodeSamples = []string{
	`{"type":"entry","time":"2025-03-01T09:00:01Z","entry":{"id":"e1","kind":"user","time":"2025-03-01T09:00:01.123456789+02:00","text":"a \"quoted\" \\ path\/x\n\t\u00e9\u4e16 ✓ <b>&"}}`,
	`{"type":"entry","time":"2025-03-01T09:00:02Z","entry":{"id":"e2","kind":"assistant","time":"2025-03-01T09:00:02Z","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"thinking","thinking":"hm","signature":"c2ln"},{"type":"text","text":"hi"}],"stop_reason":"max_tokens","stop_sequence":"END","usage":{"input_tokens":12,"output_tokens":-3,"cache_creation_input_tokens":0,"cache_read_input_tokens":9007199254740993}},"status":"cancelled","request_id":"req_1","latency_ms":1234}}`,
	`{"type":"entry","time":"2025-03-01T09:00:03Z","entry":{"id":"e3","kind":"error","time":"2025-03-01T09:00:03Z","error":{"status":529,"type":"overloaded_error","message":"Overloaded","hint":"later"},"request_id":"req_2"}}`,
	`{"type":"entry","time":"2025-03-01T09:00:04Z","entry":{"id":"e4","kind":"assistant","time":"0001-01-01T00:00:00Z","message":{"id":"","type":"","role":"","model":"","content":[],"usage":{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}}`,
}

// fastDecodeOK reports whether decodeEntryRecord decodes the samples exactly
// as encoding/json does. It checks once.
var fastDecodeOK = sync.OnceValue(func() bool {
	for _, s := range fastDecodeSamples {
		e, ok := decodeEntryRecord([]byte(s))
		var rec record
		if !ok || json.Unmarshal([]byte(s), &rec) != nil || !reflect.DeepEqual(e, rec.Entry) {
			return false
		}
	}
	return true
})
