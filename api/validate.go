package api

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// ErrInvalidRequest is wrapped by every validation error, and matched by the
// configuration errors New finds (a base URL that is not http(s), a token
// with a control character), so callers can tell a request that was never
// sent (a usage error) from a failed one.
var ErrInvalidRequest = errors.New("invalid request")

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidRequest, fmt.Sprintf(format, args...))
}

// BlockError is the error Validate returns for a content block the service
// would refuse: Message and Block say where it is, Err what is wrong. It
// matches ErrInvalidRequest.
type BlockError struct {
	Message, Block int
	Err            error
}

func (e *BlockError) Error() string {
	return fmt.Sprintf("%v: messages[%d].content[%d]: %v", ErrInvalidRequest, e.Message, e.Block, e.Err)
}

// Unwrap returns ErrInvalidRequest.
func (e *BlockError) Unwrap() error { return ErrInvalidRequest }

// Validate checks the request against the interface's limits before it is
// sent. The message calls check it, unless told it was checked (Checked).
func (r *MessageRequest) Validate() error {
	if strings.TrimSpace(r.Model) == "" {
		return invalid("model is empty: set a model name")
	}
	if len(r.Messages) == 0 {
		return invalid("messages is empty: send at least one message")
	}
	for i, m := range r.Messages {
		if m.Role == "" {
			return invalid("messages[%d] has no role", i)
		}
		if m.IsEmpty() {
			return invalid("messages[%d] is empty: write a prompt", i)
		}
		for j := range m.Blocks {
			if err := m.Blocks[j].Validate(m.Role); err != nil {
				return &BlockError{Message: i, Block: j, Err: err}
			}
		}
	}
	if err := CheckMedia(r.Messages); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidRequest, err)
	}
	body, sources, err := r.bodySize()
	switch {
	case err != nil:
		return invalid("the request cannot be encoded: %v", err)
	case body > MaxRequestBytes && sources > body/2:
		return surfaced("/detach some, or "+chatNewSession, shellNewSession+", or attach fewer or smaller files",
			"this request would be %.1f MB as sent, %.1f MB of it the base64 of attachments, over the service's limit of %d MB (every earlier attachment is sent again with each prompt)",
			float64(body)/1e6, float64(sources)/1e6, MaxRequestBytes/1_000_000)
	case body > MaxRequestBytes:
		return surfaced(chatNewSession+", or use fewer or smaller tools", shellNewSession+", or offer fewer or smaller tools (--tools, --mcp-config)",
			"this request would be %.1f MB as sent, over the service's limit of %d MB",
			float64(body)/1e6, MaxRequestBytes/1_000_000)
	}
	if r.MaxTokens < 1 {
		return invalid("max_tokens must be at least 1, got %d", r.MaxTokens)
	}
	if t := r.Temperature; t != nil && (*t < 0 || *t > 1 || *t != *t) {
		return invalid("temperature must be between 0 and 1, got %g", *t)
	}
	if p := r.TopP; p != nil && (*p < 0 || *p > 1 || *p != *p) {
		return invalid("top_p must be between 0 and 1, got %g", *p)
	}
	if k := r.TopK; k != nil && *k < 1 {
		return invalid("top_k must be at least 1, got %d", *k)
	}
	if oc := r.OutputConfig; oc != nil && oc.Effort != "" && !slices.Contains(Efforts, oc.Effort) {
		return invalid("effort must be one of %s, got %q", strings.Join(Efforts, ", "), oc.Effort)
	}
	if th := r.Thinking; th != nil && th.Type == ThinkingEnabled {
		if th.BudgetTokens < 1 {
			return invalid("thinking budget must be at least 1 token, got %d", th.BudgetTokens)
		}
		if th.BudgetTokens >= r.MaxTokens {
			return invalid("thinking budget (%d) must be below max_tokens (%d)", th.BudgetTokens, r.MaxTokens)
		}
	}
	if th, tc := r.Thinking, r.ToolChoice; th != nil && (th.Type == ThinkingEnabled || th.Type == ThinkingAdaptive) && tc != nil && (tc.Type == "any" || tc.Type == "tool") && len(r.Tools) > 0 {
		return surfaced("use /tool-choice auto or /thinking off", "use --tool-choice auto or --thinking off",
			"thinking cannot be on while tool_choice forces a tool (%s): the service refuses it", tc.Type)
	}
	for i, t := range r.Tools {
		if t.Name == "" {
			return invalid("tools[%d] has no name", i)
		}
		if !ValidToolName(t.Name) {
			return invalid("tools[%d] is named %q: a tool's name must be %s", i, t.Name, ToolNameRule)
		}
	}
	return nil
}

// Validate checks the image request before it is sent.
func (r *ImageRequest) Validate() error {
	if strings.TrimSpace(r.Model) == "" {
		return invalid("image model is empty: set an image model name")
	}
	if strings.TrimSpace(r.Prompt()) == "" {
		return invalid("image prompt is empty: describe the image")
	}
	if p := r.Parameters; p != nil && p.Size != "" {
		if _, _, err := ParseSize(p.Size); err != nil {
			return err
		}
	}
	return nil
}

// ParseSize parses an image size of the form "<width>*<height>" with positive integers.
func ParseSize(s string) (width, height int, err error) {
	w, h, ok := strings.Cut(s, "*")
	if ok {
		width, err = strconv.Atoi(w)
		if err == nil {
			height, err = strconv.Atoi(h)
		}
	}
	if !ok || err != nil || width < 1 || height < 1 || strings.ContainsAny(w+h, "+-") {
		return 0, 0, invalid("size %q must be <width>*<height> with positive integers, like 1024*1024", s)
	}
	return width, height, nil
}

// MaxImageBlockBytes is the largest image an image block may carry: 5 MiB
// of base64, as sent, the Messages API's limit (it counts the base64, not
// the 3.75 MiB of image it holds). Larger images must be scaled down
// before they are sent.
const MaxImageBlockBytes = 5 * 1024 * 1024

// MaxDocumentBlockBytes is the largest PDF a document block may carry:
// 32 MiB of base64, as sent; the whole request must also be within
// MaxRequestBytes.
const MaxDocumentBlockBytes = 32 * 1024 * 1024

// Validate checks a content block of a message of role as the service
// does: an image or document block must be in a user message and carry
// data the service takes (for an image, base64 of at most
// MaxImageBlockBytes in one of ImageMediaTypes, whose bytes are of that
// type). Blocks of other types pass. The error says what is wrong and what
// to do, without naming the block: MessageRequest.Validate adds where it
// is. The demo server refuses what this refuses.
func (b *ContentBlock) Validate(role string) error {
	if b.Type != BlockImage && b.Type != BlockDocument {
		return nil
	}
	if role != RoleUser {
		return fmt.Errorf("%s blocks may only be in user messages, not in %s ones: remove it", b.Type, role)
	}
	src := b.Source
	if src == nil {
		return fmt.Errorf("%s block has no source: attach the file again", b.Type)
	}
	if src.Type == SourceURL {
		if u, err := url.Parse(src.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%s URL %q is not an http(s) URL: give a web address or attach the file", b.Type, src.URL)
		}
		return nil
	}
	if b.Type == BlockImage {
		return validateImage(src)
	}
	return validateDocument(src)
}

// validateImage checks the base64 source of an image block.
func validateImage(src *Source) error {
	if src.Type != SourceBase64 {
		return fmt.Errorf("image source type %q is not base64 or url: attach the file again", src.Type)
	}
	if !slices.Contains(ImageMediaTypes, src.MediaType) {
		return fmt.Errorf("image media type %q is not one of %s: convert the image to PNG or JPEG",
			src.MediaType, strings.Join(ImageMediaTypes, ", "))
	}
	if src.dataLen() == 0 {
		return errors.New("image data is empty: attach the file again")
	}
	if !src.validBase64() {
		return errors.New("image data is not valid base64: attach the file again")
	}
	if n := src.dataLen(); n > MaxImageBlockBytes {
		return fmt.Errorf("image is %d bytes as base64, as sent, over the limit of %d (5 MiB): scale it down or attach a smaller one",
			n, MaxImageBlockBytes)
	}
	head, n := src.head()
	if got := sniffImage(head[:n]); got != src.MediaType {
		if got == "" {
			got = "not an image muse can send"
		}
		return fmt.Errorf("image is said to be %s but its bytes are %s: attach the file again", src.MediaType, got)
	}
	w, h, err := ImageSize(src)
	if err != nil {
		return err
	}
	if max(w, h) > MaxImageSide {
		return fmt.Errorf("image is %d×%d px, over the service's %d px a side: scale it down", w, h, MaxImageSide)
	}
	return nil
}

// validateDocument checks the base64 or text source of a document block.
func validateDocument(src *Source) error {
	switch src.Type {
	case SourceBase64:
		if src.MediaType != MediaPDF {
			return fmt.Errorf("document media type %q is not %s: send PDFs as documents and text as text", src.MediaType, MediaPDF)
		}
		if src.dataLen() == 0 {
			return errors.New("PDF data is empty: attach the file again")
		}
		if !src.validBase64() {
			return errors.New("PDF data is not valid base64: attach the file again")
		}
		if n := src.dataLen(); n > MaxDocumentBlockBytes {
			return fmt.Errorf("PDF is %d bytes as base64, as sent, over the limit of %d (32 MiB): attach a smaller one", n, MaxDocumentBlockBytes)
		}
		if head, n := src.head(); !bytes.HasPrefix(head[:n], pdfMagic) {
			return errors.New("PDF data does not start with %PDF-: attach a PDF file")
		}
		if n := PagesOf(src); n > MaxPDFPages {
			return fmt.Errorf("PDF has %d pages, over the service's %d: split it, or attach the pages you need", n, MaxPDFPages)
		}
	case SourceText:
		if src.MediaType != MediaPlainText {
			return fmt.Errorf("text document media type %q is not %s: send it as %s", src.MediaType, MediaPlainText, MediaPlainText)
		}
		if src.Data == "" {
			return errors.New("text document is empty: attach a file with text in it")
		}
	default:
		return fmt.Errorf("document source type %q is not base64, text or url: attach the file again", src.Type)
	}
	return nil
}

// pdfMagic is how every PDF file starts.
var pdfMagic = []byte("%PDF-")

// sniffImage returns the media type of the image whose bytes begin with
// head (one of ImageMediaTypes), or "" when they are none of them. A dozen
// bytes are enough.
func sniffImage(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(head, []byte("\xff\xd8\xff")):
		return "image/jpeg"
	case bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return "image/gif"
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return "image/webp"
	}
	return ""
}

// base64Head decodes the first 12 bytes (or fewer, n) of s, valid
// base64, into head: an array, so that checking allocates nothing.
func base64Head(s string) (head [12]byte, n int) {
	n, _ = base64.StdEncoding.Decode(head[:], []byte(s[:min(len(s), 16)]))
	return head, n
}

// base64Size reports whether s is standard base64 with padding, as
// base64.StdEncoding decodes it (but with no line breaks), and the size of
// the bytes it holds. It reads s once and allocates nothing: requests
// carry megabytes of it, checked before every send.
func base64Size(s string) (int, bool) {
	n := len(s)
	if n%4 != 0 {
		return 0, false
	}
	pad := 0
	if strings.HasSuffix(s, "==") {
		pad = 2
	} else if strings.HasSuffix(s, "=") {
		pad = 1
	}
	body := s[:n-pad]
	var bad byte // or-ed, with no branch for each byte
	for i := 0; i < len(body); i++ {
		bad |= notBase64[body[i]]
	}
	return n/4*3 - pad, bad == 0
}

// notBase64 is 1 for the bytes outside the standard base64 alphabet.
var notBase64 = func() (t [256]byte) {
	for i := range t {
		t[i] = 1
	}
	for _, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/" {
		t[c] = 0
	}
	return t
}()
