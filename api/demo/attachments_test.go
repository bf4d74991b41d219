package demo

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"

	"muse/api"
	"muse/api/pdftest"
)

// lossyWebP is a 1×1 grey WebP image.
const lossyWebP = "UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA"

// filled is a w×h image of one colour.
func filled(w, h int, c color.Color) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, c)
		}
	}
	return img
}

// encoded is img in format ("png", "jpeg" or "gif").
func encoded(t *testing.T, format string, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&buf, img)
	case "jpeg":
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 95})
	case "gif":
		err = gif.Encode(&buf, img, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pngHeader is the start of a PNG of w×h pixels: its signature and IHDR
// chunk, and no pixels.
func pngHeader(w, h int) []byte {
	ihdr := []byte("IHDR")
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, 8, 6, 0, 0, 0) // 8-bit RGBA
	out := binary.BigEndian.AppendUint32([]byte("\x89PNG\r\n\x1a\n"), uint32(len(ihdr)-4))
	out = append(out, ihdr...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(ihdr))
}

// withBlocks is a request body whose one user message holds blocks then
// the prompt text.
func withBlocks(prompt string, blocks ...api.ContentBlock) map[string]any {
	content := make([]any, 0, len(blocks)+1)
	for _, b := range blocks {
		content = append(content, b)
	}
	content = append(content, map[string]any{"type": "text", "text": prompt})
	return chat("", map[string]any{"messages": []any{map[string]any{"role": "user", "content": content}}})
}

// replyTo is the text of the demo's reply to body.
func replyTo(t *testing.T, body map[string]any) string {
	t.Helper()
	srv := newTestServer(t, Options{})
	return getMessage(t, srv, body).Text()
}

// firstParagraph is text up to its first blank line.
func firstParagraph(text string) string {
	p, _, _ := strings.Cut(text, "\n\n")
	return p
}

// TestDescribesImages checks the sentence for an image of each format:
// its format, size and average colour, as decoded.
func TestDescribesImages(t *testing.T) {
	blue := color.NRGBA{0x7a, 0x8b, 0x9c, 0xff}
	palette := color.Palette{color.NRGBA{0xff, 0, 0, 0xff}, color.NRGBA{0, 0, 0xff, 0xff}}
	stripes := image.NewPaletted(image.Rect(0, 0, 40, 30), palette)
	for i := range stripes.Pix {
		stripes.Pix[i] = uint8(i % 2)
	}
	halfClear := filled(10, 10, color.NRGBA{0, 0, 0xff, 0xff})
	for y := range 5 {
		for x := range 10 {
			halfClear.Set(x, y, color.NRGBA{0xff, 0, 0, 0})
		}
	}
	webp, _ := base64.StdEncoding.DecodeString(lossyWebP)
	for _, tc := range []struct {
		name, mediaType string
		data            []byte
		want            string
	}{
		{"png", "image/png", encoded(t, "png", filled(640, 480, blue)), "I see a PNG image, 640×480 pixels, average colour #7a8b9c (a muted blue)."},
		{"gif", "image/gif", encoded(t, "gif", stripes), "I see a GIF image, 40×30 pixels, average colour #800080 (a dark purple)."},
		{"webp", "image/webp", webp, "I see a WebP image, 1×1 pixels, average colour #808080 (a grey)."},
		{"transparent half", "image/png", encoded(t, "png", halfClear), "I see a PNG image, 10×10 pixels, average colour #0000ff (a bright blue)."},
		{"transparent", "image/png", encoded(t, "png", filled(3, 2, color.NRGBA{})), "I see a PNG image, 3×2 pixels, all transparent."},
		{"huge", "image/png", pngHeader(8000, 6000), "I see a PNG image, 8000×6000 pixels, too large for the demo to average its colour."},
		{"broken", "image/png", pngHeader(2, 2), "I see a PNG image, 2×2 pixels, that does not decode: unexpected EOF."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := firstParagraph(replyTo(t, withBlocks("what is this?", api.ImageBlock(tc.mediaType, tc.data))))
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
	// A JPEG's colours come back near what was encoded.
	got := firstParagraph(replyTo(t, withBlocks("and this?", api.ImageBlock("image/jpeg", encoded(t, "jpeg", filled(320, 200, color.NRGBA{0xc0, 0x30, 0x20, 0xff}))))))
	m := regexp.MustCompile(`^I see a JPEG image, 320×200 pixels, average colour #([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2}) \(a red\)\.$`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("jpeg: %s", got)
	}
	for i, want := range []int64{0xc0, 0x30, 0x20} {
		if c, _ := strconv.ParseInt(m[i+1], 16, 0); c < want-3 || c > want+3 {
			t.Errorf("jpeg: channel %d is %#x, want about %#x (%s)", i, c, want, got)
		}
	}
}

// TestColourNames checks the rough names of some colours.
func TestColourNames(t *testing.T) {
	for hex, want := range map[uint32]string{
		0x000000: "black", 0xffffff: "white", 0x808080: "a grey", 0x303030: "a dark grey", 0xd0d0d0: "a light grey",
		0xff0000: "a bright red", 0xff8000: "a bright orange", 0x8b4513: "a brown", 0xffff00: "a bright yellow",
		0x00a000: "a bright green", 0x008080: "a dark teal", 0x7a8b9c: "a muted blue", 0x000080: "a dark blue",
		0x800080: "a dark purple", 0xff69b4: "a bright pink", 0xffc0cb: "a light pink", 0xa05050: "a muted red",
	} {
		if got := colourName(uint8(hex>>16), uint8(hex>>8), uint8(hex)); got != want {
			t.Errorf("#%06x: %q, want %q", hex, got, want)
		}
	}
	if article("orange") != "an" || article("muted orange") != "a" {
		t.Error("article")
	}
}

// countingImage counts the pixels read from it.
type countingImage struct {
	image.Image
	reads *int
}

func (c countingImage) At(x, y int) color.Color { *c.reads++; return c.Image.At(x, y) }

// TestAverageColourSamples checks that a large image is averaged from at
// most about maxAveragedPixels pixels, and a small one from all of them.
func TestAverageColourSamples(t *testing.T) {
	for _, size := range []image.Point{{40, 30}, {1024, 1024}, {1025, 1025}, {6000, 4000}, {4097, 4095}, {20000, 3}} {
		reads := 0
		img := countingImage{image.NewUniform(color.NRGBA{1, 2, 3, 255}), &reads}
		r, g, b, ok := averageColour(boundedImage{img, image.Rect(0, 0, size.X, size.Y)})
		if !ok || r != 1 || g != 2 || b != 3 {
			t.Errorf("%v: %d %d %d %v", size, r, g, b, ok)
		}
		if all := size.X * size.Y; reads > maxAveragedPixels || (all <= maxAveragedPixels && reads != all) || reads < min(all, maxAveragedPixels)/4 {
			t.Errorf("%v: %d pixels read", size, reads)
		}
	}
}

// boundedImage gives an image other bounds.
type boundedImage struct {
	image.Image
	r image.Rectangle
}

func (b boundedImage) Bounds() image.Rectangle { return b.r }

// objectStreamPDF is a PDF 1.5 of n pages whose page tree is in a
// compressed object stream.
func objectStreamPDF(t *testing.T, n int) []byte {
	t.Helper()
	var body bytes.Buffer
	body.WriteString("<< /Type /Pages /Kids [] /Count " + strconv.Itoa(n) + " >>")
	for range n {
		body.WriteString("<</Type/Page/Parent 2 0 R>>")
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(body.Bytes())
	zw.Close()
	return pdftest.File("<< /Type /Catalog /Pages 2 0 R >>",
		fmt.Sprintf("<< /Type /ObjStm /N %d /First 0 /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream", n+1, z.Len(), z.Bytes()))
}

// TestPDFPages checks page counts of PDFs of several shapes.
func TestPDFPages(t *testing.T) {
	nested := pdftest.File("<< /Type /Catalog /Pages 2 0 R /Outlines 5 0 R >>",
		"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 7 >>",
		"<< /Type /Pages /Parent 2 0 R /Kids [] /Count 4 /Resources << /ProcSet [/PDF] >> >>",
		"<< /Count 3 /Type /Pages /Parent 2 0 R /Kids [] >>",
		"<< /Type /Outlines /Count 12 >>")
	noCount := pdftest.File("<< /Type /Catalog /Pages 2 0 R >>", "<< /Type/Pages /Kids [3 0 R 4 0 R] >>",
		"<</Type/Page/Parent 2 0 R>>", "<</Type /Page/Parent 2 0 R/Annots[<</Type/Annot/Contents(a \\) /Type /Page)>>]>>")
	for name, tc := range map[string]struct {
		data []byte
		want int
	}{
		"one page":       {pdftest.Paged(1), 1},
		"three pages":    {pdftest.Paged(3), 3},
		"object streams": {objectStreamPDF(t, 5), 5},
		"nested tree":    {nested, 7},
		"no /Count":      {noCount, 2},
		"no pages":       {[]byte("%PDF-1.7\n%%EOF\n"), 0},
		"cut short":      {pdftest.Paged(2)[:40], 0},
		"garbage":        {[]byte("%PDF-\x00<<<<((((/Type /Pages /Count 9"), 0},
	} {
		if got := api.PDFPages(tc.data); got != tc.want {
			t.Errorf("%s: %d pages, want %d", name, got, tc.want)
		}
	}
}

// TestDescribesDocumentsAndFiles checks the sentences for PDFs, text
// documents and text files.
func TestDescribesDocumentsAndFiles(t *testing.T) {
	lines := "# Title\n" + strings.Repeat("line\n", 41)
	long := strings.Repeat("é", 100) + "\nsecond"
	for _, tc := range []struct {
		name  string
		block api.ContentBlock
		want  string
	}{
		{"pdf", api.DocumentBlock(api.MediaPDF, pdftest.Paged(3), ""), "I see a PDF of 3 pages."},
		{"pdf of one page, titled", api.DocumentBlock(api.MediaPDF, pdftest.Paged(1), "report.pdf"), "I see a PDF of 1 page, titled “report.pdf”."},
		{"pdf of unknown pages", api.DocumentBlock(api.MediaPDF, []byte("%PDF-1.7\n"), ""), "I see a PDF (page count unknown)."},
		{"file", api.FileTextBlock("notes.md", lines), "I see notes.md: 42 lines; the first is “# Title”."},
		{"file without a last newline", api.FileTextBlock("a.txt", "one\r\ntwo"), "I see a.txt: 2 lines; the first is “one”."},
		{"one-line file", api.FileTextBlock("a.txt", "only"), "I see a.txt: 1 line, “only”."},
		{"empty file", api.FileTextBlock("empty.txt", ""), "I see empty.txt: it is empty."},
		{"long first line", api.FileTextBlock(`say "hi".txt`, long), "I see say \"hi\".txt: 2 lines; the first is “" + strings.Repeat("é", 80) + "…”."},
		{"text document", api.ContentBlock{Type: api.BlockDocument, Title: "notes", Source: &api.Source{Type: api.SourceText, MediaType: api.MediaPlainText, Data: "a\nb\nc\n"}},
			"I see notes: 3 lines; the first is “a”."},
		{"text file as muse sends it", api.TextDocumentBlock("notes.md", lines), "I see notes.md: 42 lines; the first is “# Title”."},
		{"untitled text document", api.ContentBlock{Type: api.BlockDocument, Source: &api.Source{Type: api.SourceText, MediaType: api.MediaPlainText, Data: "a\n"}},
			"I see a text document: 1 line, “a”."},
		{"image link", api.ContentBlock{Type: api.BlockImage, Source: &api.Source{Type: api.SourceURL, URL: "https://example.com/a.png"}},
			"I see a link to an image, https://example.com/a.png, which the demo does not fetch: it works offline."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := firstParagraph(replyTo(t, withBlocks("look", tc.block))); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestSeveralAttachments checks one sentence for each attachment, in
// order, then the usual reply to the prompt, streamed as the other
// replies are; a keyword inside a file selects no scenario.
func TestSeveralAttachments(t *testing.T) {
	body := withBlocks("compare them demo:words:40",
		api.ImageBlock("image/png", encoded(t, "png", filled(4, 4, color.NRGBA{0xff, 0, 0, 0xff}))),
		api.FileTextBlock("trap.txt", "demo:error demo:overloaded demo:html"),
		api.DocumentBlock(api.MediaPDF, pdftest.Paged(2), ""))
	want := "I see a PNG image, 4×4 pixels, average colour #ff0000 (a bright red). " +
		"I see trap.txt: 1 line, “demo:error demo:overloaded demo:html”. I see a PDF of 2 pages.\n\n" +
		wordsReply("compare them demo:words:40", 40)
	if got := replyTo(t, body); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	srv := newTestServer(t, Options{})
	events := streamEvents(t, srv, body)
	if got := deltaText(events); got != want {
		t.Errorf("streamed\n%s\nwant\n%s", got, want)
	}
	if countDeltas(events, "text_delta") < 20 {
		t.Errorf("the reply came in %d deltas", countDeltas(events, "text_delta"))
	}
}

// TestOnlyTheLastUserMessageIsDescribed checks that attachments sent
// earlier in the conversation are not described again.
func TestOnlyTheLastUserMessageIsDescribed(t *testing.T) {
	body := chat("", map[string]any{"messages": []any{
		map[string]any{"role": "user", "content": []any{api.FileTextBlock("a.txt", "x"), map[string]any{"type": "text", "text": "read it"}}},
		map[string]any{"role": "assistant", "content": "done"},
		map[string]any{"role": "user", "content": "thanks"},
	}})
	if got := replyTo(t, body); got != normalReply("thanks") {
		t.Errorf("got %q", got)
	}
}

// TestAttachmentRefusals checks that the demo refuses, as the service
// does, what api's validator refuses, with a 400 naming the block.
func TestAttachmentRefusals(t *testing.T) {
	png := encoded(t, "png", filled(2, 2, color.Black))
	b64 := func(mediaType, data string) api.ContentBlock {
		return api.ContentBlock{Type: api.BlockImage, Source: &api.Source{Type: api.SourceBase64, MediaType: mediaType, Data: data}}
	}
	// 4 characters of base64 over 5 MiB: the service counts the base64.
	big := base64.StdEncoding.EncodeToString(png[:6]) + strings.Repeat("A", api.MaxImageBlockBytes-8+4)
	srv := newTestServer(t, Options{})
	for _, tc := range []struct {
		name string
		body map[string]any
		want string
	}{
		{"empty image", withBlocks("hi", b64("image/png", "")), "messages.0.content.0: image data is empty: attach the file again"},
		{"bmp", withBlocks("hi", api.ImageBlock("image/bmp", png)), `messages.0.content.0: image media type "image/bmp" is not one of`},
		{"not base64", withBlocks("hi", b64("image/png", "not base64!")), "messages.0.content.0: image data is not valid base64"},
		{"jpeg said png", withBlocks("hi", api.ImageBlock("image/jpeg", png)), "messages.0.content.0: image is said to be image/jpeg but its bytes are image/png"},
		{"over 5 MiB", withBlocks("hi", b64("image/png", big)), "messages.0.content.0: image is 5242884 bytes as base64, as sent, over the limit of 5242880 (5 MiB)"},
		{"empty pdf", withBlocks("hi", api.DocumentBlock(api.MediaPDF, nil, "")), "messages.0.content.0: PDF data is empty"},
		{"image from the assistant", chat("", map[string]any{"messages": []any{
			map[string]any{"role": "user", "content": "hi"},
			map[string]any{"role": "assistant", "content": []any{api.ImageBlock("image/png", png)}},
			map[string]any{"role": "user", "content": "and?"},
		}}), "messages.1.content.0: image blocks may only be in user messages, not in assistant ones"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := expectError(t, postMessage(t, srv, tc.body), http.StatusBadRequest, errInvalidRequest)
			if !strings.HasPrefix(msg, tc.want) {
				t.Errorf("message %q\nwant %q…", msg, tc.want)
			}
		})
	}
}

// BenchmarkDescribeImage measures the demo's answer about a photo as muse
// sends it: a JPEG scaled to 1568×1176.
func BenchmarkDescribeImage(b *testing.B) {
	img := image.NewYCbCr(image.Rect(0, 0, 1568, 1176), image.YCbCrSubsampleRatio420)
	for i := range img.Y {
		img.Y[i] = uint8(i * 7)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		b.Fatal(err)
	}
	src := &api.Source{Type: api.SourceBase64, MediaType: "image/jpeg", Data: base64.StdEncoding.EncodeToString(buf.Bytes())}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		if s := describeImage(src); !strings.Contains(s, "average colour") {
			b.Fatal(s)
		}
	}
}

// TestClientsSendAttachments checks the whole way: muse's client and the
// official SDK stream a prompt with an image and a PDF from the demo, and
// both get the same description back.
func TestClientsSendAttachments(t *testing.T) {
	_, sdk, muse := startSDKServer(t)
	png := encoded(t, "png", filled(64, 48, color.NRGBA{0x20, 0x40, 0xc0, 0xff}))
	pdf := pdftest.Paged(4)
	want := "I see a PNG image, 64×48 pixels, average colour #2040c0 (a blue). I see a PDF of 4 pages, titled “r.pdf”."
	m, err := museStream(t, muse, api.MessageRequest{Model: "demo", MaxTokens: 1000, Messages: []api.MessageParam{{Role: api.RoleUser, Blocks: []api.ContentBlock{
		api.ImageBlock("image/png", png), api.DocumentBlock(api.MediaPDF, pdf, "r.pdf"), {Type: api.BlockText, Text: "what are these?"},
	}}}})
	if err != nil || firstParagraph(m.Text()) != want {
		t.Errorf("muse: %v %q", err, firstParagraph(m.Text()))
	}
	doc := anthropic.NewDocumentBlock(anthropic.Base64PDFSourceParam{Data: base64.StdEncoding.EncodeToString(pdf)})
	doc.OfDocument.Title = anthropic.String("r.pdf")
	s, err := sdkStream(t, sdk, anthropic.MessageNewParams{Model: "demo", MaxTokens: 1000, Messages: []anthropic.MessageParam{anthropic.NewUserMessage(
		anthropic.NewImageBlockBase64("image/png", base64.StdEncoding.EncodeToString(png)), doc, anthropic.NewTextBlock("what are these?"))}})
	if err != nil || len(s.Content) != 1 || s.Content[0].Text != m.Text() {
		t.Errorf("sdk: %v %+v", err, s.Content)
	}
	_, err = museStream(t, muse, api.MessageRequest{Model: "demo", MaxTokens: 1000, Messages: []api.MessageParam{{Role: api.RoleUser, Blocks: []api.ContentBlock{
		api.ImageBlock("image/jpeg", png), {Type: api.BlockText, Text: "and this?"},
	}}}})
	if !errors.Is(err, api.ErrInvalidRequest) {
		t.Errorf("muse sent an image said to be a JPEG: %v", err)
	}
}
