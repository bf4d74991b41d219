package attach

import (
	"bytes"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"muse/session"
	"muse/ui/imgscale"
	"muse/ui/internal/streamtest"
)

// largeJPEG is a 6000×4000 photo-sized JPEG of about 20 MB: a gradient
// under noise, so that it does not compress much, as a camera's does not.
var largeJPEG = sync.OnceValue(func() []byte {
	m := noisyYCbCr(6000, 4000, 60)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: 92}); err != nil {
		panic(err)
	}
	return buf.Bytes()
})

// noisyYCbCr returns a w×h 4:2:0 image: a gradient with noise of ±amp.
func noisyYCbCr(w, h, amp int) *image.YCbCr {
	m := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	rnd := xorshift(1)
	for y := range h {
		for x := range w {
			v := (x*255/w+y*255/h)/2 + int(rnd()%uint32(2*amp+1)) - amp
			m.Y[y*m.YStride+x] = uint8(max(0, min(255, v)))
		}
	}
	for i := range m.Cb {
		m.Cb[i] = uint8(128 + int(rnd()%uint32(amp+1)) - amp/2)
		m.Cr[i] = uint8(100 + int(rnd()%uint32(amp+1)) - amp/2)
	}
	return m
}

// xorshift returns a fast, seeded source of pseudo-random numbers.
func xorshift(seed uint32) func() uint32 {
	s := seed
	return func() uint32 {
		s ^= s << 13
		s ^= s >> 17
		s ^= s << 5
		return s
	}
}

// loop runs f b.N times and reports, besides the time, the CPU time of
// the process per run: on a shared machine, the figure that other work
// does not inflate (with every core busy, it is the sum over the cores).
func loop(b *testing.B, f func() error) {
	start := streamtest.CPUTime()
	for b.Loop() {
		if err := f(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(streamtest.CPUTime()-start)/float64(b.N)/1e6, "cpu-ms/op")
}

// BenchmarkAttachLargeJPEG attaches a 20 MB, 6000×4000 JPEG: whole, from a
// file and from bytes, and its parts: decoding, then scaling and encoding.
// The whole reports peak-MB, the most heap in use above what was before,
// for one attachment. Every part reports cpu-ms/op too.
func BenchmarkAttachLargeJPEG(b *testing.B) {
	data := largeJPEG()
	path := filepath.Join(b.TempDir(), "photo.jpg")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	whole := func(b *testing.B, attach func() (session.File, error)) {
		b.SetBytes(int64(len(data)))
		peak := streamtest.PeakHeap(func() {
			if _, err := attach(); err != nil {
				b.Fatal(err)
			}
		})
		loop(b, func() error {
			f, err := attach()
			if w, _ := fit(6000, 4000, MaxSentSide, MaxSentPixels); err == nil && f.Width != w {
				b.Fatal(f.Attachment)
			}
			return err
		})
		b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
	}
	b.Run("Open", func(b *testing.B) { whole(b, func() (session.File, error) { return Open(path) }) })
	b.Run("FromBytes", func(b *testing.B) { whole(b, func() (session.File, error) { return FromBytes("photo.jpg", data) }) })
	b.Run("decode", func(b *testing.B) {
		loop(b, func() error {
			_, err := decode("image/jpeg", data)
			return err
		})
	})
	img, err := decode("image/jpeg", data)
	if err != nil {
		b.Fatal(err)
	}
	w, h := fit(6000, 4000, MaxSentSide, MaxSentPixels)
	b.Run("scale", func(b *testing.B) {
		loop(b, func() error {
			imgscale.Scale(img, w, h)
			return nil
		})
	})
	b.Run("scale+encode", func(b *testing.B) {
		loop(b, func() error {
			_, _, _, err := encode(imgscale.Scale(img, w, h), true, MaxSentImageBytes)
			return err
		})
	})
}
