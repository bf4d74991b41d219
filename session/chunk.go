package session

import (
	"bytes"
	"encoding/json"
	"strings"

	"muse/api"
)

// chunk is the body of a chunk record: what a streaming reply gained since
// its previous chunk. The first chunk of a reply carries the entry without
// its content (its id, parent, time, settings and model); each later one
// names the entry by id. Replaying a reply's chunks in order rebuilds its
// content, as far as it was written.
type chunk struct {
	ID string `json:"id"`
	// Entry is the reply without its content, in the first chunk only.
	Entry *Entry `json:"entry,omitempty"`
	// Blocks are the changes to the reply's content blocks, in order.
	Blocks []blockDelta `json:"blocks,omitempty"`
}

// blockDelta changes content block I of a streaming reply: Block, when set,
// replaces it (or adds it, for the next index); the strings are then
// appended to its fields, and Signature and Input replace theirs.
type blockDelta struct {
	I         int               `json:"i"`
	Block     *api.ContentBlock `json:"block,omitempty"`
	Text      string            `json:"text,omitempty"`
	Thinking  string            `json:"thinking,omitempty"`
	Partial   string            `json:"partial,omitempty"`
	Signature string            `json:"signature,omitempty"`
	Input     json.RawMessage   `json:"input,omitempty"`
}

// blockMark is what the last chunk of a reply wrote of one content block.
type blockMark struct {
	typ                     string
	text, thinking, partial int
	signature               string
	input                   string
}

// diffBlocks returns the changes from the blocks marked by old to blocks,
// and the marks of blocks.
func diffBlocks(old []blockMark, blocks []api.ContentBlock) ([]blockDelta, []blockMark) {
	var out []blockDelta
	marks := make([]blockMark, len(blocks))
	for i, b := range blocks {
		marks[i] = blockMark{typ: b.Type, text: len(b.Text), thinking: len(b.Thinking), partial: len(b.PartialInput), signature: b.Signature, input: string(b.Input)}
		if i >= len(old) || old[i].typ != b.Type || old[i].text > len(b.Text) || old[i].thinking > len(b.Thinking) || old[i].partial > len(b.PartialInput) {
			whole := b
			whole.PartialInput = ""
			out = append(out, blockDelta{I: i, Block: &whole, Partial: b.PartialInput})
			continue
		}
		o := old[i]
		d := blockDelta{I: i, Text: b.Text[o.text:], Thinking: b.Thinking[o.thinking:], Partial: b.PartialInput[o.partial:]}
		if b.Signature != o.signature {
			d.Signature = b.Signature
		}
		if string(b.Input) != o.input {
			d.Input = b.Input
		}
		if d.Text == "" && d.Thinking == "" && d.Partial == "" && d.Signature == "" && d.Input == nil {
			continue
		}
		if b.Type != api.BlockText && b.Type != api.BlockThinking && b.Type != api.BlockToolUse {
			// Blocks of other types are rewritten whole when they change.
			whole := b
			out = append(out, blockDelta{I: i, Block: &whole})
			continue
		}
		out = append(out, d)
	}
	return out, marks
}

// applyChunk applies the changes of c to the content of e.
func applyChunk(e *Entry, c *chunk) {
	if e.Message == nil {
		e.Message = &api.Message{Role: api.RoleAssistant}
	}
	content := e.Message.Content
	for _, d := range c.Blocks {
		if d.I < 0 || d.I > len(content) {
			continue // a gap: an earlier chunk was lost
		}
		if d.Block != nil {
			b := *d.Block
			b.PartialInput = ""
			if d.I == len(content) {
				content = append(content, b)
			} else {
				content[d.I] = b
			}
		} else if d.I == len(content) {
			continue
		}
		b := &content[d.I]
		b.Text += d.Text
		b.Thinking += d.Thinking
		b.PartialInput += d.Partial
		if d.Signature != "" {
			b.Signature = d.Signature
		}
		if d.Input != nil {
			b.Input = bytes.Clone(d.Input)
		}
	}
	e.Message.Content = content
}

// worthKeeping reports whether the reply e holds anything but blank text.
func worthKeeping(e *Entry) bool {
	if e.Message == nil {
		return false
	}
	for _, b := range e.Message.Content {
		switch b.Type {
		case api.BlockText:
			if strings.TrimSpace(b.Text) != "" {
				return true
			}
		case api.BlockThinking:
			if b.Thinking != "" {
				return true
			}
		default:
			return true
		}
	}
	return false
}
