package attach

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"testing"

	"muse/session"
	"muse/ui/internal/streamtest"
)

// pngOf returns a PNG of w×h pixels of colour type colour, bit depth
// depth and interlace method interlace whose image data is rows of raw
// filtered scanlines, which may be far fewer than the header says:
// png.DecodeConfig reads only the header, as muse's costing does.
func pngOf(w, h int, depth, colour, interlace byte, rows []byte) []byte {
	chunk := func(out []byte, typ string, body []byte) []byte {
		out = binary.BigEndian.AppendUint32(out, uint32(len(body)))
		c := append([]byte(typ), body...)
		out = append(out, c...)
		return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(c))
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9], ihdr[12] = depth, colour, interlace
	out := chunk([]byte("\x89PNG\r\n\x1a\n"), "IHDR", ihdr)
	if colour == 3 {
		out = chunk(out, "PLTE", []byte{0, 0, 0})
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(rows)
	zw.Close()
	out = chunk(out, "IDAT", z.Bytes())
	return chunk(out, "IEND", nil)
}

// A PNG of 40,000,000×1 px is within the 40-megapixel limit, and took 1 GB
// and seconds to attach before it went out as 1568×1; 1×40,000,000 took
// 342 MB. Both are refused from their header for their longest side,
// before a byte is decoded: what attaching them allocates is counted, and
// stays under 64 KiB, from FromBytes as the clipboard and standard input
// use it and from Open.
func TestLongSideRefusedBeforeDecoding(t *testing.T) {
	row := make([]byte, 1+3*4096) // the first scanline's first pixels
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"wide.png", pngOf(40_000_000, 1, 8, 2, 0, row)},
		{"tall.png", pngOf(1, 40_000_000, 8, 2, 0, bytes.Repeat([]byte{0, 0, 0, 0}, 4096))},
		{"rgba.png", pngOf(MaxSourceSide+1, 100, 8, 6, 0, row)},
	} {
		var err error
		n := streamtest.Allocated(func() { _, err = FromBytes(tc.name, tc.data) })
		refusal(t, err, tc.name, "px a side", "crop it or scale it down")
		if n > 64<<10 {
			t.Errorf("%s: refusing it allocated %d bytes", tc.name, n)
		}
		path := writeFile(t, tc.name, tc.data)
		n = streamtest.Allocated(func() { _, err = Open(path) })
		refusal(t, err, tc.name, "px a side")
		if n > uint64(len(tc.data))+64<<10 {
			t.Errorf("%s: opening it allocated %d bytes", tc.name, n)
		}
	}
}

// An image so long and thin that scaled to MaxSentSide it would be a
// sliver is refused, saying what it would become and what to do; one of
// exactly MaxAspect to 1 is scaled, and one within MaxSentSide is sent as
// it is, however thin.
func TestThinImageRefused(t *testing.T) {
	_, err := FromBytes("strip.png", encodePNG(t, gradient(3200, 20), png.BestSpeed))
	refusal(t, err, "strip.png", "3200×20 px is more than 100 times as long as it is wide", "1568×10", "crop it or cut it into parts")
	f, err := FromBytes("bar.png", encodePNG(t, gradient(2000, 20), png.BestSpeed))
	if err != nil || f.Width != 1568 || f.Height != 16 {
		t.Errorf("2000×20: %+v, %v", f.Attachment, err)
	}
	f, err = FromBytes("line.png", encodePNG(t, gradient(1500, 1), png.BestSpeed))
	if err != nil || f.Width != 1500 || f.Height != 1 || f.Note != "" {
		t.Errorf("1500×1: %+v, %v", f.Attachment, err)
	}
}

// The memory a PNG takes to decode is told from its header chunk: width,
// height, bit depth, colour type (a palette's 1 byte a pixel, 16 bits'
// 8 and the RGBA copy scaling makes) and interlacing (each pass decoded
// apart: twice the pixels).
func TestPNGCostFromHeader(t *testing.T) {
	const w, h, px = 1000, 500, 1000 * 500
	for _, tc := range []struct {
		name                     string
		depth, colour, interlace byte
		want                     int64
	}{
		{"RGBA", 8, 6, 0, px*4 + 2*(1+4000)},
		{"RGB", 8, 2, 0, px*4 + 2*(1+3000)},
		{"grey", 8, 0, 0, px*4 + 2*(1+1000)},
		{"grey 1 bit", 1, 0, 0, px*4 + 2*(1+125)},
		{"palette", 8, 3, 0, px*1 + px*4 + 2*(1+1000)},
		{"RGBA 16 bits", 16, 6, 0, px*8 + px*4 + 2*(1+8000)},
		{"RGBA interlaced", 8, 6, 1, 2*px*4 + 2*(1+4000)},
		{"RGB 16 bits interlaced", 16, 2, 1, 2*px*8 + px*4 + 2*(1+6000)},
	} {
		data := pngOf(w, h, tc.depth, tc.colour, tc.interlace, nil)
		cfg, err := png.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := session.DecodeCost("image/png", data, cfg); got != tc.want {
			t.Errorf("%s: cost %d, want %d", tc.name, got, tc.want)
		}
	}
	if got := session.DecodeCost("image/png", []byte("\x89PNG\r\n\x1a\n"), image.Config{Width: 1, Height: 1}); got <= session.MaxDecodedBytes {
		t.Errorf("a header cut short costs %d", got)
	}
}

// An interlaced PNG of 7000×5000 px, 140 MB decoded, takes twice that to
// decode, its passes apart: refused from its header, with what it needs,
// before it is decoded (the costing by colour model alone let it through).
func TestInterlacedPNGTooLargeToDecode(t *testing.T) {
	data := pngOf(7000, 5000, 8, 6, 1, make([]byte, 1+4*875))
	var err error
	n := streamtest.Allocated(func() { _, err = FromBytes("big.png", data) })
	refusal(t, err, "big.png", "needs 267 MB to decode")
	if n > 64<<10 {
		t.Errorf("refusing it allocated %d bytes", n)
	}
}

// vp8lHeader returns a lossless WebP of w×h px whose image data is cut
// short after its header, all that webp.DecodeConfig reads.
func vp8lHeader(w, h int) []byte {
	var b bitWriter
	b.write(0x2f, 8)
	b.write(uint32(w-1), 14)
	b.write(uint32(h-1), 14)
	b.write(1, 1) // alpha used
	b.write(0, 3) // version
	body := append(b.bytes(), make([]byte, 16)...)
	out := []byte("RIFF\x00\x00\x00\x00WEBPVP8L")
	out = binary.LittleEndian.AppendUint32(out, uint32(len(body)))
	out = append(out, body...)
	binary.LittleEndian.PutUint32(out[4:], uint32(len(out)-8))
	return out
}

// A lossless WebP decodes to 4 bytes a pixel and its transforms copy it:
// one of 10000×3000 px is refused from its header; the GIF and lossy WebP
// costs are those of their decoders.
func TestWebPAndGIFCostFromHeader(t *testing.T) {
	data := vp8lHeader(10000, 3000)
	_, err := FromBytes("big.webp", data)
	refusal(t, err, "big.webp", "needs 228 MB to decode")
	cfg := image.Config{Width: 1000, Height: 1000, ColorModel: color.NRGBAModel}
	if got := session.DecodeCost("image/webp", vp8lHeader(1000, 1000), cfg); got != 8_000_000 {
		t.Errorf("VP8L: %d", got)
	}
	if got := session.DecodeCost("image/gif", nil, cfg); got != 5_000_000 {
		t.Errorf("GIF: %d", got)
	}
}
