package session

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// jpegFrame reads any bytes without a panic, and every prefix of a real
// JPEG's header.
func TestJPEGPlanesAnyBytes(t *testing.T) {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, image.NewGray(image.Rect(0, 0, 8, 8)), nil); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	for n := range len(data) {
		jpegFrame(data[:n])
	}
	for _, bad := range [][]byte{
		{0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x00},
		{0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x01, 0x08},
		{0xFF, 0xD8, 0xFF, 0xC2, 0x00, 0x08, 0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
		{0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x10, 0x00, 0x10, 0x01, 0x01, 0x00, 0x00},
	} {
		jpegFrame(bad)
	}
}

// deepPNG is the start of an interlaced PNG of w×h px and 16 bits a
// channel, RGBA: its header, and image data cut short. It decodes to 8
// bytes a pixel, twice over (its passes apart), and then 4 more.
func deepPNG(w, h int) []byte {
	chunk := func(out []byte, typ string, body []byte) []byte {
		out = binary.BigEndian.AppendUint32(out, uint32(len(body)))
		c := append([]byte(typ), body...)
		out = append(out, c...)
		return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(c))
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9], ihdr[12] = 16, 6, 1
	out := chunk([]byte("\x89PNG\r\n\x1a\n"), "IHDR", ihdr)
	return chunk(out, "IDAT", []byte{0x78, 0x01})
}

// A preview and an imported image are costed from the header before they
// are decoded, as an attachment is: an interlaced PNG of 16 bits a channel
// and 8000×5000 px, within the side and pixel limits, would take 800 MB.
// The refusal says so, and little is allocated.
func TestPreviewAndImportCostedFromHeader(t *testing.T) {
	data := deepPNG(8000, 5000)
	path := filepath.Join(t.TempDir(), "deep.png")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := DecodeImage(path, 0, 0)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "needs 763 MB to decode") {
		t.Errorf("DecodeImage: %v", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("refusing it allocated %d bytes", n)
	}
	if err := checkImage(data); err == nil || !strings.Contains(err.Error(), "needs 763 MB to decode") {
		t.Errorf("checkImage: %v", err)
	}
}

// sof is a JPEG start and a baseline frame header of w×h px with n planes
// of full size.
func sof(w, h, n int) []byte {
	seg := []byte{0xFF, 0xD8, 0xFF, 0xC0, 0, byte(8 + 3*n), 8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), byte(n)}
	for c := range n {
		seg = append(seg, byte(c+1), 0x11, 0)
	}
	return seg
}

// A CMYK JPEG (four planes) is costed with the RGBA copy scaling makes of
// it, which a YCbCr one, scaled in its own planes, does not need.
func TestJPEGCostCMYK(t *testing.T) {
	cfg := image.Config{Width: 4000, Height: 3000}
	const px = 4000 * 3000
	if got := DecodeCost("image/jpeg", sof(4000, 3000, 3), cfg); got != 3*px {
		t.Errorf("YCbCr 4:4:4: %d, want %d", got, 3*px)
	}
	if got := DecodeCost("image/jpeg", sof(4000, 3000, 4), cfg); got != 4*px+4*px {
		t.Errorf("CMYK: %d, want %d", got, 8*px)
	}
}
