package attach

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image/color"
	"image/gif"
	"image/png"
	"testing"

	"muse/session"
)

// FuzzAttach feeds any bytes to FromBytes and to the two parsers it has of
// its own, the GIF block walker and the EXIF reader: nothing panics, a
// refusal is a RefusedError, and an attachment is whole.
func FuzzAttach(f *testing.F) {
	var g bytes.Buffer
	if err := gif.Encode(&g, gradient(8, 4), nil); err != nil {
		f.Fatal(err)
	}
	for _, seed := range [][]byte{
		encodePNG(f, gradient(8, 4), png.BestSpeed),
		withOrientation(encodeJPEG(f, gradient(8, 4), 80), 6, binary.LittleEndian),
		g.Bytes(),
		losslessWebP(f, twoTone(4, 4, color.NRGBA{1, 2, 3, 4}, color.NRGBA{5, 6, 7, 8})),
		[]byte("%PDF-1.7\n%%EOF\n"),
		[]byte("\xef\xbb\xbfnotes\r\n"),
		pngHeader(3, 3),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if n := gifFrames(data); n < 0 || n > len(data) {
			t.Fatalf("%d frames in %d bytes", n, len(data))
		}
		if o := jpegOrientation(data); o < 1 || o > 8 {
			t.Fatalf("orientation %d", o)
		}
		file, err := FromBytes("fuzz", data)
		if err != nil {
			var re *RefusedError
			if !errors.As(err, &re) {
				t.Fatalf("error %v is not a RefusedError", err)
			}
			return
		}
		if len(file.Data) == 0 || file.Bytes != int64(len(file.Data)) || Label(file) == "" {
			t.Fatalf("attachment %+v with %d bytes", file.Attachment, len(file.Data))
		}
		switch file.Kind {
		case session.AttachImage:
			if file.Width < 1 || file.Height < 1 || file.Bytes > MaxSentImageBytes {
				t.Fatalf("image %+v", file.Attachment)
			}
		case session.AttachDocument, session.AttachText:
		default:
			t.Fatalf("kind %q", file.Kind)
		}
	})
}
