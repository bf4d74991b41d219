package cli

import (
	"encoding/json"
	"io"

	"muse/api"
	"muse/ui/sanitize"
)

// printToolCalls writes the tool calls of a reply as one JSON array.
func printToolCalls(w io.Writer, m *api.Message) {
	type call struct {
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
		Truncated bool            `json:"truncated,omitempty"`
	}
	var calls []call
	for _, b := range m.Content {
		if b.Type == api.BlockToolUse {
			calls = append(calls, call{ID: b.ID, Name: b.Name, Input: b.Input, Truncated: b.Truncated})
		}
	}
	data, _ := json.Marshal(calls)
	w.Write(append(sanitize.JSON(data), '\n'))
}
