package demo

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"muse/api"
)

// defaultTool is called by demo:tool when the request offers no tools.
const defaultTool = "get_time"

// TimeTool is the tool --demo offers, so that demo:tool shows a tool call,
// its approval and its result with no configuration: get_time, whose
// command prints the time in UTC. The command is run by muse, never sent to
// the server; it reads nothing and changes nothing.
func TimeTool() (def api.Tool, command []string) {
	def = api.Tool{
		Name:        defaultTool,
		Description: "The current time (UTC, hours and minutes).",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"timezone":{"type":"string","description":"an IANA time zone; the demo answers in UTC"}}}`),
	}
	return def, []string{"date", "-u", "+%H:%M UTC"}
}

// pickTool chooses the tool demo:tool calls: the one named by tool_choice
// {"type":"tool"}, else the first tool offered, else get_time.
func pickTool(req *api.MessageRequest) (name string, schema json.RawMessage) {
	if tc := req.ToolChoice; tc != nil && tc.Type == "tool" {
		for _, t := range req.Tools {
			if t.Name == tc.Name {
				return t.Name, t.InputSchema
			}
		}
	}
	if len(req.Tools) > 0 {
		return req.Tools[0].Name, req.Tools[0].InputSchema
	}
	return defaultTool, nil
}

// forcesTool says whether req's tool_choice makes the reply call a tool:
// any, or a tool named; none and auto leave it to the prompt.
func forcesTool(req *api.MessageRequest) bool {
	tc := req.ToolChoice
	return tc != nil && len(req.Tools) > 0 && (tc.Type == "any" || tc.Type == "tool")
}

// refusesTools says whether req's tool_choice is none: no tool is called,
// whatever the prompt asks.
func refusesTools(req *api.MessageRequest) bool {
	return req.ToolChoice != nil && req.ToolChoice.Type == "none"
}

// schemaProperty is the part of a JSON Schema property the demo reads.
type schemaProperty struct {
	Type  any               `json:"type"`
	Enum  []json.RawMessage `json:"enum"`
	Items *schemaProperty   `json:"items"`
}

// sampleInput builds a tool input: a sample value for every property of the
// schema, or {"timezone":"UTC"} when the schema has none. Keys come out
// sorted, so the result is deterministic.
func sampleInput(schema json.RawMessage) string {
	var s struct {
		Properties map[string]schemaProperty `json:"properties"`
	}
	if len(schema) == 0 || json.Unmarshal(schema, &s) != nil || len(s.Properties) == 0 {
		return `{"timezone":"UTC"}`
	}
	in := make(map[string]any, len(s.Properties))
	for name, p := range s.Properties {
		in[name] = sampleValue(name, p)
	}
	b, err := marshal(in)
	if err != nil {
		return `{"timezone":"UTC"}`
	}
	return string(b)
}

// sampleValue is a plausible value for one schema property.
func sampleValue(name string, p schemaProperty) any {
	if len(p.Enum) > 0 {
		return p.Enum[0]
	}
	typ, _ := p.Type.(string)
	if list, ok := p.Type.([]any); ok && len(list) > 0 {
		typ, _ = list[0].(string)
	}
	switch typ {
	case "integer":
		return 3
	case "number":
		return 1.5
	case "boolean":
		return true
	case "array":
		if p.Items != nil {
			return []any{sampleValue(name, *p.Items)}
		}
		return []any{}
	case "object":
		return map[string]any{}
	case "null":
		return nil
	}
	lower := strings.ToLower(name)
	switch {
	case strings.Contains(lower, "zone"):
		return "UTC"
	case strings.Contains(lower, "city") || strings.Contains(lower, "location"):
		return "Paris"
	case strings.Contains(lower, "url"):
		return "https://example.com/"
	case strings.Contains(lower, "path") || strings.Contains(lower, "file"):
		return "README.md"
	}
	return "sample " + name
}

// splitJSON cuts s into at least 3 fragments on rune boundaries, the way
// input_json_delta events carry it.
func splitJSON(s string) []string {
	parts := 4
	if n := len(s) / 12; n > parts {
		parts = n
	}
	size := (len(s) + parts - 1) / parts
	if size < 1 {
		size = 1
	}
	var out []string
	for len(s) > 0 {
		n := size
		if n >= len(s) {
			n = len(s)
		}
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}
