package mcp

import (
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Structured content is kept with the text, unless a text part says the
// same JSON already; alone, it is the text.
func TestConvertKeepsStructuredContent(t *testing.T) {
	for _, c := range []struct {
		name string
		res  *sdk.CallToolResult
		want string
	}{
		{"with other text", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "It is warm."}},
			StructuredContent: map[string]any{"temperature": 22.5}}, "It is warm.\nstructured content:\n{\"temperature\":22.5}"},
		{"said as text already", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "{\n  \"temperature\": 22.5\n}"}},
			StructuredContent: map[string]any{"temperature": 22.5}}, "{\n  \"temperature\": 22.5\n}"},
		{"alone", &sdk.CallToolResult{StructuredContent: map[string]any{"ok": true}}, `{"ok":true}`},
	} {
		if got := Convert(c.res, 1000).Text; got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
