package api

import (
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif"  // image headers are read to check their sides before sending
	_ "image/jpeg" // (see ImageSize)
	_ "image/png"

	_ "golang.org/x/image/webp"
)

// The service's limits on the media of one request.
const (
	// MaxMedia is the most images and PDF pages one request may carry,
	// counted over its whole history.
	MaxMedia = 100
	// MaxPDFPages is the most pages one PDF may have.
	MaxPDFPages = 100
	// MaxImageSide is the longest side an image may have, in pixels.
	MaxImageSide = 8000
	// ManyImages is the number of images above which each must be at most
	// MaxManyImageSide pixels a side.
	ManyImages = 20
	// MaxManyImageSide is the longest side of each image of a request with
	// more than ManyImages images.
	MaxManyImageSide = 2000
)

// ImageSize returns the pixels of the image whose base64 source is src,
// read from its header: only the bytes up to the header are decoded. An
// error says the image does not decode.
func ImageSize(src *Source) (width, height int, err error) {
	cfg, _, err := image.DecodeConfig(src.decoded())
	if err != nil {
		return 0, 0, fmt.Errorf("the image does not decode (%v): attach it again, or convert it to PNG or JPEG", err)
	}
	return cfg.Width, cfg.Height, nil
}

// Media is what a request's images and PDFs count against the service's
// limits: each image block (with its sides), each image in a tool result,
// and each page of a PDF.
type Media struct {
	Images int // image blocks and images in tool results
	Pages  int // pages of PDF documents (1 for a PDF whose pages are not known)
	// Large are the images of more than MaxManyImageSide pixels a side.
	Large int
}

// Total is the number of media items the service counts: images and PDF
// pages.
func (m Media) Total() int { return m.Images + m.Pages }

// CountMedia counts the media of msgs. Images whose header does not
// decode count as images of no size (ContentBlock.Validate refuses them).
func CountMedia(msgs []MessageParam) Media {
	var m Media
	for _, msg := range msgs {
		for i := range msg.Blocks {
			m.add(&msg.Blocks[i])
		}
	}
	return m
}

// add counts b.
func (m *Media) add(b *ContentBlock) {
	switch b.Type {
	case BlockImage:
		m.Images++
		if b.Source != nil && b.Source.Type == SourceBase64 {
			if w, h, err := ImageSize(b.Source); err == nil && max(w, h) > MaxManyImageSide {
				m.Large++
			}
		}
	case BlockDocument:
		if b.Source != nil && b.Source.Type == SourceBase64 && b.Source.MediaType == MediaPDF {
			m.Pages += max(1, PagesOf(b.Source))
		}
	case BlockToolResult:
		var parts []ContentBlock
		if len(b.ResultContent) > 0 && b.ResultContent[0] == '[' && json.Unmarshal(b.ResultContent, &parts) == nil {
			for i := range parts {
				m.add(&parts[i])
			}
		}
	}
}

// CheckMedia checks the media of msgs against the service's limits on a
// whole request: at most MaxMedia images and PDF pages, and with more than
// ManyImages images, none over MaxManyImageSide pixels a side. The error
// says what to do.
func CheckMedia(msgs []MessageParam) error {
	m := CountMedia(msgs)
	if m.Total() > MaxMedia {
		return &SurfaceError{Err: fmt.Errorf("this request would carry %d images and PDF pages (%d images, %d pages), over the service's %d (every earlier attachment is sent again with each prompt)",
			m.Total(), m.Images, m.Pages, MaxMedia), Chat: "/detach some, or " + chatNewSession, Shell: shellNewSession + ", or attach fewer files"}
	}
	if m.Images > ManyImages && m.Large > 0 {
		return fmt.Errorf("this request would carry %d images, %d of them over %d px a side, which the service refuses with more than %d images: attach them scaled down, or fewer",
			m.Images, m.Large, MaxManyImageSide, ManyImages)
	}
	return nil
}
