package attach

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"testing"
)

// TestFitForAPage keeps an image as it is without a side, and scales one down to
// it with a side, keeping its aspect; text is refused.
func TestFitForAPage(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 640, 400))
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	f, err := Fit("a.png", b.Bytes(), 0)
	if err != nil || !bytes.Equal(f.Data, b.Bytes()) || f.MediaType != "image/png" || f.Width != 640 || f.Height != 400 {
		t.Errorf("side 0: %v %s %d×%d, want the bytes as they are, a PNG of 640×400", err, f.MediaType, f.Width, f.Height)
	}
	f, err = Fit("a.png", b.Bytes(), 64)
	if err != nil {
		t.Fatal(err)
	}
	got, err := png.DecodeConfig(bytes.NewReader(f.Data))
	if err != nil || got.Width != 64 || got.Height != 40 || f.Width != 64 || f.Height != 40 {
		t.Errorf("side 64: %v %d×%d (says %d×%d), want 64×40", err, got.Width, got.Height, f.Width, f.Height)
	}
	var refused *RefusedError
	if _, err := Fit("a.txt", []byte("hello"), 0); !errors.As(err, &refused) {
		t.Errorf("text: %v, want a refusal", err)
	}
}
