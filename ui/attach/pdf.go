package attach

import (
	"muse/api"
	"muse/session"
)

// preparePDF prepares the PDF data, named name. One of more pages than
// the service reads in a request (api.MaxPDFPages, which are also all the
// media a request may carry, api.MaxMedia) cannot be sent, whole or in
// parts, and is refused, saying what to do.
//
// muse does not cut such a PDF to its first pages itself: the one
// well-kept pure-Go PDF library (pdfcpu) parses the whole object graph
// recursively and decodes every content stream, so a small hostile PDF
// (millions of nested arrays, a compression bomb) overflowed the stack,
// which no recover catches, or took gigabytes. muse's own page counter
// (api.PDFPages) reads only what it needs, with bounds.
func preparePDF(name string, data []byte) (session.File, error) {
	if n := api.PDFPages(data); n > api.MaxPDFPages {
		return session.File{}, refuse(name, "a PDF of %d pages is over the %d a request carries (every page counts toward the %d media of a request): save the pages you need as a PDF of their own (for example qpdf in.pdf --pages . 1-100 -- part.pdf) and attach that",
			n, api.MaxPDFPages, api.MaxMedia)
	}
	return session.File{Attachment: session.Attachment{
		Name: name, Kind: session.AttachDocument, MediaType: api.MediaPDF, Bytes: int64(len(data)),
	}, Data: data}, nil
}
