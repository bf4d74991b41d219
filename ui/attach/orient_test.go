package attach

import (
	"encoding/binary"
	"image"
	"image/color"
	"testing"
)

// withOrientation returns the JPEG data with an EXIF segment saying
// orientation o, in the byte order of order.
func withOrientation(data []byte, o int, order binary.ByteOrder) []byte {
	tiff := make([]byte, 8+2+12+4)
	if order == binary.LittleEndian {
		copy(tiff, "II")
	} else {
		copy(tiff, "MM")
	}
	order.PutUint16(tiff[2:], 42)
	order.PutUint32(tiff[4:], 8)
	order.PutUint16(tiff[8:], 1)       // one entry
	order.PutUint16(tiff[10:], 0x0112) // orientation
	order.PutUint16(tiff[12:], 3)      // SHORT
	order.PutUint32(tiff[14:], 1)
	order.PutUint16(tiff[18:], uint16(o))
	seg := append([]byte("Exif\x00\x00"), tiff...)
	out := append([]byte{}, data[:2]...)
	out = append(out, 0xff, 0xe1)
	out = binary.BigEndian.AppendUint16(out, uint16(len(seg)+2))
	out = append(out, seg...)
	return append(out, data[2:]...)
}

func TestJPEGOrientation(t *testing.T) {
	plain := encodeJPEG(t, gradient(16, 16), 90)
	for _, tc := range []struct {
		name string
		data []byte
		want int
	}{
		{"none", plain, 1},
		{"little endian", withOrientation(plain, 6, binary.LittleEndian), 6},
		{"big endian", withOrientation(plain, 8, binary.BigEndian), 8},
		{"out of range", withOrientation(plain, 9, binary.BigEndian), 1},
		{"cut", withOrientation(plain, 6, binary.BigEndian)[:20], 1},
		{"no TIFF", append([]byte("\xff\xd8\xff\xe1\x00\x0aExif\x00\x00XX"), plain[2:]...), 1},
	} {
		if got := jpegOrientation(tc.data); got != tc.want {
			t.Errorf("%s: orientation %d, want %d", tc.name, got, tc.want)
		}
	}
}

// Each orientation turns a 3×2 plane as EXIF defines it: where the stored
// first row and first column are to be seen.
func TestOrientPlane(t *testing.T) {
	src := []byte("abcdef") // abc / def
	for o, want := range map[int]string{
		1: "abcdef", 2: "cbafed", 3: "fedcba", 4: "defabc",
		5: "adbecf", 6: "daebfc", 7: "fcebda", 8: "cfbead",
	} {
		w := 3
		if o >= 5 {
			w = 2
		}
		dst := make([]byte, 6)
		orientPlane(dst, w, src, 3, 3, 2, 1, o)
		if string(dst) != want {
			t.Errorf("orientation %d: %s, want %s", o, dst, want)
		}
	}
}

// A photo taken on its side and scaled down comes out upright, its sides
// swapped, and gray and RGBA images turn as YCbCr ones do.
func TestScaleJPEGTurnsUpright(t *testing.T) {
	m := image.NewRGBA(image.Rect(0, 0, 3000, 40))
	for y := range 40 {
		for x := range 3000 {
			c := color.RGBA{255, 0, 0, 255} // left half red, right half blue
			if x >= 1500 {
				c = color.RGBA{0, 0, 255, 255}
			}
			m.SetRGBA(x, y, c)
		}
	}
	data := withOrientation(encodeJPEG(t, m, 90), 6, binary.BigEndian)
	f, err := FromBytes("phone.jpg", data)
	if err != nil {
		t.Fatal(err)
	}
	if f.Width != 21 || f.Height != 1568 || f.Note != "scaled from 3000×40 to 1568×21, turned upright, sent as JPEG" {
		t.Fatalf("got %+v", f.Attachment)
	}
	img := decoded(t, f)
	// Turned clockwise: the left of the stored image is now the top.
	if !near(img.At(10, 100), color.RGBA{255, 0, 0, 255}, 40) || !near(img.At(10, 1400), color.RGBA{0, 0, 255, 255}, 40) {
		t.Errorf("top %v, bottom %v: want red above blue", img.At(10, 100), img.At(10, 1400))
	}

	g := orient(image.NewGray(image.Rect(0, 0, 4, 2)), 8)
	r := orient(gradient(4, 2), 3)
	if g.Bounds().Size() != image.Pt(2, 4) || r.Bounds().Size() != image.Pt(4, 2) {
		t.Errorf("gray %v, RGBA %v", g.Bounds(), r.Bounds())
	}
	if _, ok := g.(*image.Gray); !ok {
		t.Errorf("gray turned into %T", g)
	}
	if got, want := r.At(0, 0), gradient(4, 2).At(3, 1); got != want {
		t.Errorf("RGBA turned: %v, want %v", got, want)
	}
}
