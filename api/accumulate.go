package api

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// Accumulator assembles a Message from stream events. Blocks are addressed
// by their index, so deltas of different blocks may interleave. Text grows in
// builders, so a reply of n deltas costs O(n), not O(n²). The zero value is
// ready to use. It is not safe for concurrent use.
//
// The accumulator of a Stream has a size limit: the stream fits each event
// to the room left (see fit) before it adds it, so the message stops growing
// at the limit, or at MaxReplyBlocks blocks.
type Accumulator struct {
	msg     Message
	pos     map[int]int // event index → position in msg.Content
	parts   []*blockParts
	started bool
	stopped bool
	err     *APIError
	limit   int // the size limit of the content; 0 for none
	size    int // the content fitted so far, as ContentSize counts it
}

// blockParts is what the deltas of one block built. Every delta applies to
// its block, whatever the block's type: text, thinking and signature deltas
// to the block's field of that name, input_json_delta to its "input" (once
// the block ends), citations_delta to its "citations", and the fields of a
// delta of a type muse does not know to the block's fields of the same
// names: a string is appended to the field's string, any other value
// replaces it. A block's fields without a Go field (Extra, or Raw for a
// block of a type muse does not know) are written when the block ends;
// what the deltas did not touch stays as the server sent it.
type blockParts struct {
	text, thinking, signature, json builder
	touched                         uint8                  // which builders deltas wrote to (touchText…)
	citations                       *citationList          // nil until a citations_delta
	fields                          map[string]*deltaField // set by deltas of types muse does not know
	open                            bool
}

// Bits of blockParts.touched.
const (
	touchText uint8 = 1 << iota
	touchThinking
	touchSignature
)

// citationList is a block's citations: those it started with, then one per
// citations_delta.
type citationList struct {
	items []json.RawMessage
	array json.RawMessage // items as a JSON array; nil when a citation came since
}

// JSON returns the citations as a JSON array, built again only when a
// citation came since the last call.
func (c *citationList) JSON() json.RawMessage {
	if c.array == nil {
		n := 2
		for _, it := range c.items {
			n += len(it) + 1
		}
		out := make([]byte, 0, n)
		out = append(out, '[')
		for i, it := range c.items {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, it...)
		}
		c.array = append(out, ']')
	}
	return c.array
}

// deltaField is a field set by deltas of a type muse does not know: a
// string, appended to, or another value (set when value is not nil).
type deltaField struct {
	str   builder
	value json.RawMessage
}

// builder is a strings.Builder that keeps its first piece as it is, not
// copied, until a second one arrives: a reply whose text arrives in one
// piece costs no copy of it. Under a size limit, a builder that grows past
// jumpSize takes four times what it needs (up to the limit) at once,
// instead of a quarter more at a time (which costs, in all, four times the
// text in copies that wait to be freed), and is trimmed to its text when
// its block ends.
type builder struct {
	first string
	b     strings.Builder
}

// jumpSize is the size past which a builder under a limit grows fourfold.
const jumpSize = 256 << 10

// WriteString appends s; limit, when set, is the most it will hold.
func (b *builder) WriteString(s string, limit int) {
	if s == "" {
		return
	}
	if b.first == "" && b.b.Len() == 0 {
		b.first = s
		return
	}
	old := b.first + b.b.String() // one of them is empty: no copy
	need := len(old) + len(s)
	switch {
	case need <= b.b.Cap():
	case limit >= need && need > jumpSize:
		b.regrow(old, min(limit, 4*need))
	case b.first != "":
		b.regrow(old, need)
	}
	b.b.WriteString(s)
}

// regrow moves old, what the builder holds, to a new buffer of size bytes.
func (b *builder) regrow(old string, size int) {
	b.first, b.b = "", strings.Builder{}
	b.b.Grow(size) // exactly, the builder being empty
	b.b.WriteString(old)
}

// trim gives back the room the builder took and did not use.
func (b *builder) trim() {
	if b.b.Cap() > 2*b.b.Len() && b.b.Cap() > jumpSize {
		*b = builder{first: strings.Clone(b.b.String())}
	}
}

// String returns what was written.
func (b *builder) String() string {
	if b.first != "" {
		return b.first
	}
	return b.b.String()
}

// minCitationSize is the least a citation counts toward the size limit,
// however small its JSON: each is kept as an item of its own, and drawn as
// a line, so two million citations of "{}" (4 MiB) took 850 MB. A real
// citation, with the text it cites, is larger.
const minCitationSize = 256

// maxRepairSize is the largest tool input RepairJSON is asked to complete;
// a larger one that never finished is replaced by {}.
var maxRepairSize = 8 << 20 // a variable so tests can lower it

// Add applies one event. An error event is returned as its *APIError, and
// the message built so far is kept.
func (a *Accumulator) Add(ev Event) error {
	switch ev.Type {
	case EventMessageStart:
		if ev.Message != nil {
			content := a.msg.Content
			a.msg = *ev.Message
			a.msg.Content = content
			a.msg.Extra = cloneExtra(ev.Message.Extra)
			a.msg.Usage.Extra = cloneExtra(ev.Message.Usage.Extra)
			for _, b := range ev.Message.Content {
				a.startBlock(len(a.msg.Content), b)
			}
		}
		a.started = true
	case EventContentBlockStart:
		b := ContentBlock{Type: BlockText}
		if ev.Block != nil {
			b = *ev.Block
		}
		a.startBlock(ev.Index, b)
	case EventContentBlockDelta:
		if i, ok := a.pos[ev.Index]; ok {
			a.applyDelta(i, ev.Delta)
		}
	case EventContentBlockStop:
		if i, ok := a.pos[ev.Index]; ok {
			a.closeBlock(i, true)
		}
	case EventMessageDelta:
		if ev.Delta.StopReason != "" {
			a.msg.StopReason = ev.Delta.StopReason
		}
		if ev.Delta.StopSequence != "" {
			a.msg.StopSequence = ev.Delta.StopSequence
		}
		// Fields this client has no Go field for overwrite those of message_start.
		mergeExtra(&a.msg.Extra, cloneExtra(ev.Delta.Extra))
		if u := ev.Usage; u != nil {
			// Usage in message_delta is cumulative: a counter sent overwrites.
			for i, v := range u.counters() {
				a.msg.Usage.set(i, v)
			}
			mergeExtra(&a.msg.Usage.Extra, cloneExtra(u.Extra))
		}
	case EventMessageStop:
		a.stopped = true
		a.closeAll()
	case EventError:
		a.err = ev.Error
		return ev.Error
	}
	return nil
}

// room returns how many more bytes of content fit under the limit.
func (a *Accumulator) room() int { return max(a.limit-a.size, 0) }

// progress grows with each event that adds to the reply (see fit): content
// counted toward the limit, or a block. Under a limit, it is bounded.
func (a *Accumulator) progress() int { return a.size + len(a.msg.Content) }

// fit cuts ev to the room left under the limit and counts what it adds.
// cut reports that ev did not fit whole: the reply ends at the limit, and
// the event returned, when its Type is set, holds what of ev fits.
func (a *Accumulator) fit(ev Event) (_ Event, cut bool) {
	if a.limit <= 0 {
		return ev, false
	}
	room := a.room()
	switch ev.Type {
	case EventMessageStart:
		if ev.Message != nil && len(ev.Message.Content) > 0 {
			m, cut := cutMessage(*ev.Message, room, MaxReplyBlocks-len(a.msg.Content))
			m.StopReason, m.StopSequence = ev.Message.StopReason, ev.Message.StopSequence
			a.size += ContentSize(m)
			ev.Message = &m
			return ev, cut
		}
	case EventMessageDelta:
		// The fields muse has no Go field for are kept: they count.
		n := extraSize(ev.Delta.Extra)
		if ev.Usage != nil {
			n += extraSize(ev.Usage.Extra)
		}
		if n > room {
			return Event{}, true
		}
		a.size += n
	case EventContentBlockStart:
		if _, ok := a.pos[ev.Index]; !ok && len(a.msg.Content) >= MaxReplyBlocks {
			return Event{}, true // a block more than a reply may hold
		}
		if ev.Block == nil {
			break
		}
		if n := blockSize(ev.Block); n <= room {
			a.size += n
			break
		}
		b, ok := cutBlock(*ev.Block, room)
		if !ok {
			return Event{}, true
		}
		a.size += blockSize(&b)
		ev.Block = &b
		return ev, true
	case EventContentBlockDelta:
		var s *string
		switch ev.Delta.Type {
		case DeltaText:
			s = &ev.Delta.Text
		case DeltaThinking:
			s = &ev.Delta.Thinking
		case DeltaInputJSON:
			s = &ev.Delta.PartialJSON
		case DeltaSignature:
			if len(ev.Delta.Signature) > room {
				return Event{}, true // half a signature is none
			}
			s = &ev.Delta.Signature
		default:
			// A citation, or the fields of a delta of another type: kept
			// whole or not at all. A citation kept counts at least
			// minCitationSize, what it costs once kept and shown.
			n := len(ev.Delta.Citation)
			if n > 0 && !isNull(ev.Delta.Citation) {
				n = max(n, minCitationSize)
			}
			if ev.Delta.Type != DeltaCitations {
				n = extraSize(ev.Delta.Extra)
			}
			if n > room {
				return Event{}, true
			}
			a.size += n
			return ev, false
		}
		if len(*s) <= room {
			a.size += len(*s)
			break
		}
		*s = cutString(*s, room)
		a.size += len(*s)
		if *s == "" {
			return Event{}, true
		}
		return ev, true
	}
	return ev, false
}

func (a *Accumulator) startBlock(index int, b ContentBlock) {
	if a.pos == nil {
		a.pos = make(map[int]int)
	}
	if i, ok := a.pos[index]; ok {
		// A repeated start for an index replaces that block.
		a.msg.Content[i] = b
		a.parts[i] = &blockParts{open: true}
		a.seed(i)
		return
	}
	a.pos[index] = len(a.msg.Content)
	a.msg.Content = append(a.msg.Content, b)
	a.parts = append(a.parts, &blockParts{open: true})
	a.seed(len(a.msg.Content) - 1)
}

// seed moves a start block's initial text into its builders, so deltas
// append to it. A block of a type muse does not know starts with the
// strings of its fields of those names.
func (a *Accumulator) seed(i int) {
	b, p := &a.msg.Content[i], a.parts[i]
	text, thinking, signature := b.Text, b.Thinking, b.Signature
	if b.Raw != nil {
		text, _ = rawString(b.Raw, "text")
		thinking, _ = rawString(b.Raw, "thinking")
		signature, _ = rawString(b.Raw, "signature")
	}
	p.text.WriteString(text, a.limit)
	p.thinking.WriteString(thinking, a.limit)
	p.signature.WriteString(signature, a.limit)
}

// applyDelta applies a content delta to block i (see blockParts).
func (a *Accumulator) applyDelta(i int, d Delta) {
	p := a.parts[i]
	switch d.Type {
	case DeltaText:
		p.text.WriteString(d.Text, a.limit)
		p.touched |= touchText
	case DeltaThinking:
		p.thinking.WriteString(d.Thinking, a.limit)
		p.touched |= touchThinking
	case DeltaSignature:
		p.signature.WriteString(d.Signature, a.limit)
		p.touched |= touchSignature
	case DeltaInputJSON:
		p.json.WriteString(d.PartialJSON, a.limit)
	case DeltaCitations:
		if len(d.Citation) == 0 || isNull(d.Citation) {
			return
		}
		if p.citations == nil {
			p.citations = &citationList{}
			if start, ok := a.fieldOf(i, "citations"); ok {
				_ = json.Unmarshal(start, &p.citations.items) // null or not an array: none
			}
		}
		p.citations.items = append(p.citations.items, append(json.RawMessage(nil), d.Citation...))
		p.citations.array = nil
	default:
		for _, k := range slices.Sorted(maps.Keys(d.Extra)) {
			a.setField(i, k, d.Extra[k])
		}
	}
}

// setField applies field k of a delta of a type muse does not know to
// block i: a string is appended to the field's string, any other value
// replaces the field.
func (a *Accumulator) setField(i int, k string, v json.RawMessage) {
	p := a.parts[i]
	s, isString := jsonString(v)
	if isString {
		switch k {
		case "text":
			p.text.WriteString(s, a.limit)
			p.touched |= touchText
			return
		case "thinking":
			p.thinking.WriteString(s, a.limit)
			p.touched |= touchThinking
			return
		case "signature":
			p.signature.WriteString(s, a.limit)
			p.touched |= touchSignature
			return
		}
	}
	if p.fields == nil {
		p.fields = make(map[string]*deltaField)
	}
	f := p.fields[k]
	if f == nil {
		f = &deltaField{}
		if start, ok := a.fieldOf(i, k); ok {
			if str, ok := jsonString(start); ok {
				f.str.WriteString(str, a.limit)
			} else {
				f.value = start
			}
		}
		p.fields[k] = f
	}
	if !isString {
		f.str, f.value = builder{}, append(json.RawMessage(nil), v...)
		return
	}
	if f.value != nil {
		f.value = nil // a string replaces a value of another kind
	}
	f.str.WriteString(s, a.limit)
}

// fieldOf returns the field k of block i as it started: one without a Go
// field, from Extra or, for a block of a type muse does not know, from Raw.
func (a *Accumulator) fieldOf(i int, k string) (json.RawMessage, bool) {
	b := &a.msg.Content[i]
	if b.Raw == nil {
		v, ok := b.Extra[k]
		return v, ok
	}
	var found json.RawMessage
	_ = eachField(bytes.TrimSpace(b.Raw), func(key string, v []byte) {
		if key == k {
			found = v
		}
	})
	return found, found != nil
}

// rawString returns the string field k of the JSON object raw.
func rawString(raw json.RawMessage, k string) (string, bool) {
	var found json.RawMessage
	_ = eachField(bytes.TrimSpace(raw), func(key string, v []byte) {
		if key == k {
			found = v
		}
	})
	return jsonString(found)
}

// jsonString decodes v when it is a JSON string.
func jsonString(v json.RawMessage) (string, bool) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || v[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// closeBlock ends block i: its tool input is parsed, once, and what the
// deltas built is written into the block's fields (see blockParts).
// stopped tells whether the block got its content_block_stop. A tool_use
// block closed any other way (by message_stop or Finish) never finished, so
// it is flagged as truncated even when its input parses, or when no input
// arrived at all; so is any other block whose input fragments arrived but
// whose stop did not. Input that is not complete JSON is kept in
// PartialInput, repaired as far as it goes, and flagged as truncated; above
// maxRepairSize it is not repaired but set to {}.
func (a *Accumulator) closeBlock(i int, stopped bool) {
	p := a.parts[i]
	if !p.open {
		return
	}
	p.open = false
	p.text.trim()
	p.thinking.trim()
	b := &a.msg.Content[i]
	if b.Extra != nil {
		b.Extra = cloneExtra(b.Extra) // the start event's block shares it
	}
	p.write(b)
	raw := p.json.String()
	if b.Type != BlockToolUse && raw == "" {
		return
	}
	var in json.RawMessage
	switch {
	case raw == "":
		// No fragments: the input of content_block_start stands.
	case json.Valid([]byte(raw)):
		in = json.RawMessage(raw)
	case len(raw) > maxRepairSize:
		b.Truncated = true
		in = json.RawMessage("{}")
	default:
		b.Truncated = true
		in = RepairJSON(raw)
	}
	if in != nil {
		if b.Type == BlockToolUse {
			b.Input = in
		} else {
			b.setField("input", in)
		}
	}
	if !stopped {
		b.Truncated = true
	}
	if b.Truncated {
		b.PartialInput = raw
	}
}

// write sets in b what the deltas built but its input: the Go fields of
// its type from the builders, and its other fields the deltas touched.
func (p *blockParts) write(b *ContentBlock) {
	fields := []struct {
		key   string
		field *string // the Go field of b's type, if it has one
		b     *builder
		touch uint8
	}{
		{"text", nil, &p.text, touchText},
		{"thinking", nil, &p.thinking, touchThinking},
		{"signature", nil, &p.signature, touchSignature},
	}
	switch b.Type {
	case BlockText:
		fields[0].field = &b.Text
	case BlockThinking:
		fields[1].field = &b.Thinking
		fields[2].field = &b.Signature
	}
	for _, s := range fields {
		switch {
		case s.field != nil:
			*s.field = s.b.String()
		case p.touched&s.touch != 0:
			b.setField(s.key, quote(s.b.String()))
		}
	}
	if p.citations != nil {
		b.setField("citations", p.citations.JSON())
	}
	for _, k := range slices.Sorted(maps.Keys(p.fields)) {
		f := p.fields[k]
		v := f.value
		if v == nil {
			v = quote(f.str.String())
		}
		b.setField(k, v)
	}
}

// quote returns s as a JSON string, written as a server writes it: <, >
// and & as they are.
func quote(s string) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func (a *Accumulator) closeAll() {
	for i := range a.parts {
		a.closeBlock(i, false)
	}
}

// Finish closes every open block, as at the end of a stream: a tool_use
// block that got no content_block_stop is flagged as truncated.
func (a *Accumulator) Finish() { a.closeAll() }

// Started reports whether message_start was seen.
func (a *Accumulator) Started() bool { return a.started }

// Done reports whether message_stop was seen.
func (a *Accumulator) Done() bool { return a.stopped }

// Err returns the error event received, if any.
func (a *Accumulator) Err() *APIError { return a.err }

// Message returns the message assembled so far. It shares no mutable state
// with the accumulator. A tool input still streaming shows in PartialInput.
func (a *Accumulator) Message() Message {
	m := a.msg.Clone()
	for i := range m.Content {
		b, p := &m.Content[i], a.parts[i]
		switch {
		case p.open:
			p.write(b)
			b.PartialInput = p.json.String()
		case b.Type == BlockText:
			b.Text = p.text.String()
		case b.Type == BlockThinking:
			b.Thinking = p.thinking.String()
			b.Signature = p.signature.String()
		}
	}
	if m.Type == "" {
		m.Type = "message"
	}
	if m.Role == "" {
		m.Role = RoleAssistant
	}
	return m
}

// ReplayEvents turns a complete message into the events a stream would have
// sent for it, so callers handle both answers alike.
func ReplayEvents(m *Message) []Event {
	start := *m
	start.Content = nil
	start.StopReason = ""
	start.StopSequence = ""
	evs := []Event{{Type: EventMessageStart, Message: &start}}
	for i := range m.Content {
		b := m.Content[i]
		evs = append(evs,
			Event{Type: EventContentBlockStart, Index: i, Block: &b},
			Event{Type: EventContentBlockStop, Index: i})
	}
	u := m.Usage
	var ud UsageDelta // the counters m has, as the server sent them
	for i, dst := range ud.counterPtrs() {
		if u.written(i) {
			*dst = u.counters()[i]
		}
	}
	evs = append(evs,
		Event{Type: EventMessageDelta, Delta: Delta{StopReason: m.StopReason, StopSequence: m.StopSequence}, Usage: &ud},
		Event{Type: EventMessageStop})
	return evs
}
