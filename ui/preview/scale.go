package preview

import (
	"image"
	"image/color"
)

// maxSamples bounds the source pixels averaged along each axis of one target
// pixel, so that the cost of a preview does not grow with the image.
const maxSamples = 12

// rgb is a pixel of a scaled image.
type rgb struct{ r, g, b uint8 }

// sampler returns the colour of the pixel at x, y of an image as 8-bit,
// alpha-premultiplied channels: a transparent pixel counts as black.
type sampler func(x, y int) (r, g, b uint32)

// newSampler returns a fast sampler for the common image types and a
// generic one for the others.
func newSampler(img image.Image) sampler {
	switch m := img.(type) {
	case *image.RGBA:
		return func(x, y int) (uint32, uint32, uint32) {
			i := m.PixOffset(x, y)
			p := m.Pix[i : i+3 : i+3]
			return uint32(p[0]), uint32(p[1]), uint32(p[2])
		}
	case *image.NRGBA:
		return func(x, y int) (uint32, uint32, uint32) {
			i := m.PixOffset(x, y)
			p := m.Pix[i : i+4 : i+4]
			a := uint32(p[3])
			return uint32(p[0]) * a / 255, uint32(p[1]) * a / 255, uint32(p[2]) * a / 255
		}
	case *image.YCbCr:
		return func(x, y int) (uint32, uint32, uint32) {
			yi, ci := m.YOffset(x, y), m.COffset(x, y)
			r, g, b := color.YCbCrToRGB(m.Y[yi], m.Cb[ci], m.Cr[ci])
			return uint32(r), uint32(g), uint32(b)
		}
	case *image.Gray:
		return func(x, y int) (uint32, uint32, uint32) {
			v := uint32(m.Pix[m.PixOffset(x, y)])
			return v, v, v
		}
	case *image.Paletted:
		pal := make([][3]uint32, len(m.Palette))
		for i, c := range m.Palette {
			r, g, b, _ := c.RGBA()
			pal[i] = [3]uint32{r >> 8, g >> 8, b >> 8}
		}
		return func(x, y int) (uint32, uint32, uint32) {
			i := int(m.Pix[m.PixOffset(x, y)])
			if i >= len(pal) {
				return 0, 0, 0
			}
			return pal[i][0], pal[i][1], pal[i][2]
		}
	}
	return func(x, y int) (uint32, uint32, uint32) {
		r, g, b, _ := img.At(x, y).RGBA()
		return r >> 8, g >> 8, b >> 8
	}
}

// scale shrinks img to w×h pixels with a box filter: each target pixel is
// the mean of the source pixels it covers, sampled at most maxSamples times
// along each axis. The result is row-major.
func scale(img image.Image, w, h int) []rgb {
	b := img.Bounds()
	xs := spans(b.Min.X, b.Dx(), w)
	ys := spans(b.Min.Y, b.Dy(), h)
	at := newSampler(img)
	out := make([]rgb, 0, w*h)
	for _, sy := range ys {
		for _, sx := range xs {
			var r, g, bl, n uint32
			for y := sy.lo; y < sy.hi; y += sy.step {
				for x := sx.lo; x < sx.hi; x += sx.step {
					pr, pg, pb := at(x, y)
					r, g, bl, n = r+pr, g+pg, bl+pb, n+1
				}
			}
			out = append(out, rgb{uint8((r + n/2) / n), uint8((g + n/2) / n), uint8((bl + n/2) / n)})
		}
	}
	return out
}

// span is the source range [lo, hi) of one target pixel along an axis, and
// the step its samples are taken at.
type span struct{ lo, hi, step int }

// spans divides the n source pixels from origin into parts equal ranges.
func spans(origin, n, parts int) []span {
	s := make([]span, parts)
	for i := range parts {
		lo, hi := i*n/parts, (i+1)*n/parts
		if hi <= lo {
			hi = lo + 1
		}
		hi = min(hi, n)
		lo = min(lo, hi-1)
		step := max(1, (hi-lo+maxSamples-1)/maxSamples)
		// Centre the samples in the range.
		off := ((hi - lo - 1) % step) / 2
		s[i] = span{origin + lo + off, origin + hi, step}
	}
	return s
}
