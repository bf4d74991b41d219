package api

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"strings"
	"unicode/utf8"
)

// Source is the data of an image or document block: base64 data of a
// media type (Type SourceBase64), plain text (SourceText, for a document),
// or a URL (SourceURL). Fields the server sends that Source has no field
// for are not kept: muse only sends sources, it never receives them.
//
// A PDF's source made by DocumentBlock keeps the PDF's bytes rather than
// their base64, and leaves Data empty: the base64, a third larger than
// the file, is written only as the request's body is sent, a few
// kilobytes at a time (see body), and as JSON (MarshalJSON) when anything
// else encodes the block.
type Source struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type,omitempty"`
	Data      string `json:"data,omitempty"`
	URL       string `json:"url,omitempty"`

	raw   []byte // the bytes whose base64 is the data, when Data is empty
	pages int    // of a PDF in raw: its pages, counted once (PDFPages)
}

// MarshalJSON writes s with its data as base64, from raw when it holds
// the bytes.
func (s Source) MarshalJSON() ([]byte, error) {
	type plain Source // without this method
	p := plain(s)
	if s.raw != nil {
		p.Data = base64.StdEncoding.EncodeToString(s.raw)
	}
	return json.Marshal(p)
}

// dataLen is the length of s's data as sent: of the base64 of raw, or of
// Data.
func (s *Source) dataLen() int {
	if s.raw != nil {
		return base64.StdEncoding.EncodedLen(len(s.raw))
	}
	return len(s.Data)
}

// decoded returns a reader of the bytes s's base64 data holds.
func (s *Source) decoded() io.Reader {
	if s.raw != nil {
		return bytes.NewReader(s.raw)
	}
	return base64.NewDecoder(base64.StdEncoding, strings.NewReader(s.Data))
}

// head returns the first 12 bytes (or fewer, n) that s's base64 data
// holds.
func (s *Source) head() (head [12]byte, n int) {
	if s.raw != nil {
		return head, copy(head[:], s.raw)
	}
	return base64Head(s.Data)
}

// validBase64 reports whether s's data is standard base64 (bytes kept in
// raw always are, once written).
func (s *Source) validBase64() bool {
	if s.raw != nil {
		return true
	}
	_, ok := base64Size(s.Data)
	return ok
}

// Media types an image block may carry, as the Messages API takes them.
var ImageMediaTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// MediaPDF is the media type of a PDF document block.
const MediaPDF = "application/pdf"

// MediaPlainText is the media type of a document block whose source is
// text (Type SourceText).
const MediaPlainText = "text/plain"

// MediaExt is the file name extension of a file of mediaType, one of the
// media types a block carries (ImageMediaTypes, MediaPDF, MediaPlainText),
// or "" for another.
func MediaExt(mediaType string) string {
	switch mediaType {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	case MediaPDF:
		return ".pdf"
	case MediaPlainText:
		return ".txt"
	}
	return ""
}

// ImageBlock returns an image block sending data, an image of mediaType
// (one of ImageMediaTypes), as base64.
func ImageBlock(mediaType string, data []byte) ContentBlock {
	return ContentBlock{Type: BlockImage, Source: &Source{
		Type: SourceBase64, MediaType: mediaType, Data: encodeBase64(data),
	}}
}

// DocumentBlock returns a document block sending data, a document of
// mediaType (MediaPDF), as base64, titled title when it is not empty.
// The block keeps data, not its base64 (see Source): data must not be
// changed while the block is in use.
func DocumentBlock(mediaType string, data []byte, title string) ContentBlock {
	src := &Source{Type: SourceBase64, MediaType: mediaType, raw: data}
	if data == nil {
		src.raw = []byte{}
	}
	if mediaType == MediaPDF {
		src.pages = pdfPagesOnce(data)
	}
	return ContentBlock{Type: BlockDocument, Title: title, Source: src}
}

// TextDocumentBlock returns the plain-text document block that sends a
// text file named name: source {type: "text", media_type: "text/plain"}
// with the text as data, and the name as its title. The document is a
// block of its own, so nothing in the text can end it or open another,
// as it could a text block wrapping the file in tags.
func TextDocumentBlock(name, text string) ContentBlock {
	return ContentBlock{Type: BlockDocument, Title: name, Source: &Source{
		Type: SourceText, MediaType: MediaPlainText, Data: text,
	}}
}

// WithCitations returns b asking for citations (citations: {enabled:
// true}) when b is a document block; other blocks are returned as they are.
// b's Extra is copied, not changed.
func WithCitations(b ContentBlock) ContentBlock {
	if b.Type != BlockDocument {
		return b
	}
	extra := make(map[string]json.RawMessage, len(b.Extra)+1)
	for k, v := range b.Extra {
		extra[k] = v
	}
	extra["citations"] = citationsOn
	b.Extra = extra
	return b
}

// citationsOn is a document's citations setting that asks for them.
var citationsOn = json.RawMessage(`{"enabled":true}`)

// FileTextBlock returns the text block that sent a text file named name
// before text files went as documents (TextDocumentBlock); an attachment
// saved then is sent again as it was:
//
//	<file name="NAME">
//	TEXT
//	</file>
//
// with the name written as attribute text (see EscapeAttr). The demo
// server reads the same shape back (see ParseFileText).
func FileTextBlock(name, text string) ContentBlock {
	return ContentBlock{Type: BlockText, Text: fileOpen + EscapeAttr(name) + "\">\n" + text + "\n" + fileClose}
}

// EscapeAttr writes s as the text of a double-quoted XML or HTML
// attribute, such as a file's name in a request: &, <, >, " and ' as
// entities, a line break, carriage return or tab as a character reference,
// and any other control character, or bytes that are not UTF-8, as U+FFFD
// (XML allows none of them). Nothing in it can end the attribute or the
// tag it is in.
func EscapeAttr(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r == '\'':
			b.WriteString("&#39;")
		case r == '\n':
			b.WriteString("&#10;")
		case r == '\r':
			b.WriteString("&#13;")
		case r == '\t':
			b.WriteString("&#9;")
		case r < 0x20 || (r >= 0x7f && r < 0xa0):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ParseFileText reads a text block written by FileTextBlock: the file's
// name and text, and whether text is such a block.
func ParseFileText(text string) (name, body string, ok bool) {
	rest, ok := strings.CutPrefix(text, fileOpen)
	if !ok {
		return "", "", false
	}
	escaped, rest, ok := strings.Cut(rest, "\">\n")
	if !ok || strings.ContainsAny(escaped, "<>\"\n") {
		return "", "", false
	}
	body, ok = strings.CutSuffix(rest, "\n"+fileClose)
	if !ok {
		return "", "", false
	}
	return fileNameUnescaper.Replace(escaped), body, true
}

const (
	fileOpen  = "<file name=\""
	fileClose = "</file>"
)

// fileNameUnescaper reads back what EscapeAttr wrote.
var fileNameUnescaper = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", "\"", "&#39;", "'",
	"&#10;", "\n", "&#13;", "\r", "&#9;", "\t")
