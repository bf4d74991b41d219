// Package imgscale scales images down: muse's one scaler, for the images
// it sends (ui/attach) and the previews it draws (ui/preview).
//
// It is a box filter, written here rather than taken from
// golang.org/x/image/draw. That package's scalers that average (BiLinear,
// CatmullRom) go through its generic per-pixel path for an *image.YCbCr,
// which a photo decodes to, and took 2.7 s and 3.9 s on this project's
// 2-core machine to bring a 6000×4000 photo down to 1568×1045; its
// ApproxBiLinear (0.2 s) reads four source pixels for each pixel it makes,
// so at a quarter of the size it skips most of them and aliases. This one
// averages the Y, Cb and Cr planes of a JPEG directly (and the bytes of an
// RGBA or gray image), row by row in fixed point, on every core, in about
// 40 ms there, and returns an *image.YCbCr, which image/jpeg encodes
// without a colour conversion.
package imgscale

import (
	"image"
	"image/draw"
	"runtime"
	"sync"
)

// Scale returns img scaled to w×h pixels with a box filter: each pixel of
// the result is the average of the source pixels it covers, weighted by
// how much of each it covers (scaled up, each is the source pixel it falls
// in, or a blend at an edge). A YCbCr image (a JPEG, a WebP photo) stays
// one, with its planes scaled apart and its colour subsampled 4:2:0; a
// gray one stays gray; any other is scaled as premultiplied RGBA, so that
// transparent pixels do not darken their neighbours. img is not changed.
// The work is linear in img's pixels, and the memory besides the result a
// row of accumulators per core (and, for a type other than these and
// (N)RGBA, one conversion of img to RGBA).
func Scale(img image.Image, w, h int) image.Image {
	switch src := img.(type) {
	case *image.YCbCr:
		dst := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
		sr := src.Rect
		scalePlane(src.Y[src.YOffset(sr.Min.X, sr.Min.Y):], src.YStride, sr.Dx(), sr.Dy(), 1,
			dst.Y, dst.YStride, w, h, nil)
		cw, ch := ChromaSize(sr, src.SubsampleRatio)
		c0 := src.COffset(sr.Min.X, sr.Min.Y)
		dcw, dch := ChromaSize(dst.Rect, dst.SubsampleRatio)
		scalePlane(src.Cb[c0:], src.CStride, cw, ch, 1, dst.Cb, dst.CStride, dcw, dch, nil)
		scalePlane(src.Cr[c0:], src.CStride, cw, ch, 1, dst.Cr, dst.CStride, dcw, dch, nil)
		return dst
	case *image.Gray:
		dst := image.NewGray(image.Rect(0, 0, w, h))
		scalePlane(src.Pix[src.PixOffset(src.Rect.Min.X, src.Rect.Min.Y):], src.Stride, src.Rect.Dx(), src.Rect.Dy(), 1,
			dst.Pix, dst.Stride, w, h, nil)
		return dst
	case *image.NRGBA: // premultiplied row by row as it is read, not in place
		dst := image.NewRGBA(image.Rect(0, 0, w, h))
		b := src.Rect
		scalePlane(src.Pix[src.PixOffset(b.Min.X, b.Min.Y):], src.Stride, b.Dx(), b.Dy(), 4, dst.Pix, dst.Stride, w, h, premultiplyRow)
		return dst
	}
	src := RGBA(img)
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	scalePlane(src.Pix, src.Stride, src.Rect.Dx(), src.Rect.Dy(), 4, dst.Pix, dst.Stride, w, h, nil)
	return dst
}

// ChromaSize returns the size of the chroma planes of a YCbCr image of
// rectangle r, whose corner is at the origin, as image.NewYCbCr makes them.
func ChromaSize(r image.Rectangle, ratio image.YCbCrSubsampleRatio) (int, int) {
	w, h := r.Dx(), r.Dy()
	switch ratio {
	case image.YCbCrSubsampleRatio422:
		return (w + 1) / 2, h
	case image.YCbCrSubsampleRatio420:
		return (w + 1) / 2, (h + 1) / 2
	case image.YCbCrSubsampleRatio440:
		return w, (h + 1) / 2
	case image.YCbCrSubsampleRatio411:
		return (w + 3) / 4, h
	case image.YCbCrSubsampleRatio410:
		return (w + 3) / 4, (h + 1) / 2
	}
	return w, h
}

// RGBA returns img as premultiplied RGBA with its corner at the origin:
// img itself when it is one, any other converted once (img is not
// changed).
func RGBA(img image.Image) *image.RGBA {
	b := img.Bounds()
	switch src := img.(type) {
	case *image.RGBA:
		if b.Min == (image.Point{}) {
			return src
		}
	case *image.NRGBA:
		dst := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
		for y := range b.Dy() {
			premultiplyRow(dst.Pix[y*dst.Stride:y*dst.Stride+4*b.Dx()], src.Pix[src.PixOffset(b.Min.X, b.Min.Y+y):][:4*b.Dx()])
		}
		return dst
	case *image.Paletted:
		return palettedToRGBA(src)
	case *image.NYCbCrA:
		dst := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
		draw.Draw(dst, dst.Rect, &src.YCbCr, b.Min, draw.Src)
		premultiply(dst.Pix, dst.Stride, b.Dx(), b.Dy(), src.A[src.AOffset(b.Min.X, b.Min.Y):], src.AStride, 1)
		return dst
	}
	dst := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(dst, dst.Rect, img, b.Min, draw.Src)
	return dst
}

// premultiply multiplies the colour of the w×h RGBA pixels of pix by the
// alpha of each, alpha[y*aStride+x*aStep], and writes that alpha into the
// pixel: alpha is the pixels' own (pix[3:], stride, 4) or a separate plane.
func premultiply(pix []byte, stride, w, h int, alpha []byte, aStride, aStep int) {
	for y := range h {
		row := pix[y*stride : y*stride+4*w]
		arow := alpha[y*aStride:]
		for x := range w {
			a := uint32(arow[x*aStep])
			p := row[4*x : 4*x+4 : 4*x+4]
			p[0] = uint8((uint32(p[0])*a + 127) / 255)
			p[1] = uint8((uint32(p[1])*a + 127) / 255)
			p[2] = uint8((uint32(p[2])*a + 127) / 255)
			p[3] = uint8(a)
		}
	}
}

// premultiplyRow writes to dst the NRGBA pixels of src, premultiplied.
func premultiplyRow(dst, src []byte) {
	for i := 0; i+3 < len(src); i += 4 {
		a := uint32(src[i+3])
		p, d := src[i:i+4:i+4], dst[i:i+4:i+4]
		d[0] = uint8((uint32(p[0])*a + 127) / 255)
		d[1] = uint8((uint32(p[1])*a + 127) / 255)
		d[2] = uint8((uint32(p[2])*a + 127) / 255)
		d[3] = uint8(a)
	}
}

// palettedToRGBA converts a paletted image (a GIF) to premultiplied RGBA
// through a table of its colours.
func palettedToRGBA(src *image.Paletted) *image.RGBA {
	var table [256][4]byte // colours past the palette stay transparent black
	for i, c := range src.Palette {
		r, g, b, a := c.RGBA()
		table[i] = [4]byte{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
	}
	b := src.Rect
	dst := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := range b.Dy() {
		srow := src.Pix[src.PixOffset(b.Min.X, b.Min.Y+y):][:b.Dx()]
		drow := dst.Pix[y*dst.Stride:]
		for x, i := range srow {
			copy(drow[4*x:4*x+4], table[i][:])
		}
	}
	return dst
}

// taps are the weights of a box filter from n source samples to m: output
// sample i is the sum over k of source sample start[i]+k times w[off[i]+k],
// for k below off[i+1]-off[i]; the weights of each output sample add up to
// 1<<16.
type taps struct {
	start, off []int32
	w          []uint32
}

// boxTaps returns the taps from n source samples to m, m ≤ n or not: output
// sample i covers the source interval [i·n/m, (i+1)·n/m), and each source
// sample weighs as much of it as it covers.
func boxTaps(n, m int) taps {
	t := taps{start: make([]int32, m), off: make([]int32, m+1), w: make([]uint32, 0, m*(n/m+2))}
	src, dst := int64(n), int64(m)
	for i := range dst {
		lo, hi := i*src, (i+1)*src // in units of 1/m source samples
		first := len(t.w)
		t.start[i] = int32(lo / dst)
		var sum uint32
		big := first
		for j := lo / dst; j*dst < hi; j++ {
			w := uint32((min(hi, (j+1)*dst) - max(lo, j*dst)) << 16 / src)
			t.w = append(t.w, w)
			sum += w
			if w > t.w[big] {
				big = len(t.w) - 1
			}
		}
		t.w[big] += 1<<16 - sum
		t.off[i+1] = int32(len(t.w))
	}
	return t
}

// scalePlane scales the sw×sh pixels of c interleaved 8-bit channels in
// src to the dw×dh pixels of dst, on every core, each taking a band of
// rows. Each row of dst is made from the source rows it covers, summed
// into a row of accumulators, then summed across: the work is linear in
// the source's pixels, and the memory besides dst one row per core. prep,
// when not nil, writes each source row, as it is read, into a row of its
// own that is summed in its place.
func scalePlane(src []byte, sstride, sw, sh, c int, dst []byte, dstride, dw, dh int, prep func(dst, src []byte)) {
	rows, cols := boxTaps(sh, dh), boxTaps(sw, dw)
	workers := min(runtime.GOMAXPROCS(0), dh)
	var wg sync.WaitGroup
	for k := range workers {
		wg.Go(func() {
			acc := make([]uint32, sw*c)
			var prepped []byte
			if prep != nil {
				prepped = make([]byte, sw*c)
			}
			for y := dh * k / workers; y < dh*(k+1)/workers; y++ {
				clear(acc)
				j := int(rows.start[y])
				for _, wy := range rows.w[rows.off[y]:rows.off[y+1]] {
					row := src[j*sstride : j*sstride+sw*c]
					if prep != nil {
						prep(prepped, row)
						row = prepped
					}
					addRow(acc, row, wy)
					j++
				}
				sumAcross(dst[y*dstride:y*dstride+dw*c], acc, cols, c)
			}
		})
	}
	wg.Wait()
}

// addRow adds the samples of row, times w, to acc.
func addRow(acc []uint32, row []byte, w uint32) {
	acc = acc[:len(row)]
	for len(row) >= 8 { // eight at a time: fewer bounds checks and loop steps
		a, r := acc[:8:8], row[:8:8]
		a[0] += uint32(r[0]) * w
		a[1] += uint32(r[1]) * w
		a[2] += uint32(r[2]) * w
		a[3] += uint32(r[3]) * w
		a[4] += uint32(r[4]) * w
		a[5] += uint32(r[5]) * w
		a[6] += uint32(r[6]) * w
		a[7] += uint32(r[7]) * w
		acc, row = acc[8:], row[8:]
	}
	for i, v := range row {
		acc[i] += uint32(v) * w
	}
}

// sumAcross writes to out the row of accumulators acc, of c interleaved
// channels, filtered across by cols and brought back to 8 bits.
func sumAcross(out []byte, acc []uint32, cols taps, c int) {
	const half = 1 << 31
	for x := range len(cols.start) {
		ws := cols.w[cols.off[x]:cols.off[x+1]]
		s := int(cols.start[x]) * c
		if c == 1 {
			var sum uint64 = half
			for k, w := range ws {
				sum += uint64(acc[s+k]) * uint64(w)
			}
			out[x] = uint8(sum >> 32)
			continue
		}
		a := acc[s : s+4*len(ws)]
		var r, g, b, al uint64 = half, half, half, half
		for k, w := range ws {
			p := a[4*k : 4*k+4 : 4*k+4]
			r += uint64(p[0]) * uint64(w)
			g += uint64(p[1]) * uint64(w)
			b += uint64(p[2]) * uint64(w)
			al += uint64(p[3]) * uint64(w)
		}
		o := out[4*x : 4*x+4 : 4*x+4]
		o[0], o[1], o[2], o[3] = uint8(r>>32), uint8(g>>32), uint8(b>>32), uint8(al>>32)
	}
}
