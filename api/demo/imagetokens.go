package demo

import (
	"bytes"
	"encoding/json"
	"math"

	"muse/api"
)

// The service's count of an image, from Anthropic's vision documentation:
// an image whose long side is over imageMaxSide pixels, or that would
// count over imageMaxTokens, is first scaled down, keeping its aspect,
// until it fits both; it then counts width×height/imagePixelsPerToken
// tokens, rounded up. A 1092×1092 image, the largest square that fits,
// counts 1590.
const (
	imageMaxSide        = 1568
	imageMaxTokens      = 1600
	imagePixelsPerToken = 750
)

// imageTokens counts the image of an image block, or of each image in a
// tool result, as the service does (see imageSideTokens). Only the
// header of each image is decoded. An image given by URL counts as the
// largest image does, since the demo does not fetch it; an image whose
// header does not decode counts nothing (the validator refuses it first).
func imageTokens(b *api.ContentBlock) int {
	switch b.Type {
	case api.BlockImage:
		if b.Source == nil {
			return 0
		}
		if b.Source.Type == api.SourceURL {
			return imageMaxTokens
		}
		w, h, err := api.ImageSize(b.Source)
		if err != nil {
			return 0
		}
		return imageSideTokens(w, h)
	case api.BlockToolResult:
		raw := b.ResultContent
		if len(raw) == 0 || raw[0] != '[' || !bytes.Contains(raw, []byte(`"image"`)) {
			return 0
		}
		var parts []api.ContentBlock
		if json.Unmarshal(raw, &parts) != nil {
			return 0
		}
		n := 0
		for i := range parts {
			if parts[i].Type == api.BlockImage {
				n += imageTokens(&parts[i])
			}
		}
		return n
	}
	return 0
}

// imageSideTokens is what an image of w×h pixels counts: scaled down to at
// most imageMaxSide pixels a side and imageMaxTokens tokens, then one
// token for each imagePixelsPerToken pixels, rounded up.
func imageSideTokens(w, h int) int {
	if w <= 0 || h <= 0 {
		return 0
	}
	scale := min(1, float64(imageMaxSide)/float64(max(w, h)),
		math.Sqrt(float64(imageMaxTokens*imagePixelsPerToken)/(float64(w)*float64(h))))
	sw := max(1, int(float64(w)*scale))
	sh := max(1, int(float64(h)*scale))
	return (sw*sh + imagePixelsPerToken - 1) / imagePixelsPerToken
}
