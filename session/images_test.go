package session

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"muse/api"
	"muse/session/internal/fileio"
)

const testSessionID = "20250301-090000-abcdef"

// testImage is a w×h gradient.
func testImage(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x * 7), uint8(y * 5), 99, 255})
		}
	}
	return img
}

func encodePNG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeJPEG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pngHeader returns a PNG signature and an IHDR chunk, with a correct CRC,
// declaring a w×h 8-bit RGBA image, and no image data.
func pngHeader(w, h uint32) []byte {
	var ihdr bytes.Buffer
	ihdr.WriteString("IHDR")
	binary.Write(&ihdr, binary.BigEndian, w)
	binary.Write(&ihdr, binary.BigEndian, h)
	ihdr.Write([]byte{8, 6, 0, 0, 0}) // depth 8, RGBA, deflate, no filter, no interlace
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	binary.Write(&b, binary.BigEndian, uint32(ihdr.Len()-4))
	b.Write(ihdr.Bytes())
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(ihdr.Bytes()))
	return b.Bytes()
}

func TestSaveImagePNGAndJPEG(t *testing.T) {
	s, _ := newTestStore(t)
	img := testImage(30, 20)
	for i, tc := range []struct {
		data   []byte
		format string
		ext    string
	}{
		{encodePNG(t, img), FormatPNG, "png"},
		{encodeJPEG(t, img), FormatJPEG, "jpg"},
	} {
		got, err := s.SaveImage(testSessionID, 3, i, tc.data)
		if err != nil {
			t.Fatal(err)
		}
		want := regexp.MustCompile(`^` + regexp.QuoteMeta(filepath.Join(filepath.Dir(s.Dir()), "images", testSessionID, "turn-3-image-"+string(rune('0'+i)))) + `-[0-9a-f]{12}\.` + tc.ext + `$`)
		if !want.MatchString(got.Path) || !filepath.IsAbs(got.Path) {
			t.Errorf("path = %s, want %s", got.Path, want)
		}
		if got.Format != tc.format || got.Width != 30 || got.Height != 20 {
			t.Errorf("saved %+v, want %s 30×20", got, tc.format)
		}
		data, err := os.ReadFile(got.Path)
		if err != nil || !bytes.Equal(data, tc.data) {
			t.Errorf("file content differs (err %v)", err)
		}
		assertMode(t, got.Path, fileio.FileMode)
		decoded, err := DecodeImage(got.Path, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if b := decoded.Bounds(); b.Dx() != 30 || b.Dy() != 20 {
			t.Errorf("decoded bounds %v", b)
		}
	}
	assertMode(t, s.ImageDir(testSessionID), fs0700)
	assertMode(t, filepath.Dir(s.ImageDir(testSessionID)), fs0700)
	entries, _ := os.ReadDir(s.ImageDir(testSessionID))
	if len(entries) != 2 {
		t.Errorf("%d files in the image directory, want 2 (no temporary file left)", len(entries))
	}
}

const fs0700 = fileio.DirMode | os.ModeDir

func assertMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode() != want {
		t.Errorf("%s: mode %v, want %v", path, fi.Mode(), want)
	}
}

// webpHeader returns the start of a lossless WebP file of w×h pixels: enough
// for its size to be read.
func webpHeader(w, h int) []byte {
	bits := uint32(w-1) | uint32(h-1)<<14 // alpha 0, version 0
	vp8l := []byte{0x2f, byte(bits), byte(bits >> 8), byte(bits >> 16), byte(bits >> 24), 0, 0, 0}
	var b bytes.Buffer
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(4+8+len(vp8l)))
	b.WriteString("WEBPVP8L")
	binary.Write(&b, binary.LittleEndian, uint32(len(vp8l)))
	b.Write(vp8l)
	return b.Bytes()
}

func TestSaveImageWebP(t *testing.T) {
	s, _ := newTestStore(t)
	got, err := s.SaveImage(testSessionID, 2, 1, webpHeader(100, 50))
	if err != nil {
		t.Fatal(err)
	}
	if got.Format != FormatWebP || got.Width != 100 || got.Height != 50 || !regexp.MustCompile(`^turn-2-image-1-[0-9a-f]{12}\.webp$`).MatchString(filepath.Base(got.Path)) {
		t.Errorf("saved %+v", got)
	}
	if _, err := s.SaveImage(testSessionID, 2, 1, webpHeader(9000, 10)); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("9000 px wide WebP: err = %v", err)
	}
}

// Two machines that continue one session generate images for the same
// turn and index: different images get different names, so a sync engine
// never sees one replace the other.
func TestSaveImageNamesNeverClash(t *testing.T) {
	s, _ := newTestStore(t)
	a, err := s.SaveImage(testSessionID, 1, 0, encodePNG(t, testImage(4, 4)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.SaveImage(testSessionID, 1, 0, encodePNG(t, testImage(8, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if a.Path == b.Path || !isImageName(filepath.Base(a.Path)) || !isImageName(filepath.Base(b.Path)) {
		t.Errorf("first %+v, second %+v", a, b)
	}
}

func TestSaveImageRefusesGarbage(t *testing.T) {
	s, _ := newTestStore(t)
	for _, data := range [][]byte{nil, []byte("GIF89a......"), []byte("<svg xmlns='http://www.w3.org/2000/svg'/>"), []byte("RIFF\x00\x00\x00\x00WAVE")} {
		_, err := s.SaveImage(testSessionID, 1, 0, data)
		if err == nil || !strings.Contains(err.Error(), "not a PNG, JPEG or WebP image") {
			t.Errorf("%q: err = %v", data, err)
		}
	}
	if _, err := os.Stat(s.ImageDir(testSessionID)); err == nil {
		t.Error("the image directory was made for nothing")
	}
	// A PNG signature with a broken header is refused too.
	if _, err := s.SaveImage(testSessionID, 1, 0, []byte("\x89PNG\r\n\x1a\ngarbage")); err == nil {
		t.Error("a damaged PNG was saved")
	}
}

func TestSaveImageRefusesHugeDimensions(t *testing.T) {
	s, _ := newTestStore(t)
	_, err := s.SaveImage(testSessionID, 1, 0, pngHeader(100000, 100000))
	want := "image of 100000×100000 px is too large (limit 8192 px a side, 40 megapixels)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want %q", err, want)
	}
	// Within the side limit but over the pixel limit.
	if _, err := s.SaveImage(testSessionID, 1, 0, pngHeader(8000, 8000)); err == nil {
		t.Error("64 megapixels accepted")
	}
	// The header is read correctly: a sane size passes the check and
	// fails only because there is no image data, which SaveImage does not read.
	if _, err := s.SaveImage(testSessionID, 1, 0, pngHeader(100, 100)); err != nil {
		t.Errorf("100×100 header refused: %v", err)
	}
}

func TestDecodeImageRechecksLimits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.png")
	if err := os.WriteFile(path, encodePNG(t, testImage(50, 10)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeImage(path, 40, 0); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("side limit: err = %v", err)
	}
	if _, err := DecodeImage(path, 0, 499); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("pixel limit: err = %v", err)
	}
	if _, err := DecodeImage(path, 50, 500); err != nil {
		t.Errorf("at the limits: %v", err)
	}
	if err := os.WriteFile(path, pngHeader(100000, 100000), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeImage(path, 0, 0); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("huge header: err = %v", err)
	}
}

func TestSaveImageInvalidIDAndNumbers(t *testing.T) {
	s, _ := newTestStore(t)
	data := encodePNG(t, testImage(2, 2))
	for _, id := range []string{"", "../x", "a/b", "..", "a.b"} {
		if _, err := s.SaveImage(id, 1, 0, data); !errors.Is(err, ErrNotFound) {
			t.Errorf("id %q: err = %v", id, err)
		}
		if s.ImageDir(id) != "" {
			t.Errorf("ImageDir(%q) = %q", id, s.ImageDir(id))
		}
	}
	if _, err := s.SaveImage(testSessionID, -1, 0, data); err == nil {
		t.Error("negative turn accepted")
	}
}

func TestSavedPathHasNoServerText(t *testing.T) {
	s, _ := newTestStore(t)
	// PNG text chunks and trailing bytes are server data: none of it may
	// reach the file name.
	data := append(encodePNG(t, testImage(3, 3)), []byte("../../evil.sh\x00name.png")...)
	got, err := s.SaveImage(testSessionID, 12, 7, data)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^turn-12-image-7-[0-9a-f]{12}\.png$`).MatchString(filepath.Base(got.Path)) {
		t.Errorf("file name %q", filepath.Base(got.Path))
	}
	if filepath.Dir(got.Path) != s.ImageDir(testSessionID) {
		t.Errorf("saved in %s", filepath.Dir(got.Path))
	}
}

func TestDeleteImages(t *testing.T) {
	s, _ := newTestStore(t)
	if err := s.DeleteImages(testSessionID); err != nil {
		t.Errorf("no directory: %v", err)
	}
	got, err := s.SaveImage(testSessionID, 1, 0, encodePNG(t, testImage(2, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteImages(testSessionID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(got.Path); err == nil {
		t.Error("image still there")
	}
	if err := s.DeleteImages("../.."); !errors.Is(err, ErrNotFound) {
		t.Errorf("invalid id: %v", err)
	}
}

func TestDecodeB64(t *testing.T) {
	raw := encodePNG(t, testImage(5, 5))
	std := base64.StdEncoding.EncodeToString(raw)
	var wrapped strings.Builder
	for i := 0; i < len(std); i += 76 {
		wrapped.WriteString(std[i:min(i+76, len(std))] + "\r\n")
	}
	for name, in := range map[string]string{
		"padded":   std,
		"unpadded": base64.RawStdEncoding.EncodeToString(raw),
		"url-safe": base64.URLEncoding.EncodeToString(raw),
		"data":     "data:image/png;base64," + std,
		"DATA":     "  DATA:image/png;BASE64," + std + "\n",
		"wrapped":  wrapped.String(),
	} {
		got, err := DecodeB64(in, MaxImageBytes)
		if err != nil || !bytes.Equal(got, raw) {
			t.Errorf("%s: err %v, equal %v", name, err, bytes.Equal(got, raw))
		}
	}
	for _, bad := range []string{"", "!!!!", "QUJD$", "data:image/png,rawbytes", "A"} {
		if _, err := DecodeB64(bad, MaxImageBytes); err == nil {
			t.Errorf("%q decoded", bad)
		}
	}
	if _, err := DecodeB64("****", MaxImageBytes); err == nil || err.Error() != "the image data is not valid base64" {
		t.Errorf("err = %v", err)
	}
	if _, err := DecodeB64(std, len(raw)); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	if _, err := DecodeB64(std, len(raw)-3); !errors.Is(err, api.ErrTooLarge) || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("over the limit: err = %v", err)
	}
	if got := tooLargeB64(MaxImageBytes).Error(); got != "the image data is larger than 64 MiB" {
		t.Errorf("limit message %q", got)
	}
}

func TestSaveImageIn(t *testing.T) {
	existing := t.TempDir()
	if err := os.Chmod(existing, 0o755); err != nil {
		t.Fatal(err)
	}
	data := encodeJPEG(t, testImage(9, 4))
	got, err := SaveImageIn(existing, "image-1", data)
	if err != nil {
		t.Fatal(err)
	}
	if got.Path != filepath.Join(existing, "image-1.jpg") || got.Format != FormatJPEG || got.Width != 9 || got.Height != 4 {
		t.Errorf("saved %+v", got)
	}
	assertMode(t, got.Path, fileio.FileMode)
	assertMode(t, existing, 0o755|os.ModeDir) // the user's directory is left alone

	fresh := filepath.Join(existing, "new", "sub")
	if _, err := SaveImageIn(fresh, "x", data); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(fresh)
	if err != nil || fi.Mode().Perm()&0o077 != 0 {
		t.Errorf("new directory: %v, %v", fi.Mode(), err)
	}

	for _, base := range []string{"", ".", "..", "../x", "a/b", `a\b`, "a\x00b"} {
		if _, err := SaveImageIn(existing, base, data); err == nil {
			t.Errorf("base %q accepted", base)
		}
	}
	if _, err := SaveImageIn(existing, "y", []byte("not an image")); err == nil {
		t.Error("garbage saved")
	}
}

// --out never replaces a file: the next free name is taken, one that
// cannot be read as "image 1 of 2".
func TestSaveImageInNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	png := encodePNG(t, testImage(4, 3))
	if err := os.WriteFile(filepath.Join(dir, "image-1.png"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := SaveImageIn(dir, "image-1", png)
	if err != nil {
		t.Fatal(err)
	}
	b, err := SaveImageIn(dir, "image-1", png)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(a.Path) != "image-1 (2).png" || filepath.Base(b.Path) != "image-1 (3).png" {
		t.Errorf("saved as %s and %s", a.Path, b.Path)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "image-1.png")); string(data) != "mine" {
		t.Error("an existing file was replaced")
	}
	if m, err := filepath.Glob(filepath.Join(dir, ".*.tmp")); err != nil || len(m) > 0 {
		t.Errorf("temporary files left: %v (%v)", m, err)
	}
}

func TestImageFormatReadsTheFile(t *testing.T) {
	dir := t.TempDir()
	png := filepath.Join(dir, "a.png")
	desktop := filepath.Join(dir, "evil.png") // the name says image, the bytes do not
	if err := os.WriteFile(png, []byte("\x89PNG\r\n\x1a\nrest"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(desktop, []byte("[Desktop Entry]\nExec=sh -c 'touch /tmp/pwned'\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if f, err := ImageFormat(png); err != nil || f != FormatPNG {
		t.Errorf("png: %q, %v", f, err)
	}
	if _, err := ImageFormat(desktop); err == nil || !strings.Contains(err.Error(), "not a PNG, JPEG or WebP image") {
		t.Errorf("a desktop file: %v", err)
	}
	if _, err := ImageFormat(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing file is an image")
	}
}
