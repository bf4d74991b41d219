package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// A reply has a size limit, counted in bytes of its content: the text,
// thinking, signatures and tool inputs of its blocks (see ContentSize). A
// stream that passes it is cut where it passes it: the event that passes it
// is cut to fit, the connection is closed, and the reply ends as if the
// server had stopped there, with the stop reason StopSizeLimit. No event is
// read into memory past what the reply still has room for, so memory stays
// bounded however much the server sends. MaxReplySize sets the limit of a
// call; DefaultMaxReplySize is far beyond what any max_tokens produces.
//
// A reply also holds at most MaxReplyBlocks blocks, cut the same way: a
// block costs memory whatever its content, and a server that starts empty
// blocks for ever would otherwise grow a reply without end under the size
// limit (it took 24 GB in an hour).

// eventSlack is how much larger than the room left in a reply one event's
// data may be: the JSON around the content, and the small events (a
// message_delta, a message_stop) that follow a reply at its limit.
const eventSlack = 64 << 10

// MaxReplyBlocks is the most content blocks one reply may hold. No model
// writes near this many (a long answer with citations and searches has
// hundreds); a reply that passes it is cut there, as at the size limit.
const MaxReplyBlocks = 4096

// ContentSize returns the bytes the content of m counts toward the size
// limit of a reply: the text, thinking, signature, tool input, tool result
// and raw JSON of its blocks, their ids, names, titles and sources, and
// their fields without a Go field. The partial input of a tool call cut
// short does not count: its Input does.
func ContentSize(m Message) int {
	n := 0
	for i := range m.Content {
		n += blockSize(&m.Content[i])
	}
	return n
}

func blockSize(b *ContentBlock) int {
	n := len(b.Text) + len(b.Thinking) + len(b.Signature) + len(b.Input) + len(b.ResultContent) + len(b.Raw) +
		len(b.ID) + len(b.Name) + len(b.ToolUseID) + len(b.Title) + extraSize(b.Extra)
	if s := b.Source; s != nil {
		n += len(s.Type) + len(s.MediaType) + len(s.Data) + len(s.URL) + len(s.raw)
	}
	return n
}

// extraSize returns the bytes of the fields in extra, names and values.
func extraSize(extra map[string]json.RawMessage) int {
	n := 0
	for k, v := range extra {
		n += len(k) + len(v)
	}
	return n
}

// CutMessage cuts m to at most limit bytes of content and MaxReplyBlocks
// blocks, as a stream is cut at the size limit: the blocks that fit are
// kept, a text or thinking block that does not is cut at a character
// boundary (a cut thinking block loses its signature), the blocks after it
// are dropped, and the stop reason becomes StopSizeLimit. It reports
// whether m was cut; m itself is not changed.
func CutMessage(m Message, limit int) (Message, bool) {
	return cutMessage(m, limit, MaxReplyBlocks)
}

// cutMessage is CutMessage with room for at most blocks blocks.
func cutMessage(m Message, limit, blocks int) (Message, bool) {
	used := 0
	for i := range m.Content {
		if i >= blocks {
			m.Content = slices.Clone(m.Content[:i])
			m.StopReason, m.StopSequence = StopSizeLimit, ""
			return m, true
		}
		n := blockSize(&m.Content[i])
		if used+n <= limit {
			used += n
			continue
		}
		content := slices.Clone(m.Content[:i])
		if b, ok := cutBlock(m.Content[i], limit-used); ok {
			content = append(content, b)
		}
		m.Content = content
		m.StopReason, m.StopSequence = StopSizeLimit, ""
		return m, true
	}
	return m, false
}

// wholeReply is a message answered whole, as JSON, decoded with at most
// MaxReplyBlocks blocks, one at a time: a body of a million empty blocks
// (24 MB) made a million of them, a gigabyte, before they were cut. The
// blocks past that are not decoded, and the stop reason becomes
// StopSizeLimit.
type wholeReply struct{ m Message }

func (w *wholeReply) UnmarshalJSON(data []byte) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return err
	}
	content := fields["content"]
	delete(fields, "content")
	rest, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(rest, &w.m); err != nil {
		return err
	}
	if len(content) == 0 || string(content) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(content))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return fmt.Errorf("content is not an array")
	}
	for dec.More() {
		if len(w.m.Content) == MaxReplyBlocks {
			w.m.StopReason, w.m.StopSequence = StopSizeLimit, ""
			break
		}
		var b ContentBlock
		if err := dec.Decode(&b); err != nil {
			return fmt.Errorf("content block %d: %w", len(w.m.Content), err)
		}
		w.m.Content = append(w.m.Content, b)
	}
	return nil
}

// cutBlock cuts a text or thinking block to room bytes; ok is false when
// nothing of it is left, or it is of another type, which is kept whole or
// not at all. What is kept is a copy, so that the rest can be freed.
func cutBlock(b ContentBlock, room int) (ContentBlock, bool) {
	switch b.Type {
	case BlockText:
		b.Text = strings.Clone(cutString(b.Text, room-(blockSize(&b)-len(b.Text))))
		return b, b.Text != ""
	case BlockThinking:
		b.Signature = ""
		b.Thinking = strings.Clone(cutString(b.Thinking, room-(blockSize(&b)-len(b.Thinking))))
		return b, b.Thinking != ""
	}
	return b, false
}

// cutString returns the longest prefix of s of at most n bytes that does
// not end inside a UTF-8 sequence.
func cutString(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// ReplyCutNote is what muse says of a reply cut at the size limit limit.
func ReplyCutNote(limit int) string {
	return fmt.Sprintf("reply cut at %s, the size limit of one reply: the rest was dropped", SizeText(int64(limit)))
}

// CutNote is what muse says, once the reply m is cut (its stop reason is
// StopSizeLimit) under the size limit limit: why, and what to do.
func CutNote(m Message, limit int) string {
	if len(m.Content) >= MaxReplyBlocks {
		return fmt.Sprintf("reply cut at %d blocks, the most one reply may hold (no model writes that many: check the server): the rest was dropped, and the conversation goes on", MaxReplyBlocks)
	}
	return ReplyCutNote(limit) + "; ask for a shorter answer, or for it a part at a time"
}

// OversizedNote is what muse says of a reply cut by one event of over n
// bytes, more than the whole size limit (see Stream.OversizedEvent): the
// server is at fault, and a shorter answer would not help.
func OversizedNote(n int) string {
	return fmt.Sprintf("reply cut: the server sent one event of over %s, more than a whole reply may hold (no model streams that much at once); what fit was kept, the rest dropped, and the conversation goes on; check the server, or the base URL (base_url in the profile)",
		SizeText(int64(n)))
}

// salvage makes an event of the start of one cut at the size limit: the
// data of a content_block_delta whose last field is the string that grew
// past the limit, as Anthropic's servers write them, is closed after its
// last whole character. ok is false for any other event, which is lost.
func salvage(data []byte) (Event, bool) {
	for {
		n := len(data)
		data = trimEscape(data)
		data = trimRune(data)
		if len(data) == n {
			break
		}
	}
	ev, err := parseEvent(EventContentBlockDelta, append(data, `"}}`...))
	if err != nil || ev.Type != EventContentBlockDelta {
		return Event{}, false
	}
	return ev, true
}

// trimEscape drops an escape sequence left unfinished at the end of b, a cut
// JSON string: a lone backslash, or \u with fewer than four digits.
func trimEscape(b []byte) []byte {
	n := len(b)
	for k := n - 1; k >= max(0, n-6); k-- {
		if b[k] != '\\' {
			continue
		}
		j := k
		for j > 0 && b[j-1] == '\\' {
			j--
		}
		if (k-j)%2 == 1 {
			return b // an escaped backslash: complete
		}
		if k == n-1 || b[k+1] == 'u' && n-k < 6 {
			return b[:k]
		}
		return b
	}
	return b
}

// trimRune drops a UTF-8 sequence left unfinished at the end of b.
func trimRune(b []byte) []byte {
	for i := len(b) - 1; i >= max(0, len(b)-utf8.UTFMax); i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			return b
		}
	}
	return b
}

// SizeText writes n bytes as people read them: "4 MiB", "1.5 MiB",
// "64 KiB", "1.5 KiB" or "100 bytes". It is how muse says a size or a limit
// in its messages.
func SizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
