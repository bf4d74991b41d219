package api

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"strings"
	"testing"
)

// TestValidateThinkingWithForcedTool checks that muse refuses before sending
// what the service refuses: thinking with a tool_choice that forces a tool.
func TestValidateThinkingWithForcedTool(t *testing.T) {
	tools := []Tool{{Name: "f"}}
	base := func(tc *ToolChoice) MessageRequest {
		return MessageRequest{Model: "m", MaxTokens: 2000, Messages: []MessageParam{TextMessage(RoleUser, "hi")},
			Thinking: &Thinking{Type: "enabled", BudgetTokens: 1024}, Tools: tools, ToolChoice: tc}
	}
	for _, tc := range []*ToolChoice{{Type: "any"}, {Type: "tool", Name: "f"}} {
		r := base(tc)
		if err := r.Validate(); !errors.Is(err, ErrInvalidRequest) || !strings.Contains(err.Error(), "/thinking off") {
			t.Errorf("tool_choice %s: %v", tc.Type, err)
		}
	}
	for _, tc := range []*ToolChoice{nil, {Type: "auto"}, {Type: "none"}} {
		r := base(tc)
		if err := r.Validate(); err != nil {
			t.Errorf("tool_choice %v: %v", tc, err)
		}
	}
}

// Images of 1×1 px in each format, and bytes that begin as a PDF: what
// the validator looks at (an image's header must decode). (api/demo's
// tests send whole images.)
var (
	pngHead  = tinyImage(png.Encode)
	jpegHead = tinyImage(func(w io.Writer, m image.Image) error { return jpeg.Encode(w, m, nil) })
	gifHead  = tinyImage(func(w io.Writer, m image.Image) error { return gif.Encode(w, m, nil) })
	// A lossless WebP's header: 1×1 px.
	webpHead = []byte("RIFF\x12\x00\x00\x00WEBPVP8L\x05\x00\x00\x00\x2f\x00\x00\x00\x00\x00")
	pdfHead  = []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
)

// tinyImage is a 1×1 px image as enc writes it, padded with zeros to a
// multiple of 3 bytes (see bigBase64).
func tinyImage(enc func(io.Writer, image.Image) error) []byte {
	var b bytes.Buffer
	if err := enc(&b, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		panic(err)
	}
	return append(b.Bytes(), make([]byte, (3-b.Len()%3)%3)...)
}

// b64Block is a block of type typ whose source is base64 of mediaType
// holding data as it is (valid or not).
func b64Block(typ, mediaType, data string) ContentBlock {
	return ContentBlock{Type: typ, Source: &Source{Type: SourceBase64, MediaType: mediaType, Data: data}}
}

// bigBase64 is base64 of head (a multiple of 3 bytes) followed by zeros,
// size bytes in all, built without encoding them.
func bigBase64(head []byte, size int) string {
	zeros := size - len(head)
	return base64.StdEncoding.EncodeToString(head) + strings.Repeat("A", zeros/3*4) + [3]string{"", "AA==", "AAA="}[zeros%3]
}

// TestValidateAttachmentBlocks checks every refusal of an image or
// document block, and that each error says where the block is and what
// to do; and that the blocks muse sends pass.
func TestValidateAttachmentBlocks(t *testing.T) {
	text := ContentBlock{Type: BlockDocument, Title: "notes", Source: &Source{Type: SourceText, MediaType: MediaPlainText, Data: "hello"}}
	pdf := DocumentBlock(MediaPDF, pdfHead, "report.pdf")
	head9 := pngHead
	for _, tc := range []struct {
		name  string
		role  string
		block ContentBlock
		want  string // "" for a block that passes
	}{
		{"png", RoleUser, ImageBlock("image/png", pngHead), ""},
		{"jpeg", RoleUser, ImageBlock("image/jpeg", jpegHead), ""},
		{"gif", RoleUser, ImageBlock("image/gif", gifHead), ""},
		{"webp", RoleUser, ImageBlock("image/webp", webpHead), ""},
		{"image url", RoleUser, ContentBlock{Type: BlockImage, Source: &Source{Type: SourceURL, URL: "https://example.com/a.png"}}, ""},
		{"pdf", RoleUser, pdf, ""},
		{"text document", RoleUser, text, ""},
		{"5 MiB of base64", RoleUser, b64Block(BlockImage, "image/png", bigBase64(head9, MaxImageBlockBytes/4*3)), ""},
		{"file text", RoleUser, FileTextBlock("a.go", "package a"), ""},

		{"empty image", RoleUser, b64Block(BlockImage, "image/png", ""), "image data is empty: attach the file again"},
		{"bmp", RoleUser, ImageBlock("image/bmp", []byte("BM")), `image media type "image/bmp" is not one of image/png, image/jpeg, image/gif, image/webp: convert`},
		{"no media type", RoleUser, ImageBlock("", pngHead), `image media type "" is not one of`},
		{"not base64", RoleUser, b64Block(BlockImage, "image/png", "iVBO!!!!"), "image data is not valid base64: attach the file again"},
		{"base64 cut short", RoleUser, b64Block(BlockImage, "image/png", "iVBORw0KG"), "image data is not valid base64"},
		{"base64 with a line break", RoleUser, b64Block(BlockImage, "image/png", "iVBORw0K\nGgoA"), "image data is not valid base64"},
		{"base64 url alphabet", RoleUser, b64Block(BlockImage, "image/png", "iVBORw0KGgo_-A=="), "image data is not valid base64"},
		{"padding inside", RoleUser, b64Block(BlockImage, "image/png", "iVBO=w0KGgoA"), "image data is not valid base64"},
		{"jpeg said png", RoleUser, ImageBlock("image/png", jpegHead), "image is said to be image/png but its bytes are image/jpeg: attach the file again"},
		{"text said png", RoleUser, ImageBlock("image/png", []byte("hello, world")), "image is said to be image/png but its bytes are not an image muse can send"},
		{"too big", RoleUser, b64Block(BlockImage, "image/png", bigBase64(head9, MaxImageBlockBytes/4*3+1)), "image is 5242884 bytes as base64, as sent, over the limit of 5242880 (5 MiB): scale it down or attach a smaller one"},
		// 4 MiB of image is 5.3 MiB of base64, which the service counts.
		{"4 MiB image", RoleUser, b64Block(BlockImage, "image/png", bigBase64(head9, 4<<20)), "image is 5592408 bytes as base64, as sent, over the limit of 5242880 (5 MiB)"},
		{"no source", RoleUser, ContentBlock{Type: BlockImage}, "image block has no source: attach the file again"},
		{"file source", RoleUser, ContentBlock{Type: BlockImage, Source: &Source{Type: "file"}}, `image source type "file" is not base64 or url`},
		{"ftp url", RoleUser, ContentBlock{Type: BlockImage, Source: &Source{Type: SourceURL, URL: "ftp://example.com/a.png"}}, `image URL "ftp://example.com/a.png" is not an http(s) URL`},
		{"image from the assistant", RoleAssistant, ImageBlock("image/png", pngHead), "image blocks may only be in user messages, not in assistant ones: remove it"},
		{"document from the assistant", RoleAssistant, pdf, "document blocks may only be in user messages"},

		{"empty pdf", RoleUser, b64Block(BlockDocument, MediaPDF, ""), "PDF data is empty: attach the file again"},
		{"pdf not base64", RoleUser, b64Block(BlockDocument, MediaPDF, "JVBERi0x*"), "PDF data is not valid base64"},
		{"not a pdf", RoleUser, DocumentBlock(MediaPDF, []byte("<html>"), ""), "PDF data does not start with %PDF-: attach a PDF file"},
		{"docx", RoleUser, DocumentBlock("application/msword", pdfHead, ""), `document media type "application/msword" is not application/pdf`},
		{"pdf too big", RoleUser, b64Block(BlockDocument, MediaPDF, bigBase64([]byte("%PDF-1.7\n"), MaxDocumentBlockBytes/4*3+3)), "PDF is 33554436 bytes as base64, as sent, over the limit of 33554432 (32 MiB): attach a smaller one"},
		{"empty text document", RoleUser, ContentBlock{Type: BlockDocument, Source: &Source{Type: SourceText, MediaType: MediaPlainText}}, "text document is empty"},
		{"html document", RoleUser, ContentBlock{Type: BlockDocument, Source: &Source{Type: SourceText, MediaType: "text/html", Data: "<p>"}}, `text document media type "text/html" is not text/plain`},
		{"content document", RoleUser, ContentBlock{Type: BlockDocument, Source: &Source{Type: "content"}}, `document source type "content" is not base64, text or url`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := MessageRequest{Model: "m", MaxTokens: 10, Messages: []MessageParam{
				TextMessage(RoleUser, "hi"), TextMessage(RoleAssistant, "hello"),
				{Role: tc.role, Blocks: []ContentBlock{{Type: BlockText, Text: "look"}, tc.block}},
			}}
			err := r.Validate()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalidRequest) || !strings.Contains(err.Error(), "messages[2].content[1]: "+tc.want) {
				t.Fatalf("got %v\nwant messages[2].content[1]: %s", err, tc.want)
			}
		})
	}
}

// TestBase64SizeMatchesDecoder checks that the validator's scan accepts
// what encoding/base64 decodes (less line breaks), and counts its bytes.
func TestBase64SizeMatchesDecoder(t *testing.T) {
	inputs := []string{"", "=", "==", "A", "AA", "AAA", "AAAA", "AA==", "AAA=", "A===", "====", "AB==", "AAAA====",
		"AA=A", "AAAAAA==", "AAAAAAA=", "/+/+", "-_-_", "AA==AAAA", "AAAA AAA"}
	const alphabet = "AB+/=-_ 9"
	seed := uint32(1)
	for range 5000 {
		b := make([]byte, seed%13)
		for i := range b {
			seed = seed*1664525 + 1013904223
			b[i] = alphabet[seed>>24%uint32(len(alphabet))]
		}
		inputs = append(inputs, string(b))
	}
	for _, s := range inputs {
		decoded, err := base64.StdEncoding.DecodeString(s)
		size, ok := base64Size(s)
		if ok != (err == nil) || ok && size != len(decoded) {
			t.Fatalf("%q: base64Size %d %v, decoder %d bytes, %v", s, size, ok, len(decoded), err)
		}
	}
}

// imageRequest is a request whose user message carries n images of size
// bytes each.
func imageRequest(n, size int) MessageRequest {
	head := pngHead
	blocks := []ContentBlock{{Type: BlockText, Text: "what is this?"}}
	for range n {
		blocks = append(blocks, b64Block(BlockImage, "image/png", bigBase64(head, size)))
	}
	return MessageRequest{Model: "m", MaxTokens: 10, Messages: []MessageParam{{Role: RoleUser, Blocks: blocks}}}
}

// TestValidateAttachmentsCost checks that validating images allocates
// nothing that grows with their size: no image is decoded or copied (the
// request's size is counted without its base64), so checking a request
// stays linear in its size and small beside it.
func TestValidateAttachmentsCost(t *testing.T) {
	allocated := func(r MessageRequest) uint64 {
		if err := r.Validate(); err != nil {
			t.Fatal(err)
		}
		return leastAllocated(func() { r.Validate() })
	}
	small, big := allocated(imageRequest(1, 1<<10)), allocated(imageRequest(1, 3<<20))
	if big > small+4<<10 {
		t.Errorf("validating a 3 MiB image allocated %d bytes, a 1 KiB one %d: the image was copied", big, small)
	}
	one, many := allocated(imageRequest(1, 64<<10)), allocated(imageRequest(20, 64<<10))
	if many > 20*one {
		t.Errorf("20 images of 64 KiB allocated %d bytes, one %d", many, one)
	}
}

// BenchmarkValidateImage measures checking a request with a 4 MiB image,
// as every send of a conversation holding it does.
func BenchmarkValidateImage(b *testing.B) {
	r := imageRequest(1, 3<<20)
	b.SetBytes(int64(len(r.Messages[0].Blocks[1].Source.Data)))
	for b.Loop() {
		if err := r.Validate(); err != nil {
			b.Fatal(err)
		}
	}
}

// Every earlier attachment is sent again with each prompt: a conversation
// whose attachments pass the service's request limit is refused before it
// is sent, saying what to do, instead of failing with 413 at the server.
func TestRequestOfTooManyAttachmentsIsRefused(t *testing.T) {
	img := make([]byte, 3<<20) // 4 MiB of base64
	copy(img, pngHead)
	var msgs []MessageParam
	for i := 0; i < 9; i++ {
		msgs = append(msgs, MessageParam{Role: RoleUser, Blocks: []ContentBlock{ImageBlock("image/png", img), {Type: BlockText, Text: "and this?"}}},
			TextMessage(RoleAssistant, "ok"))
	}
	msgs = append(msgs, TextMessage(RoleUser, "next"))
	req := MessageRequest{Model: "m", MaxTokens: 10, Messages: msgs}
	err := req.Validate()
	if err == nil || !strings.Contains(err.Error(), "over the service's limit") || !strings.Contains(err.Error(), "/clear") {
		t.Errorf("err %v", err)
	}
	req.Messages = msgs[len(msgs)-5:]
	if err := req.Validate(); err != nil {
		t.Errorf("two images are fine: %v", err)
	}
}

// A request is measured as it is sent: its whole body, not only its
// attachments. Attachments within the limit with a large system prompt
// and tool schema come to more than the service's 32 MB, and are refused
// before sending, saying what to do (a request of 33 MB was sent).
func TestWholeRequestBodyIsMeasured(t *testing.T) {
	img := make([]byte, 3<<20) // 4 MiB of base64
	copy(img, pngHead)
	var blocks []ContentBlock
	for range 6 {
		blocks = append(blocks, ImageBlock("image/png", img))
	}
	schema := json.RawMessage(`{"type":"object","description":"` + strings.Repeat("x", 4<<20) + `"}`)
	req := MessageRequest{Model: "m", MaxTokens: 10, System: strings.Repeat("be brief. ", 400_000),
		Tools:    []Tool{{Name: "big", InputSchema: schema}},
		Messages: []MessageParam{{Role: RoleUser, Blocks: append(blocks, ContentBlock{Type: BlockText, Text: "what are these?"})}}}
	body, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	if len(body) <= MaxRequestBytes {
		t.Fatalf("the request is %d bytes, want over %d", len(body), MaxRequestBytes)
	}
	err = req.Validate()
	if !errors.Is(err, ErrInvalidRequest) || !strings.Contains(err.Error(), "33.4 MB as sent") || !strings.Contains(err.Error(), "over the service's limit of 32 MB") {
		t.Errorf("a request of %d bytes: %v", len(body), err)
	}
	req.System = "be brief."
	if err := req.Validate(); err != nil {
		t.Errorf("without the long system prompt: %v", err)
	}
}

// bodySize counts the request exactly as the client encodes it, base64
// sources, text documents, tools and characters JSON escapes included.
func TestBodySizeIsWhatIsSent(t *testing.T) {
	req := MessageRequest{Model: "m", MaxTokens: 10, System: "<&>\u2028\"quoted\"",
		Tools: []Tool{{Name: "t", Description: "<b>", InputSchema: json.RawMessage(`{"type":"object"}`)}},
		Messages: []MessageParam{
			{Role: RoleUser, Blocks: []ContentBlock{
				ImageBlock("image/png", pngHead), DocumentBlock(MediaPDF, pdfHead, "a \"report\".pdf"),
				{Type: BlockDocument, Title: "notes", Source: &Source{Type: SourceText, MediaType: MediaPlainText, Data: "<tag> & \"x\"\n"}},
				{Type: BlockImage, Source: &Source{Type: SourceURL, URL: "https://example.com/a.png"}},
				{Type: BlockText, Text: "look"},
			}},
			TextMessage(RoleAssistant, "ok"),
			{Role: RoleUser, Blocks: []ContentBlock{{Type: BlockText, Text: "more"}, ImageBlock("image/jpeg", jpegHead)}},
		}}
	size, sources, err := req.bodySize()
	if err != nil {
		t.Fatal(err)
	}
	sent := req
	sent.Stream = true
	body, err := json.Marshal(sent)
	if err != nil {
		t.Fatal(err)
	}
	if size != len(body) {
		t.Errorf("bodySize %d, the body sent is %d bytes", size, len(body))
	}
	if want := len(req.Messages[0].Blocks[0].Source.Data) + req.Messages[0].Blocks[1].Source.dataLen() + len(req.Messages[2].Blocks[1].Source.Data) + 3*dataKey; sources != want {
		t.Errorf("sources %d, want %d", sources, want)
	}
	if req.Messages[0].Blocks[0].Source.Data == "" {
		t.Error("bodySize emptied the request's own source")
	}
}
