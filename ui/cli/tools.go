package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"os"

	"muse/api"
	"muse/ui"
)

// toolFile is one tool of a --tools file.
type toolFile struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
	Command     []string        `json:"command"`
}

// loadToolsFile reads --tools FILE.json: a JSON array of tools, each with a
// name, a description, an object input_schema and an optional command.
func loadToolsFile(path string) ([]ui.Tool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("read --tools file: %v", err)
	}
	var raw []toolFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return nil, usagef("%s: want a JSON array of {name, description, input_schema, command}: %v", path, err)
	}
	seen := map[string]bool{}
	tools := make([]ui.Tool, 0, len(raw))
	for i, t := range raw {
		if t.Name == "" {
			return nil, usagef("%s: tool %d has no name", path, i+1)
		}
		if seen[t.Name] {
			return nil, usagef("%s: two tools are named %q", path, t.Name)
		}
		seen[t.Name] = true
		var schema map[string]any
		if json.Unmarshal(t.InputSchema, &schema) != nil {
			return nil, usagef("%s: tool %q needs an input_schema object", path, t.Name)
		}
		if t.Command != nil && len(t.Command) == 0 {
			return nil, usagef("%s: tool %q has an empty command: leave it out, or give an argv array", path, t.Name)
		}
		tools = append(tools, ui.Tool{Def: api.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}, Command: t.Command})
	}
	return tools, nil
}

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
	w.Write(append(data, '\n'))
}
