package demo

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	_ "image/gif" // the image formats an image block may carry
	_ "image/jpeg"
	_ "image/png"
	"strings"

	"github.com/lucasb-eyer/go-colorful"
	_ "golang.org/x/image/webp"

	"muse/api"
)

// The demo tells what arrived in the last user message: for each image,
// document or text file, one sentence, before its usual reply. The
// request has passed api's validator, so every block here is one the real
// service takes.

// maxAveragedPixels bounds the pixels whose colour is averaged: a larger
// image is sampled on a grid.
const maxAveragedPixels = 1 << 20

// maxDecodedPixels bounds the images the demo decodes at all (64 MB as
// RGBA): a small file can hold a huge image.
const maxDecodedPixels = 16 << 20

// firstLineRunes bounds the first line of a text quoted back.
const firstLineRunes = 80

// isAttachment reports whether b is an attachment the demo describes: an
// image or document block, or a text file (see api.FileTextBlock).
func isAttachment(b *api.ContentBlock) bool {
	switch b.Type {
	case api.BlockImage, api.BlockDocument:
		return true
	case api.BlockText:
		_, _, ok := api.ParseFileText(b.Text)
		return ok
	}
	return false
}

// describeAttachments is one sentence for each of blocks, attachments, in
// one paragraph.
func describeAttachments(blocks []api.ContentBlock) string {
	sentences := make([]string, len(blocks))
	for i := range blocks {
		sentences[i] = describe(&blocks[i])
	}
	return strings.Join(sentences, " ")
}

// describe is the sentence that tells what the attachment b holds.
func describe(b *api.ContentBlock) string {
	if b.Type == api.BlockText {
		name, body, _ := api.ParseFileText(b.Text)
		return fmt.Sprintf("I see %s: %s.", name, describeLines(body))
	}
	src := b.Source
	if src.Type == api.SourceURL {
		return fmt.Sprintf("I see a link to %s %s, %s, which the demo does not fetch: it works offline.",
			article(b.Type), b.Type, src.URL)
	}
	if b.Type == api.BlockImage {
		return describeImage(src)
	}
	titled := ""
	if b.Title != "" {
		titled = fmt.Sprintf(", titled “%s”", b.Title)
	}
	if src.Type == api.SourceText && b.Title != "" {
		// A text file, as muse sends one: named as its text block was.
		return fmt.Sprintf("I see %s: %s.", b.Title, describeLines(src.Data))
	}
	if src.Type == api.SourceText {
		return fmt.Sprintf("I see a text document%s: %s.", titled, describeLines(src.Data))
	}
	data, err := base64.StdEncoding.DecodeString(src.Data)
	if err != nil {
		return fmt.Sprintf("I see a PDF%s whose data does not decode: %v.", titled, err)
	}
	switch n := api.PDFPages(data); n {
	case 0:
		return fmt.Sprintf("I see a PDF (page count unknown)%s.", titled)
	case 1:
		return fmt.Sprintf("I see a PDF of 1 page%s.", titled)
	default:
		return fmt.Sprintf("I see a PDF of %d pages%s.", n, titled)
	}
}

// describeLines tells how many lines text has and which is the first.
func describeLines(text string) string {
	if text == "" {
		return "it is empty"
	}
	n := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		n++
	}
	first, _, _ := strings.Cut(text, "\n")
	first = strings.TrimSuffix(first, "\r")
	if cut := truncateRunes(first, firstLineRunes); cut != first {
		first = cut + "…"
	}
	if n == 1 {
		return fmt.Sprintf("1 line, “%s”", first)
	}
	return fmt.Sprintf("%d lines; the first is “%s”", n, first)
}

// formatNames are the names of the formats image.Decode reports.
var formatNames = map[string]string{"png": "PNG", "jpeg": "JPEG", "gif": "GIF", "webp": "WebP"}

// describeImage decodes the image of src, base64 data, and tells its
// format, size and average colour.
func describeImage(src *api.Source) string {
	data, err := base64.StdEncoding.DecodeString(src.Data)
	if err != nil {
		return fmt.Sprintf("I see an image whose data does not decode: %v.", err)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return fmt.Sprintf("I see an image said to be %s that does not decode: %v.", src.MediaType, err)
	}
	seen := fmt.Sprintf("I see a %s image, %d×%d pixels", formatNames[format], cfg.Width, cfg.Height)
	if cfg.Width*cfg.Height > maxDecodedPixels {
		return seen + ", too large for the demo to average its colour."
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return fmt.Sprintf("%s, that does not decode: %v.", seen, err)
	}
	r, g, b, ok := averageColour(img)
	if !ok {
		return seen + ", all transparent."
	}
	return fmt.Sprintf("%s, average colour #%02x%02x%02x (%s).", seen, r, g, b, colourName(r, g, b))
}

// averageColour is the average colour of img weighted by opacity, of at
// most about maxAveragedPixels pixels on a grid; ok is false when every
// pixel sampled is transparent.
func averageColour(img image.Image) (r, g, b uint8, ok bool) {
	bounds := img.Bounds()
	step := 1
	for ceilDiv(bounds.Dx(), step)*ceilDiv(bounds.Dy(), step) > maxAveragedPixels {
		step++
	}
	at := pixelReader(img)
	var sr, sg, sb, sa uint64
	for y := bounds.Min.Y; y < bounds.Max.Y; y += step {
		for x := bounds.Min.X; x < bounds.Max.X; x += step {
			pr, pg, pb, pa := at(x, y)
			sr, sg, sb, sa = sr+uint64(pr), sg+uint64(pg), sb+uint64(pb), sa+uint64(pa)
		}
	}
	if sa == 0 {
		return 0, 0, 0, false
	}
	// Premultiplied sums over the sum of alpha: the straight colour,
	// weighted by opacity.
	channel := func(s uint64) uint8 { return uint8((s*255 + sa/2) / sa) }
	return channel(sr), channel(sg), channel(sb), true
}

// ceilDiv is a/b rounded up.
func ceilDiv(a, b int) int { return (a + b - 1) / b }

// pixelReader returns the premultiplied colour of img at a point, without
// the allocation of img.At for the types the decoders return.
func pixelReader(img image.Image) func(x, y int) (r, g, b, a uint32) {
	switch m := img.(type) {
	case *image.YCbCr:
		return func(x, y int) (uint32, uint32, uint32, uint32) { return m.YCbCrAt(x, y).RGBA() }
	case *image.NYCbCrA:
		return func(x, y int) (uint32, uint32, uint32, uint32) { return m.NYCbCrAAt(x, y).RGBA() }
	case *image.NRGBA:
		return func(x, y int) (uint32, uint32, uint32, uint32) { return m.NRGBAAt(x, y).RGBA() }
	case *image.RGBA:
		return func(x, y int) (uint32, uint32, uint32, uint32) { return m.RGBAAt(x, y).RGBA() }
	case *image.Gray:
		return func(x, y int) (uint32, uint32, uint32, uint32) { return m.GrayAt(x, y).RGBA() }
	case *image.Paletted:
		return func(x, y int) (uint32, uint32, uint32, uint32) { return m.Palette[m.ColorIndexAt(x, y)].RGBA() }
	}
	return func(x, y int) (uint32, uint32, uint32, uint32) { return img.At(x, y).RGBA() }
}

// colourName is a rough name of the colour r, g, b, such as "a muted
// blue" or "an orange".
func colourName(r, g, b uint8) string {
	h, s, l := colorful.Color{R: float64(r) / 255, G: float64(g) / 255, B: float64(b) / 255}.Hsl()
	var name string
	switch {
	case l < 0.08:
		return "black"
	case l > 0.95:
		return "white"
	case s < 0.12:
		name = "grey"
		switch {
		case l < 0.3:
			name = "dark grey"
		case l > 0.75:
			name = "light grey"
		}
		return article(name) + " " + name
	case h < 15 || h >= 345:
		name = "red"
	case h < 45 && l < 0.4:
		name = "brown"
	case h < 45:
		name = "orange"
	case h < 70:
		name = "yellow"
	case h < 165:
		name = "green"
	case h < 195:
		name = "teal"
	case h < 255:
		name = "blue"
	case h < 310:
		name = "purple"
	default:
		name = "pink"
	}
	switch {
	case l < 0.3:
		name = "dark " + name
	case l > 0.75 && name == "red":
		name = "light pink"
	case l > 0.75:
		name = "light " + name
	case s < 0.35:
		name = "muted " + name
	case s > 0.8:
		name = "bright " + name
	}
	return article(name) + " " + name
}

// article is "an" before a word that starts with a vowel, and "a" before
// any other.
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}
