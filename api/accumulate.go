package api

import (
	"encoding/json"
	"strings"
)

// Accumulator assembles a Message from stream events. Blocks are addressed
// by their index, so deltas of different blocks may interleave. Text grows in
// builders, so a reply of n deltas costs O(n), not O(n²). The zero value is
// ready to use. It is not safe for concurrent use.
//
// The accumulator of a Stream has a size limit: the stream fits each event
// to the room left (see fit) before it adds it, so the message stops growing
// at the limit.
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

type blockParts struct {
	text, thinking, signature, json builder
	open                            bool
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
		p := a.block(ev.Index)
		if p == nil {
			return nil
		}
		switch ev.Delta.Type {
		case DeltaText:
			p.text.WriteString(ev.Delta.Text, a.limit)
		case DeltaThinking:
			p.thinking.WriteString(ev.Delta.Thinking, a.limit)
		case DeltaSignature:
			p.signature.WriteString(ev.Delta.Signature, a.limit)
		case DeltaInputJSON:
			p.json.WriteString(ev.Delta.PartialJSON, a.limit)
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
			set(&a.msg.Usage.InputTokens, u.InputTokens)
			set(&a.msg.Usage.OutputTokens, u.OutputTokens)
			set(&a.msg.Usage.CacheCreationInputTokens, u.CacheCreationInputTokens)
			set(&a.msg.Usage.CacheReadInputTokens, u.CacheReadInputTokens)
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
			m, cut := CutMessage(*ev.Message, room)
			m.StopReason, m.StopSequence = ev.Message.StopReason, ev.Message.StopSequence
			a.size += ContentSize(m)
			ev.Message = &m
			return ev, cut
		}
	case EventContentBlockStart:
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
			return ev, false // not kept, so not counted
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

// set overwrites *dst when the counter was sent: usage in message_delta is cumulative.
func set(dst *int, v *int) {
	if v != nil {
		*dst = *v
	}
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

// seed moves a start block's initial text into its builders, so deltas append to it.
func (a *Accumulator) seed(i int) {
	b, p := &a.msg.Content[i], a.parts[i]
	p.text.WriteString(b.Text, a.limit)
	p.thinking.WriteString(b.Thinking, a.limit)
	p.signature.WriteString(b.Signature, a.limit)
}

func (a *Accumulator) block(index int) *blockParts {
	i, ok := a.pos[index]
	if !ok {
		return nil
	}
	return a.parts[i]
}

// closeBlock parses a finished tool input once. stopped tells whether the
// block got its content_block_stop. A tool_use block closed any other way (by
// message_stop or Finish) never finished, so it is flagged as truncated even
// when its input parses, or when no input arrived at all. Input that is not
// complete JSON is kept in PartialInput, repaired as far as it goes, and
// flagged as truncated; above maxRepairSize it is not repaired but set to {}.
func (a *Accumulator) closeBlock(i int, stopped bool) {
	p := a.parts[i]
	if !p.open {
		return
	}
	p.open = false
	p.text.trim()
	p.thinking.trim()
	b := &a.msg.Content[i]
	if b.Type != BlockToolUse {
		return
	}
	raw := p.json.String()
	switch {
	case raw == "":
		// No fragments: the input of content_block_start stands.
	case json.Valid([]byte(raw)):
		b.Input = json.RawMessage(raw)
	case len(raw) > maxRepairSize:
		b.Truncated = true
		b.Input = json.RawMessage("{}")
	default:
		b.Truncated = true
		b.Input = RepairJSON(raw)
	}
	if !stopped {
		b.Truncated = true
	}
	if b.Truncated {
		b.PartialInput = raw
	}
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
		switch b.Type {
		case BlockText:
			b.Text = p.text.String()
		case BlockThinking:
			b.Thinking = p.thinking.String()
			b.Signature = p.signature.String()
		case BlockToolUse:
			if p.open {
				b.PartialInput = p.json.String()
			}
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
	evs = append(evs,
		Event{Type: EventMessageDelta, Delta: Delta{StopReason: m.StopReason, StopSequence: m.StopSequence},
			Usage: &UsageDelta{InputTokens: &u.InputTokens, OutputTokens: &u.OutputTokens,
				CacheCreationInputTokens: &u.CacheCreationInputTokens, CacheReadInputTokens: &u.CacheReadInputTokens}},
		Event{Type: EventMessageStop})
	return evs
}
