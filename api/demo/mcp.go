package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"time"
	"unicode"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"muse/api"
)

// MCPServerName is the name --demo gives its MCP server, which prefixes
// its tools' names (demo__word_count).
const MCPServerName = "demo"

// MCPConnect connects to a new demo MCP server in this process, so that
// --demo shows MCP tools with nothing to install: clock (the time in UTC,
// from now), echo (its text back) and word_count (the words and lines of
// a text). It reads nothing and changes nothing.
func MCPConnect(now func() time.Time) func(ctx context.Context) (sdk.Transport, error) {
	return func(ctx context.Context) (sdk.Transport, error) {
		ct, st := sdk.NewInMemoryTransports()
		if _, err := mcpServer(now).Connect(ctx, st, nil); err != nil {
			return nil, fmt.Errorf("demo MCP server: %w", err)
		}
		return ct, nil
	}
}

// mcpServer builds the demo MCP server.
func mcpServer(now func() time.Time) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "muse-demo", Version: "1"}, nil)
	text := func(s string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
	}
	textSchema := json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","description":"the text"}},"required":["text"]}`)
	// textTool is a tool that answers f of its {"text": ...} input.
	textTool := func(f func(string) string) sdk.ToolHandler {
		return func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var in struct {
				Text *string `json:"text"`
			}
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil || in.Text == nil {
				r := text(`the input must be {"text": "..."}`)
				r.IsError = true
				return r, nil
			}
			return text(f(*in.Text)), nil
		}
	}
	s.AddTool(&sdk.Tool{Name: "clock", Description: "The current time in UTC (demo MCP server).", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text(now().UTC().Format("15:04 UTC, Monday 2 January 2006")), nil
		})
	s.AddTool(&sdk.Tool{Name: "echo", Description: "Sends the text back (demo MCP server).", InputSchema: textSchema},
		textTool(func(t string) string { return t }))
	s.AddTool(&sdk.Tool{Name: "word_count", Description: "Counts the words, lines and characters of a text (demo MCP server).", InputSchema: textSchema},
		textTool(func(t string) string {
			lines := strings.Count(t, "\n")
			if t != "" && !strings.HasSuffix(t, "\n") {
				lines++
			}
			words := len(strings.FieldsFunc(t, unicode.IsSpace))
			return fmt.Sprintf("%d words, %d lines, %d characters", words, lines, len([]rune(t)))
		}))
	return s
}

// mcpCall chooses what demo:mcp calls, from the tools req offers and the
// prompt less the keyword: when the prompt names a file (a word that starts
// with /, ./ or ~/, or @ and one of them) and a server offers read_text_file or read_file (as the
// reference filesystem server does; for an image, read_media_file or
// read_image first), that tool with {"path": FILE}; else
// the demo server's word_count, else the first MCP tool offered (named
// SERVER__TOOL), with {"text": PROMPT}. The name is "" when no MCP tool is
// offered.
func mcpCall(req *api.MessageRequest, prompt string) (name string, input map[string]string) {
	if file := filePath(prompt); file != "" {
		read := []string{"__read_text_file", "__read_file"}
		if isImageFile(file) {
			read = append([]string{"__read_media_file", "__read_image"}, read...)
		}
		for _, want := range read {
			for _, t := range req.Tools {
				if strings.HasSuffix(t.Name, want) {
					return t.Name, map[string]string{"path": file}
				}
			}
		}
	}
	first := ""
	for _, t := range req.Tools {
		if t.Name == MCPServerName+"__word_count" {
			return t.Name, map[string]string{"text": prompt}
		}
		if first == "" && strings.Contains(t.Name, "__") {
			first = t.Name
		}
	}
	return first, map[string]string{"text": prompt}
}

// isImageFile tells by its name whether file is an image the API takes.
func isImageFile(file string) bool {
	ext := strings.ToLower(path.Ext(file))
	return ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".gif" || ext == ".webp"
}

// filePath returns the first word of prompt that names a file (as typed,
// or as the chat screen's @mention of it), less the punctuation that ends
// a sentence, or "".
func filePath(prompt string) string {
	for _, w := range strings.Fields(prompt) {
		w = strings.TrimPrefix(w, "@")
		if strings.HasPrefix(w, "/") || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "~/") {
			return strings.TrimRight(w, ".,;:!?)\"'")
		}
	}
	return ""
}
