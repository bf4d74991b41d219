package attach

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"strconv"
	"strings"
	"testing"

	"muse/session"
	"muse/ui/internal/streamtest"
)

// A large JPEG is scaled down, keeping its aspect ratio, to a JPEG whose
// longest side is MaxSentSide, and says so.
func TestScaleJPEG(t *testing.T) {
	for _, tc := range []struct {
		w, h, wantW, wantH int
	}{
		{3000, 40, 1568, 21}, // thin: the tests stay fast under the race detector
		{30, 2400, 20, 1568},
		{1569, 30, 1568, 30},
	} {
		src := gradient(tc.w, tc.h)
		data := encodeJPEG(t, src, 80)
		f, err := FromBytes("photo.jpg", data)
		if err != nil {
			t.Fatal(err)
		}
		if f.MediaType != "image/jpeg" || f.Width != tc.wantW || f.Height != tc.wantH || f.Size != int64(len(data)) {
			t.Errorf("%d×%d: got %s %d×%d, Size %d", tc.w, tc.h, f.MediaType, f.Width, f.Height, f.Size)
		}
		if want := "scaled from " + strconv.Itoa(tc.w) + "×" + strconv.Itoa(tc.h) + " to " + strconv.Itoa(tc.wantW) + "×" + strconv.Itoa(tc.wantH) + ", sent as JPEG"; f.Note != want {
			t.Errorf("note %q, want %q", f.Note, want)
		}
		if f.Bytes > MaxSentImageBytes {
			t.Errorf("sent %d bytes", f.Bytes)
		}
		img := decoded(t, f)
		// The colours are where they were: the corners of the gradient.
		for _, p := range []image.Point{{0, 0}, {tc.wantW - 1, tc.wantH - 1}} {
			sx, sy := p.X*tc.w/tc.wantW, p.Y*tc.h/tc.wantH
			if !near(img.At(p.X, p.Y), src.At(sx, sy), 12) {
				t.Errorf("%d×%d: pixel %v is %v, source %v", tc.w, tc.h, p, img.At(p.X, p.Y), src.At(sx, sy))
			}
		}
	}
}

// An image within MaxSentSide a side but over MaxSentPixels, which the
// service would scale down itself, is scaled to fit it; one within both
// is sent byte for byte.
func TestScaleToMegapixels(t *testing.T) {
	data := encodeJPEG(t, gradient(1400, 1000), 80)
	f, err := FromBytes("screen.jpg", data)
	if err != nil {
		t.Fatal(err)
	}
	if f.Width != 1268 || f.Height != 906 || f.Note != "scaled from 1400×1000 to 1268×906, sent as JPEG" {
		t.Errorf("got %d×%d, note %q", f.Width, f.Height, f.Note)
	}
	if px := f.Width * f.Height; px > MaxSentPixels {
		t.Errorf("sent %d pixels", px)
	}
	data = encodeJPEG(t, gradient(1072, 1072), 80)
	if f, err = FromBytes("square.jpg", data); err != nil || !bytes.Equal(f.Data, data) || f.Note != "" {
		t.Errorf("a 1072×1072 image, within both limits: %v, note %q, sent as it is %v", err, f.Note, bytes.Equal(f.Data, data))
	}
}

// near reports whether the colours a and b differ by at most d in each
// channel of 8 bits.
func near(a, b color.Color, d int) bool {
	ar, ag, ab, aa := a.RGBA()
	br, bg, bb, ba := b.RGBA()
	for _, p := range [][2]uint32{{ar, br}, {ag, bg}, {ab, bb}, {aa, ba}} {
		if diff := int(p[0]>>8) - int(p[1]>>8); diff > d || diff < -d {
			return false
		}
	}
	return true
}

// A gray JPEG stays gray.
func TestScaleGrayJPEG(t *testing.T) {
	g := image.NewGray(image.Rect(0, 0, 2000, 20))
	for i := range g.Pix {
		g.Pix[i] = uint8(i % 2000 / 8)
	}
	f, err := FromBytes("scan.jpg", encodeJPEG(t, g, 90))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := decoded(t, f).(*image.Gray); !ok || f.Width != 1568 || f.Height != 16 {
		t.Errorf("got %T %d×%d", decoded(t, f), f.Width, f.Height)
	}
}

// A large PNG stays a PNG, and keeps its transparency: averaging
// transparent pixels with opaque ones does not darken the colour.
func TestScalePNGKeepsAlpha(t *testing.T) {
	m := image.NewNRGBA(image.Rect(0, 0, 3200, 40))
	for y := range 40 {
		for x := range 3200 {
			if x <= 1600 { // left: opaque red; right: transparent black
				m.SetNRGBA(x, y, color.NRGBA{255, 0, 0, 255})
			}
		}
	}
	f, err := FromBytes("logo.png", encodePNG(t, m, png.BestSpeed))
	if err != nil {
		t.Fatal(err)
	}
	if f.MediaType != "image/png" || f.Width != 1568 || f.Height != 20 || f.Note != "scaled from 3200×40 to 1568×20, sent as PNG" {
		t.Fatalf("got %+v", f.Attachment)
	}
	img := decoded(t, f)
	if c := color.NRGBAModel.Convert(img.At(10, 2)).(color.NRGBA); c != (color.NRGBA{255, 0, 0, 255}) {
		t.Errorf("opaque side %v", c)
	}
	if _, _, _, a := img.At(1500, 2).RGBA(); a != 0 {
		t.Errorf("transparent side has alpha %d", a)
	}
	// Pixel 784 covers source pixels 1600 to 1602.04, the first red: it is
	// half transparent, and red.
	if c := color.NRGBAModel.Convert(img.At(784, 2)).(color.NRGBA); c.R != 255 || c.G != 0 || c.A < 100 || c.A > 155 {
		t.Errorf("edge pixel %v", c)
	}
}

// An image within the side limit but over the byte limit is encoded again;
// a PNG still too large is sent as a JPEG on white. (The limit is lowered:
// a PNG over 5 MB takes seconds to make under the race detector.)
func TestFlattenOnWhite(t *testing.T) {
	// Opaque noise, which no PNG shrinks, with a few transparent pixels
	// and a transparent corner.
	m := image.NewNRGBA(image.Rect(0, 0, 100, 100))
	rnd := xorshift(3)
	for i := 0; i < len(m.Pix); i += 4 {
		r := rnd()
		m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = uint8(r), uint8(r>>8), uint8(r>>16), 255
		if r>>24&15 == 0 {
			m.Pix[i+3] = 0
		}
	}
	for y := range 20 {
		for x := range 20 {
			m.SetNRGBA(x, y, color.NRGBA{})
		}
	}
	const limit = 20 << 10
	f, err := prepareImage("noise.png", encodePNG(t, m, png.NoCompression), "image/png", limit, MaxSentSide, MaxSentPixels)
	if err != nil {
		t.Fatal(err)
	}
	if f.MediaType != "image/jpeg" || f.Width != 100 || f.Height != 100 || f.Bytes > limit {
		t.Fatalf("got %+v", f.Attachment)
	}
	if want := "encoded again to fit 20 KB, sent as JPEG on white (as a PNG it was over 20 KB)"; f.Note != want {
		t.Errorf("note %q, want %q", f.Note, want)
	}
	if c := decoded(t, f).At(5, 5); !near(c, color.White, 3) {
		t.Errorf("transparent corner is %v, want white", c)
	}
}

// A PNG within the side limit made large by its metadata is encoded again,
// as a PNG, without it.
func TestEncodeAgainToFit(t *testing.T) {
	small := encodePNG(t, gradient(64, 64), png.BestSpeed)
	chunk := append([]byte("zzZz"), make([]byte, MaxSentImageBytes)...)
	var big []byte
	big = append(big, small[:33]...) // signature and header
	big = binary.BigEndian.AppendUint32(big, uint32(len(chunk)-4))
	big = append(big, chunk...)
	big = binary.BigEndian.AppendUint32(big, crc32.ChecksumIEEE(chunk))
	big = append(big, small[33:]...)
	f, err := FromBytes("meta.png", big)
	if err != nil {
		t.Fatal(err)
	}
	if f.MediaType != "image/png" || f.Width != 64 || f.Size != int64(len(big)) || f.Bytes > 64<<10 ||
		f.Note != "encoded again to fit 3.8 MB, sent as PNG" {
		t.Errorf("got %+v", f.Attachment)
	}
	decoded(t, f)
}

// An animated GIF that must be scaled keeps its first frame, and says so;
// a still one does not say it.
func TestAnimatedGIF(t *testing.T) {
	palette := color.Palette{color.RGBA{255, 0, 0, 255}, color.RGBA{0, 0, 255, 255}, color.RGBA{}}
	frame := func(c uint8) *image.Paletted {
		p := image.NewPaletted(image.Rect(0, 0, 2000, 20), palette)
		for i := range p.Pix {
			p.Pix[i] = c
		}
		return p
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, &gif.GIF{Image: []*image.Paletted{frame(0), frame(1), frame(2)}, Delay: []int{10, 10, 10}}); err != nil {
		t.Fatal(err)
	}
	if n := gifFrames(buf.Bytes()); n != 3 {
		t.Errorf("counted %d frames, want 3", n)
	}
	f, err := FromBytes("anim.gif", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if f.MediaType != "image/png" || f.Note != "first frame of an animated GIF, scaled from 2000×20 to 1568×16, sent as PNG" {
		t.Errorf("got %+v", f.Attachment)
	}
	if c := decoded(t, f).At(700, 8); !near(c, color.RGBA{255, 0, 0, 255}, 0) {
		t.Errorf("pixel %v, want the first frame's red", c)
	}

	buf.Reset()
	if err := gif.Encode(&buf, frame(1), nil); err != nil {
		t.Fatal(err)
	}
	f, err = FromBytes("still.gif", buf.Bytes())
	if err != nil || f.Note != "scaled from 2000×20 to 1568×16, sent as PNG" {
		t.Errorf("got %+v, %v", f.Attachment, err)
	}
	if c := decoded(t, f).At(700, 8); !near(c, color.RGBA{0, 0, 255, 255}, 0) {
		t.Errorf("pixel %v, want blue", c)
	}
}

// gifFrames stops at damage, and at the end of the data.
func TestGIFFramesDamaged(t *testing.T) {
	for data, want := range map[string]int{
		"GIF89a":                                 0,
		"GIF89a\x01\x00\x01\x00\x00\x00\x00\x2c": 1,
		"GIF89a\x01\x00\x01\x00\x00\x00\x00\x21\xf9\x04\x00\x00\x00\x00\x00\x99": 0,
	} {
		if got := gifFrames([]byte(data)); got != want {
			t.Errorf("gifFrames(%q) = %d, want %d", data, got, want)
		}
	}
}

// A large lossless WebP is scaled down to a PNG.
func TestScaleWebP(t *testing.T) {
	data := losslessWebP(t, twoTone(1600, 40, color.NRGBA{255, 255, 255, 255}, color.NRGBA{0, 0, 0, 255}))
	f, err := FromBytes("big.webp", data)
	if err != nil {
		t.Fatal(err)
	}
	if f.MediaType != "image/png" || f.Width != 1568 || f.Height != 39 || f.Note != "scaled from 1600×40 to 1568×39, sent as PNG" {
		t.Errorf("got %+v", f.Attachment)
	}
	decoded(t, f)
}

// A WebP photo decodes to YCbCr, which is scaled as such and written as a
// PNG through RGBA.
func TestEncodeYCbCrAsPNG(t *testing.T) {
	out, mediaType, flattened, err := encode(noisyYCbCr(64, 48, 10), false, MaxSentImageBytes)
	if err != nil || mediaType != "image/png" || flattened {
		t.Fatalf("%s %v %v", mediaType, flattened, err)
	}
	img, err := png.Decode(bytes.NewReader(out))
	if err != nil || img.Bounds().Dx() != 64 {
		t.Fatalf("%v %v", img.Bounds(), err)
	}
}

// An image is scaled to fit both of what the service uses: at most
// MaxSentSide pixels a side and MaxSentPixels pixels (a 3:2 photo went
// out as 1568×1045, 1.6 megapixels, 40% more than the service keeps),
// keeping its aspect ratio; one within both keeps its size.
func TestFit(t *testing.T) {
	for _, tc := range [][4]int{
		{6000, 4000, 1313, 875}, {4000, 6000, 875, 1313}, {1568, 1568, 1072, 1072},
		{1092, 1092, 1072, 1072}, {1072, 1072, 1072, 1072}, {4032, 3024, 1237, 928},
		{1920, 1080, 1429, 804}, {3000, 1500, 1516, 758}, {1568, 700, 1568, 700},
		{100, 50, 100, 50}, {40_000_000, 1, 1568, 1}, {1, 10000, 1, 1568},
		{16384, 400, 1568, 38}, {7, 16384, 1, 1568},
	} {
		w, h := fit(tc[0], tc[1], MaxSentSide, MaxSentPixels)
		if w != tc[2] || h != tc[3] {
			t.Errorf("fit(%d, %d) = %d×%d, want %d×%d", tc[0], tc[1], w, h, tc[2], tc[3])
		}
		if w > MaxSentSide || h > MaxSentSide || w*h > MaxSentPixels {
			t.Errorf("fit(%d, %d) = %d×%d: over the limits", tc[0], tc[1], w, h)
		}
	}
	// Without a limit on pixels (a page's images, a request's many), only
	// the side counts.
	if w, h := fit(6000, 4000, 2000, 0); w != 2000 || h != 1333 {
		t.Errorf("fit(6000, 4000, 2000, 0) = %d×%d", w, h)
	}
	// Every size from 1 to 3000 a side fits both, and loses at most a
	// pixel a side more than the limits need.
	for w := 1; w <= 3000; w += 7 {
		for h := 1; h <= 3000; h += 11 {
			fw, fh := fit(w, h, MaxSentSide, MaxSentPixels)
			if fw > MaxSentSide || fh > MaxSentSide || fw*fh > MaxSentPixels || fw < 1 || fh < 1 || fw > w || fh > h {
				t.Fatalf("fit(%d, %d) = %d×%d", w, h, fw, fh)
			}
			if long := max(fw, fh); long < max(w, h) && long < MaxSentSide && (long+2)*(min(fw, fh)+1) <= MaxSentPixels {
				t.Fatalf("fit(%d, %d) = %d×%d: smaller than it needs to be", w, h, fw, fh)
			}
		}
	}
}

// Preparing an attachment costs in proportion to its size: four times the
// text, or the pixels, allocates at most about four times as much.
func TestPrepareCostIsLinear(t *testing.T) {
	text := func(n int) []byte { return bytes.Repeat([]byte("a line of text\n"), n/15) }
	t1, t4 := text(100<<10), text(400<<10)
	a := streamtest.Allocated(func() { FromBytes("a.txt", t1) })
	b := streamtest.Allocated(func() { FromBytes("b.txt", t4) })
	if b > 4*a+4096 {
		t.Errorf("text: 4× the bytes allocated %d, against %d", b, a)
	}
	j1, j4 := encodeJPEG(t, noisyYCbCr(1600, 150, 8), 80), encodeJPEG(t, noisyYCbCr(3200, 300, 8), 80)
	a = streamtest.Allocated(func() { FromBytes("a.jpg", j1) })
	b = streamtest.Allocated(func() { FromBytes("b.jpg", j4) })
	if b > 4*a {
		t.Errorf("JPEG: 4× the pixels allocated %d, against %d", b, a)
	}
}

// Open reads a file into one buffer of its size: no growing and copying.
func TestOpenReadsOnce(t *testing.T) {
	data := append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte("stream data "), 1<<18)...)
	path := writeFile(t, "doc.pdf", data)
	var f session.File
	n := streamtest.Allocated(func() {
		var err error
		if f, err = Open(path); err != nil {
			t.Fatal(err)
		}
	})
	if !bytes.Equal(f.Data, data) {
		t.Fatal("PDF changed")
	}
	if n > uint64(len(data))+64<<10 {
		t.Errorf("reading %d bytes allocated %d", len(data), n)
	}
}

// A small PNG of 16 bits a channel can ask for hundreds of megabytes
// decoded: refused from its header, before any is taken.
func TestDeepImageTooLargeToDecodeIsRefused(t *testing.T) {
	var b bytes.Buffer
	png.Encode(&b, image.NewNRGBA64(image.Rect(0, 0, 1, 1)))
	data := b.Bytes()
	// The header says 6300×6300 (IHDR's width and height, and its CRC).
	binary.BigEndian.PutUint32(data[16:], 6300)
	binary.BigEndian.PutUint32(data[20:], 6300)
	binary.BigEndian.PutUint32(data[29:], crc32.ChecksumIEEE(data[12:29]))
	_, err := FromBytes("deep.png", data)
	var refused *RefusedError
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "to decode") {
		t.Errorf("err %v", err)
	}
}

// The memory a JPEG takes to decode is told from its frame header: a
// progressive one of 6300×6300 px with full-size colour planes (which took
// 620 MB) is refused before it is decoded, a baseline 4:2:0 one of the
// same size is not.
func TestJPEGDecodeCost(t *testing.T) {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, image.NewYCbCr(image.Rect(0, 0, 16, 16), image.YCbCrSubsampleRatio420), nil); err != nil {
		t.Fatal(err)
	}
	// sof patches the frame header of data: marker, size, and sampling
	// of every plane.
	sof := func(marker byte, sampling byte) []byte {
		data := bytes.Clone(buf.Bytes())
		i := bytes.Index(data, []byte{0xFF, 0xC0})
		data[i+1] = marker
		seg := data[i+4:]
		seg[1], seg[2], seg[3], seg[4] = 0x18, 0x9C, 0x18, 0x9C // 6300×6300
		for c := range int(seg[5]) {
			seg[6+3*c+1] = sampling
		}
		if marker == 0xC0 {
			seg[6+1] = 0x22 // 4:2:0: the first plane full, the others a quarter
		}
		return data
	}
	cfg := image.Config{Width: 6300, Height: 6300, ColorModel: color.YCbCrModel}
	if got := session.DecodeCost("image/jpeg", sof(0xC2, 0x11), cfg); got <= session.MaxDecodedBytes {
		t.Errorf("progressive 4:4:4: %d MB, want over %d", got>>20, session.MaxDecodedBytes>>20)
	}
	if got := session.DecodeCost("image/jpeg", sof(0xC0, 0x11), cfg); got > session.MaxDecodedBytes || got < 6300*6300*3/2 {
		t.Errorf("baseline 4:2:0: %d MB", got>>20)
	}
	_, err := prepareImage("p.jpg", sof(0xC2, 0x11), "image/jpeg", 5<<20, MaxSentSide, MaxSentPixels)
	if err == nil || !strings.Contains(err.Error(), "needs") || !strings.Contains(err.Error(), "MB to decode") {
		t.Errorf("progressive 4:4:4 was not refused for its memory: %v", err)
	}
	// A junk byte before the frame header, which Go's decoder skips, is
	// skipped here too.
	junk := sof(0xC2, 0x11)
	i := bytes.Index(junk, []byte{0xFF, 0xC2})
	junk = append(junk[:i:i], append([]byte{0x00}, junk[i:]...)...)
	if _, err := prepareImage("j.jpg", junk, "image/jpeg", 5<<20, MaxSentSide, MaxSentPixels); err == nil || !strings.Contains(err.Error(), "MB to decode") {
		t.Errorf("a junk byte let a progressive 4:4:4 through: %v", err)
	}
}
