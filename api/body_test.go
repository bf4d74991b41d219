package api

import (
	"bytes"
	"encoding/base64"
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
	if strings.Contains(b.parts[0].text, "muse-source-") && !strings.HasSuffix(b.parts[0].text, `"data":"`) {
		t.Errorf("a marker was left in: %.200s", b.parts[0].text)
	}
}

// A large PDF is never held as base64: building, checking, encoding and
// reading the body of its request three times (every turn builds and
// checks its request more than once) allocates less than a tenth of the
// file, and its pages are counted from its bytes, not from a decoded
// copy. (It allocated the base64 once, 4/3 of the file, and before that
// four encodings and four decoded copies.)
func TestLargePDFNeverHeldAsBase64(t *testing.T) {
	pdf := append([]byte("%PDF-1.7\n1 0 obj\n<< /Type /Pages /Count 3 >>\nendobj\n"), make([]byte, 8<<20)...)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	sent := int64(0)
	for range 3 {
		req := MessageRequest{Model: "m", MaxTokens: 10, Messages: []MessageParam{{Role: RoleUser, Blocks: []ContentBlock{
			DocumentBlock(MediaPDF, pdf, "r.pdf"), {Type: BlockText, Text: "read it"}}}}}
		if err := req.Validate(); err != nil {
			t.Fatal(err)
		}
		b, err := encodeBody(req)
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.Copy(io.Discard, b.reader())
		if err != nil || n != b.size {
			t.Fatalf("read %d bytes (%v), size %d", n, err, b.size)
		}
		sent += n
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(len(pdf))/10 {
		t.Errorf("allocated %d bytes for a PDF of %d", got, len(pdf))
	}
	if b64 := int64(len(pdf)+2) / 3 * 4; sent < 3*b64 {
		t.Errorf("sent %d bytes, less than 3 times the base64 (%d)", sent, b64)
	}
}

// base64Reader writes what base64.StdEncoding does, whatever the sizes of
// the buffers it is read into: under a quantum, cutting one, or larger
// than the whole.
func TestBase64ReaderIsStdEncoding(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 4, 5, 100, 1001} {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(i*7 + n)
		}
		want := base64.StdEncoding.EncodeToString(src)
		for _, size := range []int{1, 2, 3, 4, 5, 7, 9, 64, 4096} {
			r := &base64Reader{src: src}
			var got []byte
			buf := make([]byte, size)
			for {
				k, err := r.Read(buf)
				got = append(got, buf[:k]...)
				if err == io.EOF {
					break
				}
				if err != nil || k == 0 {
					t.Fatalf("%d bytes, buffer of %d: read %d, %v", n, size, k, err)
				}
			}
			if string(got) != want {
				t.Errorf("%d bytes, buffer of %d: %q, want %q", n, size, got, want)
			}
		}
	}
}
