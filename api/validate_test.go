package api

import (
	"encoding/base64"
	"errors"
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

// Bytes that begin as each image format and as a PDF: what the validator
// looks at. (api/demo's tests send whole images.)
var (
	pngHead  = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR")
	jpegHead = []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00")
	gifHead  = []byte("GIF89a\x01\x00\x01\x00")
	webpHead = []byte("RIFF\x1a\x00\x00\x00WEBPVP8L")
	pdfHead  = []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
)

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
	head9 := append(append([]byte(nil), pngHead[:8]...), 0)
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
		{"5 MiB image", RoleUser, b64Block(BlockImage, "image/png", bigBase64(head9, MaxImageBlockBytes)), ""},
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
		{"too big", RoleUser, b64Block(BlockImage, "image/png", bigBase64(head9, MaxImageBlockBytes+3)), "image is 5242883 bytes, over the limit of 5242880 (5 MiB): scale it down or attach a smaller one"},
		{"no source", RoleUser, ContentBlock{Type: BlockImage}, "image block has no source: attach the file again"},
		{"file source", RoleUser, ContentBlock{Type: BlockImage, Source: &Source{Type: "file"}}, `image source type "file" is not base64 or url`},
		{"ftp url", RoleUser, ContentBlock{Type: BlockImage, Source: &Source{Type: SourceURL, URL: "ftp://example.com/a.png"}}, `image URL "ftp://example.com/a.png" is not an http(s) URL`},
		{"image from the assistant", RoleAssistant, ImageBlock("image/png", pngHead), "image blocks may only be in user messages, not in assistant ones: remove it"},
		{"document from the assistant", RoleAssistant, pdf, "document blocks may only be in user messages"},

		{"empty pdf", RoleUser, b64Block(BlockDocument, MediaPDF, ""), "PDF data is empty: attach the file again"},
		{"pdf not base64", RoleUser, b64Block(BlockDocument, MediaPDF, "JVBERi0x*"), "PDF data is not valid base64"},
		{"not a pdf", RoleUser, DocumentBlock(MediaPDF, []byte("<html>"), ""), "PDF data does not start with %PDF-: attach a PDF file"},
		{"docx", RoleUser, DocumentBlock("application/msword", pdfHead, ""), `document media type "application/msword" is not application/pdf`},
		{"pdf too big", RoleUser, b64Block(BlockDocument, MediaPDF, bigBase64([]byte("%PDF-1.7\n"), MaxDocumentBlockBytes+3)), "PDF is 33554435 bytes, over the limit of 33554432 (32 MiB): attach a smaller one"},
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
	head := append(append([]byte(nil), pngHead[:8]...), 0)
	blocks := []ContentBlock{{Type: BlockText, Text: "what is this?"}}
	for range n {
		blocks = append(blocks, b64Block(BlockImage, "image/png", bigBase64(head, size)))
	}
	return MessageRequest{Model: "m", MaxTokens: 10, Messages: []MessageParam{{Role: RoleUser, Blocks: blocks}}}
}

// TestValidateAttachmentsCost checks that validating images allocates
// nothing that grows with them: no image is decoded or copied, so
// checking a request stays linear in its size.
func TestValidateAttachmentsCost(t *testing.T) {
	allocs := func(r MessageRequest) float64 {
		return testing.AllocsPerRun(3, func() {
			if err := r.Validate(); err != nil {
				t.Fatal(err)
			}
		})
	}
	small, big, many := allocs(imageRequest(1, 1<<10)), allocs(imageRequest(1, 4<<20)), allocs(imageRequest(20, 64<<10))
	if small != 0 || big != 0 || many != 0 {
		t.Errorf("allocations: %v for a 1 KiB image, %v for a 4 MiB one, %v for 20 of 64 KiB; want none", small, big, many)
	}
}

// BenchmarkValidateImage measures checking a request with a 4 MiB image,
// as every send of a conversation holding it does.
func BenchmarkValidateImage(b *testing.B) {
	r := imageRequest(1, 4<<20)
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
	img := make([]byte, 4<<20)
	copy(img, "\x89PNG\r\n\x1a\n")
	var msgs []MessageParam
	for i := 0; i < 7; i++ {
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
