package attach

import (
	"bytes"
	"image/color"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muse/api"
	"muse/session"
)

// Each kind is told by its content, whatever its name says, and a small
// image is sent byte for byte as it is.
func TestKinds(t *testing.T) {
	small := gradient(160, 100)
	var gifBuf bytes.Buffer
	if err := gif.Encode(&gifBuf, small, nil); err != nil {
		t.Fatal(err)
	}
	pdf := []byte("%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n")
	for _, tc := range []struct {
		name, kind, mediaType string
		data                  []byte
		label                 string
	}{
		{"photo.txt", session.AttachImage, "image/jpeg", encodeJPEG(t, small, 90), "photo.txt · %s · 160×100"},
		{"shot", session.AttachImage, "image/png", encodePNG(t, small, png.DefaultCompression), "shot · %s · 160×100"},
		{"anim.gif", session.AttachImage, "image/gif", gifBuf.Bytes(), "anim.gif · %s · 160×100"},
		{"pic.webp", session.AttachImage, "image/webp", losslessWebP(t, twoTone(64, 32, color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 0, 255, 128})), "pic.webp · %s · 64×32"},
		{"paper.png", session.AttachDocument, api.MediaPDF, pdf, "paper.png · %s"},
		{"notes.md", session.AttachText, MediaText, []byte("# Notes\r\nsecond line\nthird, no newline"), "notes.md · %s · 3 lines"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Open(writeFile(t, tc.name, tc.data))
			if err != nil {
				t.Fatal(err)
			}
			if f.Name != tc.name || f.Kind != tc.kind || f.MediaType != tc.mediaType {
				t.Errorf("got %s %s %s, want %s %s %s", f.Name, f.Kind, f.MediaType, tc.name, tc.kind, tc.mediaType)
			}
			if !bytes.Equal(f.Data, tc.data) || f.Bytes != int64(len(tc.data)) || f.Size != 0 || f.Note != "" || f.SHA256 != "" {
				t.Errorf("sent %d bytes (Bytes %d, Size %d, note %q, sha %q), want the %d of the file unchanged",
					len(f.Data), f.Bytes, f.Size, f.Note, f.SHA256, len(tc.data))
			}
			if want := strings.Replace(tc.label, "%s", sizeText(int64(len(tc.data))), 1); Label(f) != want {
				t.Errorf("label %q, want %q", Label(f), want)
			}
		})
	}
}

// Text keeps its line endings and loses its byte order mark; the size of
// the file, BOM and all, is kept as Size.
func TestText(t *testing.T) {
	f, err := FromBytes("stdin", []byte("\xef\xbb\xbfone\r\ntwo\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if string(f.Data) != "one\r\ntwo\r\n" || f.Bytes != 10 || f.Size != 13 {
		t.Errorf("got %q, Bytes %d, Size %d", f.Data, f.Bytes, f.Size)
	}
	if Label(f) != "stdin · 10 B · 2 lines" {
		t.Errorf("label %q", Label(f))
	}
	one, err := FromBytes("a", []byte("héllo"))
	if err != nil || Label(one) != "a · 6 B · 1 line" {
		t.Errorf("label %q, %v", Label(one), err)
	}
}

// What cannot be attached is refused by Open with a RefusedError that says
// why and what to do.
func TestOpenRefusals(t *testing.T) {
	dir := t.TempDir()
	sparse := func(name, head string, size int64) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(head), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(p, size); err != nil {
			t.Fatal(err)
		}
		return p
	}
	logLines := strings.Repeat("log line\n", 100) // more than is read to tell the kind
	truncatedJPEG := encodeJPEG(t, gradient(100, 60), 90)
	truncatedJPEG = truncatedJPEG[:len(truncatedJPEG)/2]
	for _, tc := range []struct {
		name string
		path string
		want []string
	}{
		{"prog", writeFile(t, "prog", []byte("\x7fELF\x02\x01\x01\x00\x00\x00")), []string{"binary file (a program)", "images", "PDFs", "text"}},
		{"data.bin", writeFile(t, "data.bin", []byte("abc\x00def")), []string{"binary file (it holds NUL bytes)"}},
		{"latin1.txt", writeFile(t, "latin1.txt", []byte("caf\xe9 au lait")), []string{"binary file (not UTF-8 text)"}},
		{"late.txt", writeFile(t, "late.txt", append(bytes.Repeat([]byte("a"), 1000), 0xff)), []string{"not UTF-8 text"}},
		{"u16.txt", writeFile(t, "u16.txt", []byte("\xff\xfeh\x00i\x00")), []string{"UTF-16 text: convert it to UTF-8"}},
		{filepath.Base(dir), dir, []string{"directory", "one by one"}},
		{"missing.png", filepath.Join(dir, "missing.png"), []string{"no such file"}},
		{"empty.md", writeFile(t, "empty.md", nil), []string{"empty"}},
		{"bom.md", writeFile(t, "bom.md", []byte("\xef\xbb\xbf")), []string{"empty"}},
		{"big.log", sparse("big.log", logLines, MaxTextBytes+1), []string{"text file of 524289 bytes is over the 524288-byte limit", "part"}},
		{"huge.log", sparse("huge.log", logLines, 10<<30), []string{"text file of 10.0 GB is over the 512 KB limit", "part"}},
		{"book.pdf", sparse("book.pdf", "%PDF-1.7\n", MaxPDFBytes+1<<20), []string{"PDF of 23 MB is over the 22 MB limit", "fewer pages"}},
		{"raw.png", sparse("raw.png", "\x89PNG\r\n\x1a\n", session.MaxImageBytes+1), []string{"image of 64.0 MB is over the 64 MB limit"}},
		{"bomb.png", writeFile(t, "bomb.png", append(pngHeader(10000, 5000), make([]byte, 100)...)), []string{"10000×5000 px is over the 40 megapixel limit", "scale it down"}},
		{"cut.jpg", writeFile(t, "cut.jpg", truncatedJPEG), []string{"damaged or unsupported JPEG image", "save it again"}},
		{"junk.png", writeFile(t, "junk.png", []byte("\x89PNG\r\n\x1a\nnot a chunk")), []string{"damaged or unsupported PNG image"}},
		{"nodata.png", writeFile(t, "nodata.png", pngHeader(100, 100)), []string{"damaged or unsupported PNG image"}},
		{"zero.png", writeFile(t, "zero.png", pngHeader(0, 10)), []string{"damaged or unsupported PNG image"}},
		{"zero.gif", writeFile(t, "zero.gif", []byte("GIF89a\x00\x00\x00\x00\x00\x00\x00\x3b")), []string{"the GIF image is empty (0×0 px)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Open(tc.path)
			if err == nil {
				t.Fatalf("attached %s (%s)", tc.name, Label(f))
			}
			refusal(t, err, tc.name, tc.want...)
			if msg := err.Error(); !strings.HasPrefix(msg, "cannot attach "+tc.name+": ") {
				t.Errorf("message %q", msg)
			}
		})
	}
}

// FromBytes refuses as Open does, and its error shows the name sanitized.
func TestFromBytesRefusals(t *testing.T) {
	_, err := FromBytes("evil\x1b]52;c;aGk=\x07.txt", nil)
	refusal(t, err, "evil\x1b]52;c;aGk=\x07.txt", "empty")
	if msg := err.Error(); msg != "cannot attach evil.txt: the file is empty" {
		t.Errorf("message %q", msg)
	}
	_, err = FromBytes("clip", append([]byte("\xff\xd8\xff"), make([]byte, 100)...))
	refusal(t, err, "clip", "damaged or unsupported JPEG image")
	_, err = FromBytes("big", bytes.Repeat([]byte("x"), MaxTextBytes+1))
	refusal(t, err, "big", "text file of 524289 bytes is over the 524288-byte limit")
}

// The label shows the name sanitized, on one line.
func TestLabelSanitizesName(t *testing.T) {
	f, err := FromBytes("a\x1b[2Jb\nc.md", []byte("x\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := Label(f); got != "ab c.md · 2 B · 1 line" {
		t.Errorf("label %q", got)
	}
	if f.Name != "a\x1b[2Jb\nc.md" {
		t.Errorf("name changed to %q", f.Name)
	}
}

func TestSizeText(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 B", 1023: "1023 B", 1024: "1 KB", 340 << 10: "340 KB", 1<<20 - 600: "1023 KB",
		1<<20 - 100: "1.0 MB", 1 << 20: "1 MB", 1258291: "1.2 MB", 5 << 20: "5 MB", 10 << 30: "10.0 GB",
	} {
		if got := sizeText(n); got != want {
			t.Errorf("sizeText(%d) = %q, want %q", n, got, want)
		}
	}
}

// A file of kind text read whole is validated whole: what its first bytes
// do not show is caught too.
func TestLooksLikeTextCutRune(t *testing.T) {
	if !looksLikeText([]byte("ab\xe2\x82")) {
		t.Error("a character cut at the end of the head is not text")
	}
	if looksLikeText([]byte("ab\xe2\x82x")) {
		t.Error("a broken character is text")
	}
}

// Images given as bytes (the clipboard, an image muse made) are prepared
// as files are.
func TestFromBytesImage(t *testing.T) {
	data := encodePNG(t, gradient(2000, 50), png.BestSpeed)
	f, err := FromBytes("clipboard.png", data)
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "clipboard.png" || f.MediaType != "image/png" || f.Width != 1568 || f.Height != 39 || f.Size != int64(len(data)) {
		t.Errorf("got %+v", f.Attachment)
	}
	decoded(t, f)
}
