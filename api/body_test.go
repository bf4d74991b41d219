package api

import (
	"bytes"
	"encoding/json"
	"io"
	"runtime"
	"strings"
	"testing"
)

// The body sent in parts is the request as json.Marshal encodes it, byte
// for byte, with a dozen sources (marker 1 is not marker 10's start) and
// text that looks like a marker; and its reader starts over for a retry.
func TestBodyInPartsIsTheRequest(t *testing.T) {
	var blocks []ContentBlock
	for i := range 12 {
		blocks = append(blocks, ImageBlock("image/png", append(bytes.Clone(pngHead), byte(i))))
	}
	blocks = append(blocks, WithCitations(DocumentBlock(MediaPDF, pdfHead, "r.pdf")), TextDocumentBlock("a.txt", "muse-source-0\""),
		ContentBlock{Type: BlockText, Text: `"data":"muse-source-1"`})
	req := MessageRequest{Model: "m", MaxTokens: 10, Stream: true, System: "muse-source-", Messages: []MessageParam{
		{Role: RoleUser, Blocks: blocks}, TextMessage(RoleAssistant, "ok"), TextMessage(RoleUser, "and?")}}
	want, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := encodeBody(req)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		got, _ := io.ReadAll(b.reader())
		if !bytes.Equal(got, want) || b.size != int64(len(want)) {
			t.Fatalf("body of %d bytes (size %d):\n%s\nwant %d:\n%s", len(got), b.size, got, len(want), want)
		}
	}
	if len(b.parts) != 2*13+1 {
		t.Errorf("%d parts, want the 13 sources' data between the rest", len(b.parts))
	}
	if other, _ := encodeBody(ImageRequest{Model: "x"}); other == nil || len(other.parts) != 1 {
		t.Errorf("an image request: %+v", other)
	}
	if strings.Contains(b.parts[0], "muse-source-") && !strings.HasSuffix(b.parts[0], `"data":"`) {
		t.Errorf("a marker was left in: %.200s", b.parts[0])
	}
}

// A large PDF sent again (every turn builds and checks its request more
// than once) is encoded once, and its pages are counted from its bytes,
// not from a decoded copy: building, checking and encoding the body of
// its request three times allocates less than its base64 and the file
// once more (it allocated four encodings and four decoded copies).
func TestLargePDFEncodedOnce(t *testing.T) {
	pdf := append([]byte("%PDF-1.7\n1 0 obj\n<< /Type /Pages /Count 3 >>\nendobj\n"), make([]byte, 8<<20)...)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range 3 {
		req := MessageRequest{Model: "m", MaxTokens: 10, Messages: []MessageParam{{Role: RoleUser, Blocks: []ContentBlock{
			DocumentBlock(MediaPDF, pdf, "r.pdf"), {Type: BlockText, Text: "read it"}}}}}
		if err := req.Validate(); err != nil {
			t.Fatal(err)
		}
		if _, err := encodeBody(req); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	b64 := uint64(len(pdf)+2) / 3 * 4
	if got := after.TotalAlloc - before.TotalAlloc; got > b64+uint64(len(pdf)) {
		t.Errorf("allocated %d bytes for a PDF of %d (%d as base64)", got, len(pdf), b64)
	}
}
