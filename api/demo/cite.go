package demo

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"muse/api"
)

// citedBlocks are the text blocks that cite the plain-text documents of
// the last user message that ask for citations (citations: {enabled:
// true}): one per document, quoting its first line, with a char_location
// citation of it, as the service cites a document. document_index counts
// the request's documents in order.
func citedBlocks(msgs []api.MessageParam) []planBlock {
	var out []planBlock
	index := 0
	last := len(msgs) - 1
	for i, m := range msgs {
		for _, b := range m.Blocks {
			if b.Type != api.BlockDocument {
				continue
			}
			index++
			if i != last || m.Role != api.RoleUser || b.Source == nil || b.Source.Type != api.SourceText || !citationsOn(b) {
				continue
			}
			first, _, _ := strings.Cut(b.Source.Data, "\n")
			first = strings.TrimSuffix(first, "\r")
			if strings.TrimSpace(first) == "" {
				continue
			}
			c, _ := json.Marshal(map[string]any{
				"type": "char_location", "cited_text": first, "document_index": index - 1, "document_title": b.Title,
				"start_char_index": 0, "end_char_index": utf8.RuneCountInString(first),
			})
			out = append(out, planBlock{
				start:     api.ContentBlock{Type: api.BlockText},
				deltas:    splitWords(fmt.Sprintf("It begins “%s”. ", first)),
				citations: []json.RawMessage{c},
			})
		}
	}
	return out
}

// citationsOn reports whether the document b asks for citations.
func citationsOn(b api.ContentBlock) bool {
	var c struct {
		Enabled bool `json:"enabled"`
	}
	return json.Unmarshal(b.Extra["citations"], &c) == nil && c.Enabled
}

// citationsDelta is the delta that adds a citation to a text block.
type citationsDelta struct {
	Type     string          `json:"type"`
	Citation json.RawMessage `json:"citation"`
}
