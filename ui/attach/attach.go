// Package attach turns a file, or bytes from standard input, the clipboard
// or an image muse generated, into an attachment ready to be sent: an image,
// a PDF or a text file, told apart by their content, never by their names.
//
// What it refuses, it refuses with a [RefusedError] saying why and what to
// do: a binary file, a directory, a missing or unreadable file, a named pipe
// or a device (never opened in a way that could block), an empty file, and a
// file over the limits below. A file is never read past the limit of its
// kind: its size is checked before it is read, and the read is bounded.
//
// An image within the limits of what is sent (MaxSentSide pixels a side,
// MaxSentPixels, MaxSentImageBytes) is sent as it is, byte for byte, once
// it has decoded cleanly. A larger one is decoded, scaled down with muse's area-averaging
// (box) scaler, ui/imgscale (which says why it is not x/image/draw's), and
// encoded again: a JPEG as a JPEG, any other as a PNG, which keeps
// transparency, or as a JPEG flattened on white when that PNG is still too
// large. A photo's EXIF orientation, which encoding again would lose, is
// applied to its pixels.
package attach

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"unicode/utf8"

	"muse/api"
	"muse/session"
	"muse/ui/sanitize"
)

// Limits on what is attached. The images read are also bounded by
// session.MaxImageBytes and session.MaxImagePixels, checked from the image's
// header before it is decoded, so that a small file cannot unpack into
// gigabytes of pixels.
const (
	// MaxSentSide is the longest side, in pixels, of an image as sent: a
	// larger one is scaled down to it, as the Messages API would do anyway.
	MaxSentSide = 1568
	// MaxSentPixels is the most pixels of an image as sent: Anthropic's
	// vision documentation scales down an image of more than about 1,600
	// tokens (a token is 750 pixels) and recommends at most 1.15
	// megapixels, so a larger one is scaled down to it, keeping its
	// aspect ratio. A 3:2 photo goes out as 1313×875, not 1568×1045: 30%
	// fewer pixels to encode and send, none of them the model would see.
	MaxSentPixels = 1_150_000
	// MaxSourceSide is the longest side, in pixels, of an image attached:
	// twice the 8000 px the Messages API takes a side, room for a
	// panorama, and small enough that a row costs little to decode and
	// scale (a PNG of 40,000,000×1 px, within MaxImagePixels, took 1 GB).
	MaxSourceSide = 16384
	// MaxAspect is how many times as long as it is wide an image scaled
	// down to MaxSentSide may be: one longer would go out as a sliver of
	// a few pixels (a 40,000,000×1 px one went out as 1568×1).
	MaxAspect = 100
	// MaxSentImageBytes is the largest image sent, in bytes: 3.75 MiB,
	// whose base64 is the 5 MiB the Messages API takes an image (it
	// counts the base64).
	MaxSentImageBytes = api.MaxImageBlockBytes / 4 * 3
	// MaxPDFBytes is the largest PDF attached, in bytes: sent as base64
	// (4/3 of it), it must fit the service's 32 MB request.
	MaxPDFBytes = 22 << 20
	// MaxTextBytes is the largest text file attached, in bytes: about a
	// hundred thousand words, enough to read, not enough to drown a
	// conversation or its cost.
	MaxTextBytes = 512 << 10
)

// MediaText is the media type of a text attachment.
const MediaText = "text/plain"

// sniffBytes is how much of a file is read to tell its kind before the
// rest is read.
const sniffBytes = 512

// RefusedError says why a file cannot be attached. Every refusal of Open
// and FromBytes is one.
type RefusedError struct {
	// Name is the file's name as given (untrusted: Error sanitizes it).
	Name string
	// Reason says what is wrong, and what to do about it.
	Reason string
	// err is the error of the system behind it, if any (a missing file's
	// fs.ErrNotExist).
	err error
}

// Unwrap returns the error of the system behind the refusal, or nil.
func (e *RefusedError) Unwrap() error { return e.err }

// Error returns "cannot attach NAME: REASON".
func (e *RefusedError) Error() string {
	return "cannot attach " + sanitize.Line(e.Name) + ": " + e.Reason
}

// refuse returns a RefusedError for name.
func refuse(name, format string, args ...any) error {
	return &RefusedError{Name: name, Reason: fmt.Sprintf(format, args...)}
}

// Open reads the file at path and prepares it, with no policy applied:
// what Check finds is not looked at. The path is used as given (the
// caller expands ~). Only a regular file is opened, and only as many
// bytes as its kind may hold are read.
func Open(path string) (session.File, error) {
	o, err := Check(path)
	if err != nil {
		return session.File{}, err
	}
	defer o.Close()
	return o.Read()
}

// FromBytes prepares data, named name: standard input, the clipboard, or an
// image muse generated.
func FromBytes(name string, data []byte) (session.File, error) {
	k, err := classify(name, data[:min(len(data), sniffBytes)], int64(len(data)))
	if err != nil {
		return session.File{}, err
	}
	switch k.kind {
	case session.AttachImage:
		return prepareImage(name, data, k.mediaType, MaxSentImageBytes, MaxSentSide, MaxSentPixels)
	case session.AttachDocument:
		return preparePDF(name, data)
	}
	return prepareText(name, data)
}

// readFrom reads f, the regular file named name of st (its Stat once
// opened), refusing what cannot be attached before reading more of it
// than its first bytes.
func readFrom(f *os.File, name string, st fs.FileInfo) ([]byte, error) {
	size := st.Size()
	head := make([]byte, min(size, sniffBytes))
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, refuse(name, "cannot read it: %v", err)
	}
	k, err := classify(name, head[:n], size)
	if err != nil {
		return nil, err
	}
	if int64(n) < int64(len(head)) {
		return nil, refuse(name, "it changed while it was read: try again")
	}
	// One byte more than the file holds: reading it means the file grew.
	data := make([]byte, min(size, k.limit)+1)
	copy(data, head)
	m, err := io.ReadFull(f, data[n:])
	switch {
	case err == nil:
		return nil, refuse(name, "it changed while it was read: try again")
	case !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF):
		return nil, refuse(name, "cannot read it: %v", err)
	}
	return data[:n+m], nil
}

// statRefusal turns an error of Stat or Open into a refusal, which wraps
// it.
func statRefusal(name string, err error) error {
	r := &RefusedError{Name: name, Reason: "cannot read it: " + err.Error(), err: err}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		r.Reason = "no such file: check the path"
	case errors.Is(err, fs.ErrPermission):
		r.Reason = "permission denied: muse may not read it"
	}
	return r
}

// checkMode refuses what is not a regular file.
func checkMode(name string, mode fs.FileMode) error {
	var what string
	switch {
	case mode.IsRegular():
		return nil
	case mode.IsDir():
		return refuse(name, "it is a directory: attach the files in it one by one")
	case mode&fs.ModeNamedPipe != 0:
		what = "a named pipe"
	case mode&fs.ModeSocket != 0:
		what = "a socket"
	case mode&fs.ModeDevice != 0:
		what = "a device"
	default:
		what = "not a regular file"
	}
	return refuse(name, "it is %s, not a file: to send what it gives, pipe it to muse's standard input", what)
}

// kind is what a file is: its Attachment kind and media type, and the
// largest such file read.
type kind struct {
	kind, mediaType string
	limit           int64
}

// Signatures of the images muse attaches, checked in order.
var imageSignatures = []struct {
	prefix, mediaType string
}{
	{"\x89PNG\r\n\x1a\n", "image/png"},
	{"\xff\xd8\xff", "image/jpeg"},
	{"GIF87a", "image/gif"},
	{"GIF89a", "image/gif"},
}

// classify tells the kind of a file of size bytes from head, its first
// bytes (or all of them), and refuses one that is empty, binary, or over
// the limit of its kind.
func classify(name string, head []byte, size int64) (kind, error) {
	if size == 0 {
		return kind{}, refuse(name, "the file is empty")
	}
	k := kind{session.AttachText, MediaText, MaxTextBytes}
	for _, s := range imageSignatures {
		if bytes.HasPrefix(head, []byte(s.prefix)) {
			k = kind{session.AttachImage, s.mediaType, session.MaxImageBytes}
		}
	}
	switch {
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		k = kind{session.AttachImage, "image/webp", session.MaxImageBytes}
	case bytes.HasPrefix(head, []byte("%PDF-")):
		k = kind{session.AttachDocument, api.MediaPDF, MaxPDFBytes}
	case k.kind == session.AttachText && !looksLikeText(head):
		return kind{}, refuse(name, "binary file (%s): muse attaches images (PNG, JPEG, GIF, WebP), PDFs and UTF-8 text", describeBinary(head))
	}
	if size > k.limit {
		return kind{}, tooLarge(name, k, size)
	}
	return k, nil
}

// tooLarge refuses a file of kind k and size bytes, over k.limit.
func tooLarge(name string, k kind, size int64) error {
	sz, lim := sizeText(size), sizeText(k.limit)
	if sz == lim { // just over: say by how much
		sz, lim = strconv.FormatInt(size, 10)+" bytes", strconv.FormatInt(k.limit, 10)+"-byte"
	}
	over := fmt.Sprintf("%s is over the %s limit", sz, lim)
	switch k.kind {
	case session.AttachImage:
		return refuse(name, "an image of %s: save it smaller first", over)
	case session.AttachDocument:
		return refuse(name, "a PDF of %s: attach fewer pages (split it first)", over)
	}
	return refuse(name, "a text file of %s: attach the part you need (copy it to a new file)", over)
}

// looksLikeText reports whether head, the start of a file, is UTF-8 text
// without NUL bytes; a character cut at its end is allowed.
func looksLikeText(head []byte) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return false
	}
	for i := len(head) - 1; i >= 0 && i >= len(head)-utf8.UTFMax; i-- {
		if utf8.RuneStart(head[i]) {
			if !utf8.FullRune(head[i:]) {
				head = head[:i]
			}
			break
		}
	}
	return utf8.Valid(head)
}

// Signatures of common binary files, to say what a refused file seems to
// be.
var binarySignatures = []struct{ prefix, what string }{
	{"\xff\xfe", "UTF-16 text: convert it to UTF-8"},
	{"\xfe\xff", "UTF-16 text: convert it to UTF-8"},
	{"PK\x03\x04", "a ZIP archive, or a document made of one, such as .docx"},
	{"\x1f\x8b", "gzip-compressed"},
	{"\x7fELF", "a program"},
	{"II*\x00", "a TIFF image"},
	{"MM\x00*", "a TIFF image"},
	{"BM", "a BMP image"},
}

// describeBinary says what the binary file starting with head seems to be.
func describeBinary(head []byte) string {
	for _, s := range binarySignatures {
		if bytes.HasPrefix(head, []byte(s.prefix)) {
			return s.what
		}
	}
	if len(head) >= 12 && string(head[4:8]) == "ftyp" {
		return "a HEIC image or a video"
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return "it holds NUL bytes"
	}
	return "not UTF-8 text"
}

// prepareText prepares a text file: data without its byte order mark,
// which must be UTF-8 through to its end.
func prepareText(name string, data []byte) (session.File, error) {
	text := bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(text) == 0 {
		return session.File{}, refuse(name, "the file is empty")
	}
	if !utf8.Valid(text) || bytes.IndexByte(text, 0) >= 0 {
		return session.File{}, refuse(name, "binary file (%s): muse attaches images (PNG, JPEG, GIF, WebP), PDFs and UTF-8 text", describeBinary(text))
	}
	f := session.File{Attachment: session.Attachment{
		Name: name, Kind: session.AttachText, MediaType: MediaText, Bytes: int64(len(text)), Document: true,
	}, Data: text}
	if len(text) != len(data) {
		f.Size = int64(len(data))
	}
	return f, nil
}

// Label is the text of an attachment's chip: "photo.jpg · 1.2 MB ·
// 1568×1045" for an image, "paper.pdf · 340 KB" for a PDF, "notes.md ·
// 12 KB · 240 lines" for a text file. The name is sanitized.
func Label(f session.File) string {
	return LabelTo(f, "")
}

// LabelTo is Label for a file reached through a link to target (see
// Follow), which it names after the file's name: "README.md →
// ~/.config/gh/hosts.yml · 43 B · 1 line"; "" is no link. target is shown
// as given (ShortTarget it first, in a command): a label is drawn in View,
// which reads no file.
func LabelTo(f session.File, target string) string {
	s := Describe(f.Attachment)
	if target != "" {
		name := sanitize.Line(f.Name)
		s = name + " → " + sanitize.Line(target) + s[len(name):]
	}
	if f.Kind == session.AttachText {
		s += " · " + lines(f.Data)
	}
	return s
}

// ShortTarget writes target, a real path, from ~ when it is in the home
// folder (or where the home folder's links lead): ~/.config/gh/hosts.yml.
// It reads the file system (the home folder's links): call it in a
// command, never in Update or View.
func ShortTarget(target string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return target
	}
	for _, h := range withReal(home) {
		if rel, err := filepath.Rel(h, target); err == nil && within(target, h) && target != h {
			return "~" + string(filepath.Separator) + rel
		}
	}
	return target
}

// Describe is what the screen shows of an attachment sent: "photo.jpg ·
// 1.2 MB · 1568×1045", "paper.pdf · 340 KB", the name sanitized.
func Describe(a session.Attachment) string {
	s := sanitize.Line(a.Name) + " · " + sizeText(a.Bytes)
	if a.Kind == session.AttachImage && a.Width > 0 {
		s += " · " + strconv.Itoa(a.Width) + "×" + strconv.Itoa(a.Height)
	}
	return s
}

// lines counts the lines of text: "1 line", "240 lines"; a last line
// without a line break counts.
func lines(text []byte) string {
	n := bytes.Count(text, []byte("\n"))
	if len(text) > 0 && text[len(text)-1] != '\n' {
		n++
	}
	if n == 1 {
		return "1 line"
	}
	return strconv.Itoa(n) + " lines"
}

// sizeText writes n bytes for people: "812 B", "340 KB", "1.2 MB",
// "10.0 GB", in units of 1024.
func sizeText(n int64) string {
	switch {
	case n < 1<<10:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1<<20-1<<9: // rounds to fewer than 1024 KB
		return strconv.FormatInt((n+1<<9)>>10, 10) + " KB"
	case n >= 1<<30:
		return strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + " GB"
	case n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MB"
	}
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MB"
}
