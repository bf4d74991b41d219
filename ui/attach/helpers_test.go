package attach

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muse/session"
)

// gradient returns a w×h opaque RGBA image of smooth colours: it
// compresses well, so large fixtures stay small.
func gradient(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			i := m.PixOffset(x, y)
			m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = uint8(x*255/w), uint8(y*255/h), 128, 255
		}
	}
	return m
}

// encodeJPEG returns m as a JPEG of quality q.
func encodeJPEG(t testing.TB, m image.Image, q int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: q}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// encodePNG returns m as a PNG, compressed at level.
func encodePNG(t testing.TB, m image.Image, level png.CompressionLevel) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: level}).Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pngHeader returns the start of a PNG of w×h pixels: its signature and
// header chunk, which is all that png.DecodeConfig reads.
func pngHeader(w, h int) []byte {
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 6 // 8 bits, RGBA
	chunk := append([]byte("IHDR"), ihdr...)
	out := append([]byte("\x89PNG\r\n\x1a\n"), 0, 0, 0, 13)
	out = append(out, chunk...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(chunk))
}

// bitWriter writes bits least significant first, as VP8L reads them.
type bitWriter struct {
	out   []byte
	acc   uint64
	nbits uint
}

func (b *bitWriter) write(v uint32, n uint) {
	b.acc |= uint64(v) << b.nbits
	b.nbits += n
	for b.nbits >= 8 {
		b.out = append(b.out, byte(b.acc))
		b.acc >>= 8
		b.nbits -= 8
	}
}

func (b *bitWriter) bytes() []byte {
	if b.nbits > 0 {
		b.out = append(b.out, byte(b.acc))
	}
	return b.out
}

// losslessWebP encodes m as a lossless WebP with no transform: each
// channel with a simple prefix code, so each may take at most two values
// across the image. It is what the tests need of WebP, which neither the
// standard library nor golang.org/x/image encodes.
func losslessWebP(t testing.TB, m *image.NRGBA) []byte {
	t.Helper()
	w, h := m.Rect.Dx(), m.Rect.Dy()
	// The values of each channel, in the order VP8L reads them: green,
	// red, blue, alpha.
	order := [4]int{1, 0, 2, 3}
	var symbols [4][]uint8
	for c, ch := range order {
		for i := ch; i < len(m.Pix); i += 4 {
			if v := m.Pix[i]; !bytes.Contains(symbols[c], []byte{v}) {
				if len(symbols[c]) == 2 {
					t.Fatalf("channel %d takes more than two values", ch)
				}
				symbols[c] = append(symbols[c], v)
			}
		}
	}
	var b bitWriter
	b.write(0x2f, 8)
	b.write(uint32(w-1), 14)
	b.write(uint32(h-1), 14)
	b.write(1, 1) // alpha is used
	b.write(0, 3) // version
	b.write(0, 1) // no transform
	b.write(0, 1) // no colour cache
	b.write(0, 1) // no meta prefix codes
	for _, s := range symbols {
		b.write(1, 1) // simple code
		b.write(uint32(len(s)-1), 1)
		b.write(1, 1) // first symbol in 8 bits
		for _, v := range s {
			b.write(uint32(v), 8)
		}
	}
	b.write(1, 1) // distance code: simple, one symbol, 0
	b.write(0, 1)
	b.write(0, 1)
	b.write(0, 1)
	for i := 0; i < len(m.Pix); i += 4 {
		for c, ch := range order {
			if len(symbols[c]) == 2 {
				b.write(uint32(bytes.IndexByte(symbols[c], m.Pix[i+ch])), 1)
			}
		}
	}
	data := b.bytes()
	var out bytes.Buffer
	out.WriteString("RIFF")
	binary.Write(&out, binary.LittleEndian, uint32(4+8+len(data)+len(data)%2))
	out.WriteString("WEBPVP8L")
	binary.Write(&out, binary.LittleEndian, uint32(len(data)))
	out.Write(data)
	if len(data)%2 == 1 {
		out.WriteByte(0)
	}
	return out.Bytes()
}

// twoTone returns a w×h NRGBA image of pseudo-random pixels, each channel
// taking one of two values: a or b.
func twoTone(w, h int, a, b color.NRGBA) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	rnd := xorshift(7)
	for i := 0; i < len(m.Pix); i += 4 {
		r := rnd()
		pick := func(bit uint32, x, y uint8) uint8 {
			if r>>bit&1 == 0 {
				return x
			}
			return y
		}
		m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = pick(0, a.R, b.R), pick(1, a.G, b.G), pick(2, a.B, b.B), pick(3, a.A, b.A)
	}
	return m
}

// writeFile writes data to name in a new temporary directory and returns
// its path.
func writeFile(t testing.TB, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// refusal checks that err is a RefusedError for name whose reason holds
// each of want.
func refusal(t *testing.T, err error, name string, want ...string) {
	t.Helper()
	var re *RefusedError
	if !errors.As(err, &re) {
		t.Fatalf("error %v (%T) is not a RefusedError", err, err)
	}
	if re.Name != name {
		t.Errorf("refused name %q, want %q", re.Name, name)
	}
	for _, w := range want {
		if !strings.Contains(re.Reason, w) {
			t.Errorf("reason %q does not say %q", re.Reason, w)
		}
	}
}

// decoded decodes f's data, checking it is of f's media type and size.
func decoded(t *testing.T, f session.File) image.Image {
	t.Helper()
	img, err := decode(f.MediaType, f.Data)
	if err != nil {
		t.Fatalf("%s as sent does not decode as %s: %v", f.Name, f.MediaType, err)
	}
	if b := img.Bounds(); b.Dx() != f.Width || b.Dy() != f.Height {
		t.Fatalf("%s as sent is %v, its attachment says %d×%d", f.Name, b.Size(), f.Width, f.Height)
	}
	if f.Bytes != int64(len(f.Data)) {
		t.Fatalf("%s: Bytes %d, data %d", f.Name, f.Bytes, len(f.Data))
	}
	return img
}
