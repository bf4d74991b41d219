package preview

import (
	"image"
	"image/color"
	"strings"
	"testing"

	"github.com/muesli/termenv"
)

// quad is a 2×2 image, each pixel 4×4 (so that Fit, which draws a small
// image at about twice its size, gives it a cell a pixel): red, green over
// blue, white.
func quad() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	img.Set(1, 0, color.RGBA{0, 255, 0, 255})
	img.Set(0, 1, color.RGBA{0, 0, 255, 255})
	img.Set(1, 1, color.RGBA{255, 255, 255, 255})
	return blowUp(img, 4)
}

// blowUp draws each pixel of img as an n×n square.
func blowUp(img *image.RGBA, n int) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx()*n, b.Dy()*n))
	for y := range out.Bounds().Dy() {
		for x := range out.Bounds().Dx() {
			out.Set(x, y, img.At(x/n, y/n))
		}
	}
	return out
}

func TestHalfBlocksExact(t *testing.T) {
	want := "\x1b[38;2;255;0;0;48;2;0;0;255m▀\x1b[38;2;0;255;0;48;2;255;255;255m▀\x1b[0m"
	if got := halfBlocksTrueColor(quad(), 40); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	want256 := "\x1b[38;5;196;48;5;21m▀\x1b[38;5;46;48;5;231m▀\x1b[0m"
	if got := halfBlocks256(quad(), 40); got != want256 {
		t.Errorf("256: got  %q\nwant %q", got, want256)
	}
}

func TestHalfBlocksRepeatsNoColour(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	for x := range 3 {
		img.Set(x, 0, color.RGBA{10, 20, 30, 255})
		img.Set(x, 1, color.RGBA{40, 50, 60, 255})
	}
	want := "\x1b[38;2;10;20;30;48;2;40;50;60m▀▀▀\x1b[0m"
	if got := halfBlocksTrueColor(blowUp(img, 4), 0); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestHalfBlocksWidthCap(t *testing.T) {
	img := gradient(400, 100)
	for name, out := range map[string]string{"24-bit": halfBlocksTrueColor(img, 40), "256": halfBlocks256(img, 40)} {
		lines := strings.Split(out, "\n")
		if len(lines) != 5 {
			t.Errorf("%s: %d rows, want 5", name, len(lines))
		}
		for i, l := range lines {
			if n := strings.Count(l, upperHalf); n != 40 {
				t.Errorf("%s: row %d has %d cells, want 40", name, i, n)
			}
			if !strings.HasSuffix(l, reset) {
				t.Errorf("%s: row %d does not end with a reset", name, i)
			}
		}
		checkOnlySGR(t, out)
	}
	// The default width, and a small image at about twice its size: 6
	// pixels are 12, two cells of 8.
	if n := strings.Count(strings.Split(halfBlocksTrueColor(img, 0), "\n")[0], upperHalf); n != defaultCols {
		t.Errorf("default width %d", n)
	}
	if n := strings.Count(halfBlocksTrueColor(gradient(6, 2), 40), upperHalf); n != 2 {
		t.Errorf("6×2 image drawn %d cells wide", n)
	}
}

func TestFit(t *testing.T) {
	for _, tc := range []struct{ w, h, max, cols, rows int }{
		{2, 2, 40, 1, 1},
		{64, 48, 40, 16, 6}, // an icon at about twice its size, not 40×15
		{160, 160, 40, 40, 20},
		{400, 100, 40, 40, 5},
		{1024, 1024, 40, 40, 20},
		{1024, 768, 0, 40, 15},
		{100, 8000, 40, 1, 40}, // a tall image is capped in height too
		{1, 1, 40, 1, 1},
		{0, 5, 40, 0, 0},
	} {
		if c, r := Fit(tc.w, tc.h, tc.max); c != tc.cols || r != tc.rows {
			t.Errorf("Fit(%d, %d, %d) = %d, %d, want %d, %d", tc.w, tc.h, tc.max, c, r, tc.cols, tc.rows)
		}
	}
}

func TestHalfBlocksFor(t *testing.T) {
	img := gradient(1024, 768)
	if got := HalfBlocksFor(img, 40, termenv.TrueColor); got != halfBlocksTrueColor(img, 40) {
		t.Error("true colour is not halfBlocksTrueColor")
	}
	if got := HalfBlocksFor(img, 40, termenv.ANSI256); got != halfBlocks256(img, 40) {
		t.Error("256 colours is not halfBlocks256")
	}
	for _, p := range []termenv.Profile{termenv.ANSI, termenv.Ascii} {
		if got := HalfBlocksFor(img, 40, p); got != "[image 1024×768]" {
			t.Errorf("profile %v: %q", p, got)
		}
	}
	if halfBlocksTrueColor(nil, 40) != "" || HalfBlocksFor(nil, 40, termenv.Ascii) != "" {
		t.Error("nil image drawn")
	}
}

func TestHalfBlocksImageTypes(t *testing.T) {
	// Every sampler gives the same colours for the same opaque picture.
	src := gradient(64, 32)
	b := src.Bounds()
	nrgba := image.NewNRGBA(b)
	gray := image.NewGray(b)
	generic := image.NewRGBA64(b)
	for y := range b.Dy() {
		for x := range b.Dx() {
			c := src.At(x, y)
			nrgba.Set(x, y, c)
			generic.Set(x, y, c)
		}
	}
	want := halfBlocksTrueColor(src, 16)
	for name, img := range map[string]image.Image{"NRGBA": nrgba, "RGBA64": generic} {
		if got := halfBlocksTrueColor(img, 16); got != want {
			t.Errorf("%s differs from RGBA", name)
		}
	}
	// A half-transparent white NRGBA pixel is drawn as mid grey (over black).
	half := image.NewNRGBA(image.Rect(0, 0, 1, 2))
	half.Set(0, 0, color.NRGBA{255, 255, 255, 128})
	half.Set(0, 1, color.NRGBA{255, 255, 255, 128})
	if got := halfBlocksTrueColor(half, 1); !strings.HasPrefix(got, "\x1b[38;2;128;128;128;48;2;128;128;128m") {
		t.Errorf("half transparent: %q", got)
	}
	// Grey and YCbCr images are drawn without error.
	ycc := image.NewYCbCr(b, image.YCbCrSubsampleRatio420)
	for _, img := range []image.Image{gray, ycc, image.NewPaletted(b, color.Palette{color.Black, color.White})} {
		out := halfBlocksTrueColor(img, 16)
		if strings.Count(out, upperHalf) != 16*4 {
			t.Errorf("%T: %d cells", img, strings.Count(out, upperHalf))
		}
		checkOnlySGR(t, out)
	}
}

func TestXterm256(t *testing.T) {
	for _, tc := range []struct {
		c    rgb
		want uint8
	}{
		{rgb{0, 0, 0}, 16}, {rgb{255, 255, 255}, 231}, {rgb{255, 0, 0}, 196},
		{rgb{128, 128, 128}, 244}, {rgb{95, 135, 175}, 67}, {rgb{8, 8, 8}, 232},
	} {
		if got := xterm256(tc.c); got != tc.want {
			t.Errorf("xterm256(%v) = %d, want %d", tc.c, got, tc.want)
		}
	}
}

func BenchmarkHalfBlocks1024(b *testing.B) {
	img := gradient(1024, 1024)
	b.ReportAllocs()
	for b.Loop() {
		halfBlocksTrueColor(img, 40)
	}
}

func BenchmarkHalfBlocks1024YCbCr(b *testing.B) {
	img := image.NewYCbCr(image.Rect(0, 0, 1024, 1024), image.YCbCrSubsampleRatio420)
	b.ReportAllocs()
	for b.Loop() {
		halfBlocksTrueColor(img, 40)
	}
}

// gradient is a w×h opaque RGBA image whose colour varies with x and y.
func gradient(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			i := img.PixOffset(x, y)
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(x*255/w), uint8(y*255/h), uint8((x+y)%256), 255
		}
	}
	return img
}

// checkOnlySGR fails when s holds a control character other than '\n' or an
// escape sequence other than SGR (ESC [ digits and semicolons m).
func checkOnlySGR(t *testing.T, s string) {
	t.Helper()
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 0x1b:
			if i+1 >= len(s) || s[i+1] != '[' {
				t.Fatalf("escape other than CSI at %d: %q", i, s[i:min(i+10, len(s))])
			}
			j := i + 2
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';') {
				j++
			}
			if j >= len(s) || s[j] != 'm' {
				t.Fatalf("CSI other than SGR at %d: %q", i, s[i:min(j+1, len(s))])
			}
			i = j
		case c == '\n':
		case c < 0x20 || c == 0x7f:
			t.Fatalf("control character %#x at %d", c, i)
		case c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] < 0xa0:
			t.Fatalf("C1 control at %d", i)
		}
	}
}
