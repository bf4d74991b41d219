package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif" // the sizes of the images of results
	_ "image/jpeg"
	_ "image/png"
	"reflect"
	"slices"
	"strings"

	_ "golang.org/x/image/webp"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"muse/api"
	"muse/ui/engine"
)

// Convert turns a tool call's result into the engine's: text as text (cut
// at maxOutput bytes, with a note), images of the types the API takes
// whose bytes are of that type as images (at most maxImageBytes in all;
// each also named in the text), audio (at most maxMessage bytes in all)
// to be saved beside the session, resources as links, other content as a
// note, structured content as JSON text after the other text (unless a
// text part is that JSON already), and the server's error flag as IsError.
func Convert(res *sdk.CallToolResult, maxOutput int) engine.ToolOutput {
	if res == nil {
		return engine.ToolOutput{IsError: true, Text: "the server sent no result"}
	}
	var parts []string
	var images []engine.ToolImage
	var audio []engine.ToolFile
	imageBytes, audioBytes := 0, 0
	for _, c := range res.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			parts = append(parts, c.Text)
		case *sdk.ImageContent:
			switch {
			case !slices.Contains(api.ImageMediaTypes, c.MIMEType):
				parts = append(parts, fmt.Sprintf("[an image of type %q, which cannot be sent on]", c.MIMEType))
			case imageBytes+len(c.Data) > maxImageBytes:
				parts = append(parts, fmt.Sprintf("[an image of %s left out: the images of one result are limited to %d MiB]", size(len(c.Data)), maxImageBytes>>20))
			default:
				b := api.ImageBlock(c.MIMEType, c.Data)
				if b.Validate(api.RoleUser) != nil {
					// Sent on, it would make every later request fail.
					parts = append(parts, fmt.Sprintf("[an image of %s left out: its bytes are not the %s image they are said to be]", size(len(c.Data)), c.MIMEType))
					break
				}
				imageBytes += len(c.Data)
				img := engine.ToolImage{MediaType: c.MIMEType, Data: c.Data}
				if cfg, _, err := image.DecodeConfig(bytes.NewReader(c.Data)); err == nil {
					img.Width, img.Height = cfg.Width, cfg.Height
				}
				images = append(images, img)
				parts = append(parts, fmt.Sprintf("[image: %s, %s]", c.MIMEType, size(len(c.Data))))
			}
		case *sdk.AudioContent:
			if audioBytes+len(c.Data) > maxMessage {
				parts = append(parts, fmt.Sprintf("[audio of type %q, %s, left out: the audio of one result is limited to %s]", c.MIMEType, size(len(c.Data)), size(maxMessage)))
				break
			}
			audioBytes += len(c.Data)
			audio = append(audio, engine.ToolFile{MediaType: c.MIMEType, Data: c.Data})
			parts = append(parts, fmt.Sprintf("[audio %d: %s, %s, saved beside the session (not sent: the model takes no audio)]", len(audio), c.MIMEType, size(len(c.Data))))
		case *sdk.ResourceLink:
			parts = append(parts, link(c.Name, c.URI, c.Description))
		case *sdk.EmbeddedResource:
			r := c.Resource
			switch {
			case r == nil:
			case r.Text != "":
				parts = append(parts, fmt.Sprintf("resource %s:\n%s", r.URI, r.Text))
			default:
				parts = append(parts, fmt.Sprintf("[resource %s: %s of %s data]", r.URI, size(len(r.Blob)), cmpOr(r.MIMEType, "binary")))
			}
		default:
			parts = append(parts, "[content of a kind muse does not know]")
		}
	}
	if res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil && !saysJSON(parts, b) {
			if len(parts) > 0 {
				parts = append(parts, "structured content:")
			}
			parts = append(parts, string(b))
		}
	}
	return engine.ToolOutput{Text: cut(strings.Join(parts, "\n"), maxOutput), Images: images, Audio: audio, IsError: res.IsError}
}

// saysJSON reports whether one of the text parts is the JSON value b
// already, as servers write structured content for clients that read only
// text (the MCP specification asks them to).
func saysJSON(parts []string, b []byte) bool {
	var want any
	if json.Unmarshal(b, &want) != nil {
		return false
	}
	for _, p := range parts {
		var got any
		if json.Unmarshal([]byte(p), &got) == nil && reflect.DeepEqual(got, want) {
			return true
		}
	}
	return false
}

// link writes a resource link as a markdown link, with its description.
func link(name, uri, desc string) string {
	s := fmt.Sprintf("[%s](%s)", cmpOr(name, uri), uri)
	if desc != "" {
		s += ": " + desc
	}
	return s
}

// cut keeps the first limit bytes of s (not splitting a character), with
// a note of how many were cut, worded as for a command's output.
func cut(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	keep := limit
	for keep > 0 && keep < len(s) && s[keep]&0xC0 == 0x80 {
		keep--
	}
	return fmt.Sprintf("%s\n… %d more bytes cut (limit %s)", s[:keep], len(s)-keep, size(limit))
}

// size writes n bytes as people read it (api.SizeText).
func size(n int) string { return api.SizeText(int64(n)) }
