package imgscale

import (
	"bytes"
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"muse/ui/internal/streamtest"
)

// A WebP photo with transparency decodes to NYCbCrA, converted to
// premultiplied RGBA once.
func TestNYCbCrAToRGBA(t *testing.T) {
	m := image.NewNYCbCrA(image.Rect(0, 0, 4, 2), image.YCbCrSubsampleRatio420)
	for i := range m.Y {
		m.Y[i] = 255
	}
	for i := range m.Cb {
		m.Cb[i], m.Cr[i] = 128, 128
	}
	m.A[0], m.A[1] = 255, 128 // the rest transparent
	rgba := RGBA(m)
	for i, want := range []color.RGBA{{255, 255, 255, 255}, {128, 128, 128, 128}, {0, 0, 0, 0}} {
		if got := rgba.RGBAAt(i, 0); got != want {
			t.Errorf("pixel %d: %v, want %v", i, got, want)
		}
	}
}

// The box filter averages exactly: a constant plane stays constant at any
// ratio, halving averages pairs, and 3→2 weighs by coverage.
func TestBoxFilter(t *testing.T) {
	for _, sw := range []int{1, 3, 7, 100, 1569, 6000} {
		for _, dw := range []int{1, 2, 5, 99, 1568} {
			if dw > sw {
				continue
			}
			src := bytes.Repeat([]byte{201}, sw*3)
			dst := make([]byte, dw*2)
			scalePlane(src, sw, sw, 3, 1, dst, dw, dw, 2, nil)
			if bytes.Count(dst, []byte{201}) != len(dst) {
				t.Errorf("%d→%d: constant plane became %v", sw, dw, dst[:min(8, len(dst))])
			}
		}
	}
	dst := make([]byte, 2)
	scalePlane([]byte{10, 20, 100, 200}, 4, 4, 1, 1, dst, 2, 2, 1, nil)
	if dst[0] != 15 || dst[1] != 150 {
		t.Errorf("halving: %v", dst)
	}
	scalePlane([]byte{0, 90, 180}, 3, 3, 1, 1, dst, 2, 2, 1, nil)
	if dst[0] != 30 || dst[1] != 150 { // (0+90/2)/1.5, (90/2+180)/1.5
		t.Errorf("3→2: %v", dst)
	}
	// Four channels and two dimensions: 2×2 → 1×1.
	rgba := make([]byte, 4)
	scalePlane([]byte{0, 0, 0, 0, 40, 80, 120, 160, 4, 8, 12, 16, 100, 100, 100, 100}, 8, 2, 2, 4, rgba, 4, 1, 1, nil)
	if !bytes.Equal(rgba, []byte{36, 47, 58, 69}) {
		t.Errorf("2×2 RGBA: %v", rgba)
	}
}

// Scaling streams the source: what it allocates, besides the result, is a
// few rows and its weights, so a source four times larger, scaled to the
// same size, costs little more. A pass that kept an intermediate image as
// tall as the source (or redid work per pixel) would fail this.
func TestScaleCostDoesNotGrowWithSourceArea(t *testing.T) {
	small, large := noisy(1600, 200), noisy(3200, 400)
	a := streamtest.Allocated(func() { Scale(small, 1568, 196) })
	b := streamtest.Allocated(func() { Scale(large, 1568, 196) })
	if b > a+a/2 {
		t.Errorf("scaling 4× the pixels allocated %d bytes, against %d", b, a)
	}
}

// An NRGBA image is scaled premultiplied, and left as it was: a preview
// scales the same decoded image again at another size.
func TestScaleLeavesNRGBAUnchanged(t *testing.T) {
	m := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	copy(m.Pix, []byte{200, 100, 50, 255, 255, 255, 255, 0})
	before := bytes.Clone(m.Pix)
	out, ok := Scale(m, 1, 1).(*image.RGBA)
	if !ok {
		t.Fatalf("%T, want *image.RGBA", Scale(m, 1, 1))
	}
	if got, want := out.RGBAAt(0, 0), (color.RGBA{100, 50, 25, 128}); got != want {
		t.Errorf("scaled to %v, want %v (the transparent pixel counts as nothing)", got, want)
	}
	if !bytes.Equal(m.Pix, before) || !bytes.Equal(RGBA(m).Pix, []byte{200, 100, 50, 255, 0, 0, 0, 0}) || !bytes.Equal(m.Pix, before) {
		t.Errorf("the source changed: %v, was %v", m.Pix, before)
	}
}

// noisy is a w×h 4:2:0 image of noise.
func noisy(w, h int) *image.YCbCr {
	m := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	r := rand.New(rand.NewPCG(1, 2))
	for _, p := range [][]byte{m.Y, m.Cb, m.Cr} {
		for i := range p {
			p[i] = byte(r.Uint32())
		}
	}
	return m
}
