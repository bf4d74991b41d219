package demo

import (
	"encoding/base64"
	"image/color"
	"net/http"
	"strings"
	"testing"

	"muse/api"
	"muse/api/pdftest"
)

// TestDemoRefusesWhatTheServiceRefuses checks that the demo refuses, with a
// 400 naming what is wrong, each request over the service's limits that
// it took before: 101 images, a PDF of 101 pages, 100 images and a PDF
// page, an image that does not decode, a side over 8000 px, a side over
// 2000 px among more than 20 images, a tool's name the service's pattern
// refuses, and a thinking budget under 1024; and that requests just
// within each limit pass.
func TestDemoRefusesWhatTheServiceRefuses(t *testing.T) {
	small := api.ImageBlock("image/png", encoded(t, "png", filled(2, 2, color.Black)))
	images := func(n int, extra ...api.ContentBlock) []api.ContentBlock {
		out := make([]api.ContentBlock, n, n+len(extra))
		for i := range out {
			out[i] = small
		}
		return append(out, extra...)
	}
	wide := func(w int) api.ContentBlock {
		return api.ImageBlock("image/png", encoded(t, "png", filled(w, 1, color.White)))
	}
	undecodable := api.ContentBlock{Type: api.BlockImage, Source: &api.Source{Type: api.SourceBase64, MediaType: "image/png",
		Data: base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"))}}
	srv := newTestServer(t, Options{})
	for _, tc := range []struct {
		name string
		body map[string]any
		want string // "" for a request the service takes
	}{
		{"100 images", withBlocks("hi", images(100)...), ""},
		{"101 images", withBlocks("hi", images(101)...), "messages: this request would carry 101 images and PDF pages"},
		{"99 images and a PDF of 2 pages", withBlocks("hi", images(99, api.DocumentBlock(api.MediaPDF, pdftest.Paged(2), ""))...), "messages: this request would carry 101 images and PDF pages (99 images, 2 pages)"},
		{"100 pages", withBlocks("hi", api.DocumentBlock(api.MediaPDF, pdftest.Paged(100), "")), ""},
		{"101 pages", withBlocks("hi", api.DocumentBlock(api.MediaPDF, pdftest.Paged(101), "")), "messages.0.content.0: PDF has 101 pages, over the service's 100"},
		{"undecodable image", withBlocks("hi", undecodable), "messages.0.content.0: the image does not decode"},
		{"8000 px", withBlocks("hi", wide(8000)), ""},
		{"8001 px", withBlocks("hi", wide(8001)), "messages.0.content.0: image is 8001×1 px, over the service's 8000 px a side"},
		{"2001 px among 20", withBlocks("hi", images(19, wide(2001))...), ""},
		{"2001 px among 21", withBlocks("hi", images(20, wide(2001))...), "messages: this request would carry 21 images, 1 of them over 2000 px a side"},
		{"tool name with a dot", chat("hi", map[string]any{"tools": []any{map[string]any{"name": "fs.read", "input_schema": map[string]any{"type": "object"}}}}),
			"tools.0.custom.name: String should match pattern"},
		{"tool name of 129", chat("hi", map[string]any{"tools": []any{map[string]any{"name": strings.Repeat("a", 129), "input_schema": map[string]any{"type": "object"}}}}),
			"tools.0.custom.name: String should match pattern"},
		{"thinking budget 1023", chat("hi", map[string]any{"max_tokens": 4096, "thinking": map[string]any{"type": "enabled", "budget_tokens": 1023}}),
			"thinking.enabled.budget_tokens: Input should be greater than or equal to 1024"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := postMessage(t, srv, tc.body)
			if tc.want == "" {
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("status %d, want 200", resp.StatusCode)
				}
				resp.Body.Close()
				return
			}
			msg := expectError(t, resp, http.StatusBadRequest, errInvalidRequest)
			if !strings.HasPrefix(msg, tc.want) {
				t.Errorf("message %q\nwant %q…", msg, tc.want)
			}
		})
	}
}
