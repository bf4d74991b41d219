package attach

import (
	"bytes"
	"fmt"
	"sync"

	pdfapi "github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"muse/api"
	"muse/session"
)

// preparePDF prepares the PDF data, named name. One of more pages than
// the service reads in a request (api.MaxPDFPages, which are also all the
// media a request may carry, api.MaxMedia) cannot be sent whole, in one
// block or in several: its first api.MaxPDFPages pages are, as a PDF of
// their own made with pdfcpu, named for the pages they are (so that the
// model, which reads the name as the document's title, knows it has part
// of it), with a note saying so and how to send the rest. What pdfcpu
// cannot read is refused, saying what to do.
func preparePDF(name string, data []byte) (session.File, error) {
	f := session.File{Attachment: session.Attachment{
		Name: name, Kind: session.AttachDocument, MediaType: api.MediaPDF, Bytes: int64(len(data)),
	}, Data: data}
	n := api.PDFPages(data)
	if n <= api.MaxPDFPages {
		return f, nil
	}
	part, err := firstPages(data, api.MaxPDFPages)
	if err == nil && api.PDFPages(part) > api.MaxPDFPages {
		err = fmt.Errorf("%d pages were left", api.PDFPages(part))
	}
	if err != nil {
		return session.File{}, refuse(name, "a PDF of %d pages is over the %d a request carries, and muse could not take the first %d out of it (%v): save the pages you need as a PDF of their own and attach that",
			n, api.MaxPDFPages, api.MaxPDFPages, err)
	}
	if len(part) > MaxPDFBytes {
		return session.File{}, tooLarge(name, kind{session.AttachDocument, api.MediaPDF, MaxPDFBytes}, int64(len(part)))
	}
	pages := fmt.Sprintf("pages 1–%d of %d", api.MaxPDFPages, n)
	f.Name = name + " (" + pages + ")"
	f.Data, f.Bytes, f.Size = part, int64(len(part)), int64(len(data))
	f.Note = fmt.Sprintf("sent %s: a request carries at most %d PDF pages (and every earlier attachment is sent again with each prompt); to ask about the rest, save those pages as a PDF of their own and attach it in a new session (/clear)",
		pages, api.MaxPDFPages)
	return f, nil
}

// pdfcpuConfig is pdfcpu's configuration for muse: its defaults, built in,
// with no configuration directory (pdfcpu would otherwise write one, and
// exit the process when it cannot).
var pdfcpuConfig = sync.OnceValue(func() *model.Configuration {
	pdfapi.DisableConfigDir()
	return model.NewDefaultConfiguration()
})

// firstPages returns a PDF of the first n pages of the PDF data, as
// pdfcpu writes it. A panic of pdfcpu on a damaged file is an error.
func firstPages(data []byte, n int) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("the file is damaged: %v", r)
		}
	}()
	conf := *pdfcpuConfig()
	var buf bytes.Buffer
	if err := pdfapi.Trim(bytes.NewReader(data), &buf, []string{fmt.Sprintf("1-%d", n)}, &conf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
