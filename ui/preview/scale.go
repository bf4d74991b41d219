package preview

import (
	"image"
	"image/color"

	"muse/ui/imgscale"
)

// rgb is a pixel of a scaled image.
type rgb struct{ r, g, b uint8 }

// scale shrinks img to w×h pixels with muse's box scaler (ui/imgscale):
// each target pixel is the mean of the source pixels it covers, a
// transparent one counting as black. The result is row-major.
func scale(img image.Image, w, h int) []rgb {
	out := make([]rgb, 0, w*h)
	switch m := imgscale.Scale(img, w, h).(type) {
	case *image.YCbCr:
		for y := range h {
			for x := range w {
				r, g, b := color.YCbCrToRGB(m.Y[m.YOffset(x, y)], m.Cb[m.COffset(x, y)], m.Cr[m.COffset(x, y)])
				out = append(out, rgb{r, g, b})
			}
		}
	case *image.Gray:
		for _, v := range m.Pix[:w*h] {
			out = append(out, rgb{v, v, v})
		}
	case *image.RGBA:
		for y := range h {
			row := m.Pix[y*m.Stride : y*m.Stride+4*w]
			for x := 0; x < len(row); x += 4 {
				out = append(out, rgb{row[x], row[x+1], row[x+2]})
			}
		}
	}
	return out
}
