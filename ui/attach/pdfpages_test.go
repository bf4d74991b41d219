package attach

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"muse/api"
	"muse/api/pdftest"
)

// A PDF of up to 100 pages is sent as it is. One of more, which no request
// can carry whole or in parts (100 PDF pages are all the media a request
// may hold), is refused, saying how many pages it has and what to do.
func TestPDFOverTheServicesPagesRefused(t *testing.T) {
	whole := pdftest.Paged(100)
	f, err := FromBytes("ok.pdf", whole)
	if err != nil || !bytes.Equal(f.Data, whole) || f.Name != "ok.pdf" || f.Note != "" {
		t.Fatalf("100 pages: %+v, %v", f.Attachment, err)
	}
	block := api.DocumentBlock(f.MediaType, f.Data, f.Name) // as the engine sends it
	req := api.MessageRequest{Model: "m", MaxTokens: 10, Messages: []api.MessageParam{{Role: api.RoleUser, Blocks: []api.ContentBlock{block}}}}
	if err := req.Validate(); err != nil {
		t.Errorf("the request of 100 pages is refused: %v", err)
	}
	_, err = FromBytes("big.pdf", pdftest.Paged(180))
	var refused *RefusedError
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "a PDF of 180 pages is over the 100 a request carries") {
		t.Errorf("180 pages: %v", err)
	}
}

// A PDF of over 100 pages that cannot be read to take its pages apart is
// refused, saying how many pages it has and what to do.
func TestDamagedLongPDFRefused(t *testing.T) {
	damaged := []byte(fmt.Sprintf("%%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count %d >>\nendobj\n%%%%EOF\n", 101))
	_, err := FromBytes("big.pdf", damaged)
	var refused *RefusedError
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "a PDF of 101 pages is over the 100 a request carries") ||
		!strings.Contains(err.Error(), "save the pages you need as a PDF of their own") {
		t.Errorf("101 pages: %v", err)
	}
}
