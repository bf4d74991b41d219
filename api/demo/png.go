package demo

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"math"
	"strconv"
	"strings"
	"sync"
)

// imageSpec fully determines a generated image, so a URL can carry it and
// the image can be rendered again on demand.
type imageSpec struct {
	seed          uint64
	width, height int
	variant       int // 0 or 1: the second image of demo:two and demo:mixed
	watermark     bool
}

// key encodes the spec for an image URL.
func (s imageSpec) key() string {
	wm := 0
	if s.watermark {
		wm = 1
	}
	return fmt.Sprintf("%016x-%dx%d-%d-%d", s.seed, s.width, s.height, s.variant, wm)
}

// parseKey decodes a key made by imageSpec.key; it accepts nothing else.
func parseKey(k string) (imageSpec, bool) {
	parts := strings.Split(k, "-")
	if len(parts) != 4 {
		return imageSpec{}, false
	}
	var s imageSpec
	var err error
	if s.seed, err = strconv.ParseUint(parts[0], 16, 64); err != nil {
		return imageSpec{}, false
	}
	ws, hs, ok := strings.Cut(parts[1], "x")
	if !ok {
		return imageSpec{}, false
	}
	if s.width, err = strconv.Atoi(ws); err != nil {
		return imageSpec{}, false
	}
	if s.height, err = strconv.Atoi(hs); err != nil {
		return imageSpec{}, false
	}
	if s.variant, err = strconv.Atoi(parts[2]); err != nil {
		return imageSpec{}, false
	}
	s.watermark = parts[3] == "1"
	if s.width < 1 || s.height < 1 || s.width > maxImageSide || s.height > maxImageSide ||
		s.variant < 0 || s.variant > 1 || s.key() != k {
		return imageSpec{}, false
	}
	return s, true
}

// renderPNG draws the image of s: a two-colour diagonal gradient with a few
// translucent stripes and circles, all chosen by the seed.
func renderPNG(s imageSpec) ([]byte, error) {
	w, h := s.width, s.height
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	hue := float64(newRNG(s.seed).intn(360)) + 150*float64(s.variant)
	r := newRNG(s.seed + uint64(s.variant)*0x632be59bd9b4e019)
	c1, c2 := hsv(hue, 0.55, 0.95), hsv(hue+50, 0.7, 0.35)

	// The gradient runs along (gx, gy). A lookup table of its colours lets
	// each row be copied whole rather than computed pixel by pixel.
	gx, gy := r.between(0, 1), r.between(1, 3)
	span := gx*(w-1) + gy*(h-1)
	if span == 0 {
		span = 1
	}
	lut := make([]byte, 4*(span+1))
	for i := 0; i <= span; i++ {
		t := i * 256 / span
		copy(lut[4*i:], []byte{lerp(c1.R, c2.R, t), lerp(c1.G, c2.G, t), lerp(c1.B, c2.B, t), 255})
	}
	for y := 0; y < h; y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+4*w]
		at := 4 * gy * y
		if gx == 1 {
			copy(row, lut[at:at+4*w])
			continue
		}
		copy(row, lut[at:at+4])
		for n := 4; n < len(row); n *= 2 {
			copy(row[n:], row[:n])
		}
	}

	white := color.RGBA{255, 255, 255, 255}
	for n := r.between(2, 4); n > 0; n-- {
		if r.intn(2) == 0 {
			thick := max(1, h/24)
			y := r.intn(h)
			blendRect(img, image.Rect(0, y, w, y+thick), white, 48)
		} else {
			thick := max(1, w/24)
			x := r.intn(w)
			blendRect(img, image.Rect(x, 0, x+thick, h), white, 48)
		}
	}
	minSide := min(w, h)
	for n := r.between(3, 5); n > 0; n-- {
		cx, cy := r.intn(w), r.intn(h)
		rad := max(1, r.between(minSide/12, max(minSide/12, minSide/4)))
		col := hsv(hue+150+float64(r.intn(60)), 0.5, 0.95)
		blendCircle(img, cx, cy, rad, col, 150)
	}
	if s.watermark {
		mw, mh := max(1, w/6), max(1, h/20)
		blendRect(img, image.Rect(w-mw-w/40, h-mh-h/40, w-w/40, h-h/40), white, 180)
	}

	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// lerp mixes a and b by t/256.
func lerp(a, b uint8, t int) uint8 {
	return uint8((int(a)*(256-t) + int(b)*t) >> 8)
}

// blendRect mixes c over the part of rect inside img, with alpha out of 256.
func blendRect(img *image.RGBA, rect image.Rectangle, c color.RGBA, alpha int) {
	rect = rect.Intersect(img.Rect)
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		for x := rect.Min.X; x < rect.Max.X; x++ {
			blend(img, x, y, c, alpha)
		}
	}
}

// blendCircle mixes c over the disc of radius rad around (cx, cy).
func blendCircle(img *image.RGBA, cx, cy, rad int, c color.RGBA, alpha int) {
	box := image.Rect(cx-rad, cy-rad, cx+rad+1, cy+rad+1).Intersect(img.Rect)
	for y := box.Min.Y; y < box.Max.Y; y++ {
		dy := y - cy
		for x := box.Min.X; x < box.Max.X; x++ {
			dx := x - cx
			if dx*dx+dy*dy <= rad*rad {
				blend(img, x, y, c, alpha)
			}
		}
	}
}

func blend(img *image.RGBA, x, y int, c color.RGBA, alpha int) {
	i := img.PixOffset(x, y)
	p := img.Pix[i : i+3 : i+3]
	p[0] = lerp(p[0], c.R, alpha)
	p[1] = lerp(p[1], c.G, alpha)
	p[2] = lerp(p[2], c.B, alpha)
}

// hsv converts a hue in degrees, saturation and value in [0, 1] to a colour.
func hsv(h, s, v float64) color.RGBA {
	h = math.Mod(h, 360)
	if h < 0 {
		h += 360
	}
	c := v * s
	x := c * (1 - math.Abs(math.Mod(h/60, 2)-1))
	m := v - c
	var r, g, b float64
	switch {
	case h < 60:
		r, g, b = c, x, 0
	case h < 120:
		r, g, b = x, c, 0
	case h < 180:
		r, g, b = 0, c, x
	case h < 240:
		r, g, b = 0, x, c
	case h < 300:
		r, g, b = x, 0, c
	default:
		r, g, b = c, 0, x
	}
	u := func(f float64) uint8 { return uint8(math.Round((f + m) * 255)) }
	return color.RGBA{u(r), u(g), u(b), 255}
}

// hugeSide is the width and height the demo:huge PNG declares.
const hugeSide = 100000

// hugePNG is a tiny, well-formed-looking PNG whose IHDR declares
// 100000×100000 pixels: a decompression-bomb stand-in that must be refused
// from its header alone. Its image data is far too short to decode.
var hugePNG = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], hugeSide)
	binary.BigEndian.PutUint32(ihdr[4:], hugeSide)
	ihdr[8] = 8 // bit depth
	ihdr[9] = 2 // truecolour; compression, filter and interlace stay 0
	writeChunk(&b, "IHDR", ihdr)
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	_, _ = zw.Write(make([]byte, 16))
	_ = zw.Close()
	writeChunk(&b, "IDAT", z.Bytes())
	writeChunk(&b, "IEND", nil)
	return b.Bytes()
})

// writeChunk appends a PNG chunk with its length and CRC.
func writeChunk(b *bytes.Buffer, typ string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	b.Write(n[:])
	crc := crc32.NewIEEE()
	_, _ = crc.Write([]byte(typ))
	_, _ = crc.Write(data)
	b.WriteString(typ)
	b.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	b.Write(n[:])
}
