package attach

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"muse/api"
	"muse/api/pdftest"
	"muse/ui/internal/streamtest"
)

// A PDF of up to 100 pages is sent as it is. One of more, which no request
// can carry whole (100 PDF pages are all the media a request may hold,
// however they are split), is sent as its first 100 pages, a PDF of their
// own that the page counter the request check uses reads as 100 pages,
// named for the part it is, with a note saying what was sent and how to
// send the rest.
func TestPDFOverTheServicesPagesSendsTheFirst100(t *testing.T) {
	whole := pdftest.Paged(100)
	f, err := FromBytes("ok.pdf", whole)
	if err != nil || !bytes.Equal(f.Data, whole) || f.Name != "ok.pdf" || f.Note != "" {
		t.Fatalf("100 pages: %+v, %v", f.Attachment, err)
	}
	big := pdftest.Paged(180)
	f, err = FromBytes("big.pdf", big)
	if err != nil {
		t.Fatal(err)
	}
	if n := api.PDFPages(f.Data); n != 100 || !bytes.HasPrefix(f.Data, []byte("%PDF-")) {
		t.Errorf("sent a PDF of %d pages", n)
	}
	if f.Name != "big.pdf (pages 1–100 of 180)" || f.Size != int64(len(big)) || f.Bytes != int64(len(f.Data)) {
		t.Errorf("attachment %+v", f.Attachment)
	}
	if !strings.Contains(f.Note, "sent pages 1–100 of 180") || !strings.Contains(f.Note, "new session") {
		t.Errorf("note %q", f.Note)
	}
	block := api.DocumentBlock(f.MediaType, f.Data, f.Name) // as the engine sends it
	req := api.MessageRequest{Model: "m", MaxTokens: 10, Messages: []api.MessageParam{{Role: api.RoleUser, Blocks: []api.ContentBlock{block}}}}
	if err := req.Validate(); err != nil {
		t.Errorf("the request the part makes is refused: %v", err)
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

// Taking the first 100 pages out costs in proportion to the PDF: twice
// the pages past them allocates at most about twice as much.
func TestFirstPagesCostIsLinear(t *testing.T) {
	small, large := pdftest.Paged(200), pdftest.Paged(400)
	var errs [2]error
	a := streamtest.Allocated(func() { _, errs[0] = FromBytes("a.pdf", small) })
	b := streamtest.Allocated(func() { _, errs[1] = FromBytes("b.pdf", large) })
	if errs[0] != nil || errs[1] != nil {
		t.Fatal(errs)
	}
	if b > 2*a+a/4 {
		t.Errorf("a PDF of 400 pages allocated %d bytes, one of 200 %d", b, a)
	}
}
