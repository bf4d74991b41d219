package demo

import (
	"encoding/base64"
	"strings"
	"testing"

	"muse/api"
)

// An image counts as Anthropic's vision documentation says: width×height
// / 750 tokens, after scaling down to at most 1568 px a side and about
// 1600 tokens; its examples are 200×200 ≈ 54, 1000×1000 ≈ 1334 and
// 1092×1092 ≈ 1590.
func TestImageSideTokens(t *testing.T) {
	for _, c := range []struct{ w, h, want int }{
		{200, 200, 54},
		{1000, 1000, 1334},
		{1092, 1092, 1590},
		{1, 1, 1},
		{1568, 100, 210},   // at the side limit: not scaled
		{3136, 200, 210},   // twice the side limit: halved
		{6000, 4000, 1599}, // scaled to 1.2 megapixels: 1341×894
		{1568, 1045, 1599}, // muse's scaled photo: over 1600 tokens, so scaled again to 1341×894
		{40000, 1, 3},      // 1568×1 after scaling (at least a pixel a side)
		{0, 10, 0},
	} {
		if got := imageSideTokens(c.w, c.h); got != c.want {
			t.Errorf("%d×%d: %d tokens, want %d", c.w, c.h, got, c.want)
		}
	}
}

// An image sent counts in the reply's input tokens and in count_tokens
// alike, as the service counts it, both in a user message and in a tool
// result; reading its size decodes only its header, so bytes past the
// header are never read.
func TestImagesCountAsInput(t *testing.T) {
	srv := newTestServer(t, Options{})
	base := getMessage(t, srv, chat("what is in it", nil)).Usage.InputTokens
	photo := api.ImageBlock("image/png", pngHeader(1000, 1000))
	if got := getMessage(t, srv, withBlocks("what is in it", photo)).Usage.InputTokens; got != base+1334 {
		t.Errorf("a 1000×1000 image: %d input tokens, want %d", got, base+1334)
	}
	body := withBlocks("what is in it", photo, api.ImageBlock("image/png", pngHeader(4000, 3000)))
	want := base + 1334 + 1598 // 4000×3000 is scaled to 1264×948
	if got := getMessage(t, srv, body).Usage.InputTokens; got != want {
		t.Errorf("a 1000×1000 and a 4000×3000 image: %d input tokens, want %d", got, want)
	}
	delete(body, "max_tokens")
	var counted struct {
		InputTokens int `json:"input_tokens"`
	}
	decodeOK(t, post(t, srv.URL+countTokensPath, body, messageHeaders()), &counted)
	if counted.InputTokens != want {
		t.Errorf("count_tokens of the same: %d, want %d", counted.InputTokens, want)
	}

	// A tool result's image counts too.
	img := map[string]any{"type": "image", "source": map[string]any{"type": "base64", "media_type": "image/png",
		"data": base64.StdEncoding.EncodeToString(pngHeader(200, 200))}}
	withResult := func(content any) map[string]any {
		return chat("", map[string]any{"messages": []any{
			map[string]any{"role": "user", "content": "look"},
			map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "toolu_1", "name": "shot", "input": map[string]any{}}}},
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_1", "content": content}}},
		}})
	}
	plain := getMessage(t, srv, withResult([]any{map[string]any{"type": "text", "text": "done"}})).Usage.InputTokens
	if got := getMessage(t, srv, withResult([]any{map[string]any{"type": "text", "text": "done"}, img})).Usage.InputTokens; got != plain+54 {
		t.Errorf("a tool result with a 200×200 image: %d input tokens, want %d", got, plain+54)
	}

	// Past the header, the data is not even valid base64: it is not read.
	src := &api.Source{Type: api.SourceBase64, MediaType: "image/png",
		Data: base64.StdEncoding.EncodeToString(pngHeader(200, 200)) + strings.Repeat("!", 1<<20)}
	if got := imageTokens(&api.ContentBlock{Type: api.BlockImage, Source: src}); got != 54 {
		t.Errorf("an image whose data past its header is not base64: %d tokens, want 54", got)
	}
}
