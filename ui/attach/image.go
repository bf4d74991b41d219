package attach

import (
	"bytes"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"math"
	"strconv"

	"golang.org/x/image/webp"

	"muse/session"
	"muse/ui/imgscale"
)

// jpegQuality is the quality of the JPEGs muse encodes.
const jpegQuality = 85

// pngEncoder encodes PNGs at deflate's fastest level: measured on images
// of 1568×1045, about 1.6 times as fast as the default level, for files
// from 1% (a photo) to 25% (flat colours) larger; the model sees the same
// pixels either way.
var pngEncoder = png.Encoder{CompressionLevel: png.BestSpeed}

// formatNames name the image media types in notes and refusals.
var formatNames = map[string]string{
	"image/png": "PNG", "image/jpeg": "JPEG", "image/gif": "GIF", "image/webp": "WebP",
}

// prepareImage prepares the image data of mediaType: sent as it is when it
// is within the limits of what is sent (side pixels a side, pixels pixels
// unless that is 0, and limit bytes), else decoded, scaled down and
// encoded again.
func prepareImage(name string, data []byte, mediaType string, limit, side, pixels int) (session.File, error) {
	format := formatNames[mediaType]
	cfg, err := decodeConfig(mediaType, data)
	if err != nil {
		return session.File{}, refuse(name, "damaged or unsupported %s image (%v): open it and save it again", format, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return session.File{}, refuse(name, "the %s image is empty (%d×%d px)", format, cfg.Width, cfg.Height)
	}
	if max(cfg.Width, cfg.Height) > MaxSourceSide {
		return session.File{}, refuse(name, "an image of %d×%d px is over %d px a side: crop it or scale it down first",
			cfg.Width, cfg.Height, MaxSourceSide)
	}
	if int64(cfg.Width)*int64(cfg.Height) > session.MaxImagePixels {
		return session.File{}, refuse(name, "an image of %d×%d px is over the %s megapixel limit: scale it down first",
			cfg.Width, cfg.Height, strconv.Itoa(session.MaxImagePixels/1_000_000))
	}
	if cost := session.DecodeCost(mediaType, data, cfg); cost > session.MaxDecodedBytes {
		return session.File{}, refuse(name, "a %d×%d px image needs %d MB to decode, over muse's %d MB: save it smaller, as a baseline JPEG or with 8 bits a channel",
			cfg.Width, cfg.Height, cost>>20, session.MaxDecodedBytes>>20)
	}
	if long, short := max(cfg.Width, cfg.Height), min(cfg.Width, cfg.Height); long > side && long > MaxAspect*short {
		w, h := fit(cfg.Width, cfg.Height, side, pixels)
		return session.File{}, refuse(name, "an image of %d×%d px is more than %d times as long as it is wide: scaled to %d px it would be %d×%d, too thin to see; crop it or cut it into parts",
			cfg.Width, cfg.Height, MaxAspect, side, w, h)
	}
	img, err := decode(mediaType, data)
	if err != nil {
		return session.File{}, refuse(name, "damaged or unsupported %s image (%v): open it and save it again", format, err)
	}
	f := session.File{Attachment: session.Attachment{Name: name, Kind: session.AttachImage}}
	if w, h := fit(cfg.Width, cfg.Height, side, pixels); len(data) <= limit && w == cfg.Width && h == cfg.Height {
		f.MediaType, f.Bytes, f.Width, f.Height, f.Data = mediaType, int64(len(data)), cfg.Width, cfg.Height, data
		return f, nil
	}
	b := img.Bounds()
	w, h := fit(b.Dx(), b.Dy(), side, pixels)
	var note string
	if mediaType == "image/gif" && gifFrames(data) > 1 {
		note = "first frame of an animated GIF, "
	}
	if w < b.Dx() || h < b.Dy() {
		img = imgscale.Scale(img, w, h)
		note += fmt.Sprintf("scaled from %d×%d to %d×%d", b.Dx(), b.Dy(), w, h)
	} else {
		note += "encoded again to fit " + sizeText(int64(limit))
	}
	if mediaType == "image/jpeg" {
		if o := jpegOrientation(data); o > 1 {
			img = orient(img, o)
			note += ", turned upright"
			if o >= 5 {
				w, h = h, w
			}
		}
	}
	out, outType, flattened, err := encode(img, mediaType == "image/jpeg", limit)
	if err != nil {
		return session.File{}, refuse(name, "cannot encode the %s image scaled down: %v", format, err)
	}
	note += ", sent as " + formatNames[outType]
	if flattened {
		note += " on white (as a PNG it was over " + sizeText(int64(limit)) + ")"
	}
	f.MediaType, f.Bytes, f.Size, f.Width, f.Height, f.Data, f.Note = outType, int64(len(out)), int64(len(data)), w, h, out, note
	return f, nil
}

// codec decodes one image format: its header, or the whole image (of a
// GIF, its first frame).
type codec struct {
	config func(io.Reader) (image.Config, error)
	decode func(io.Reader) (image.Image, error)
}

// codecs are the formats an image attachment may be, by media type.
var codecs = map[string]codec{
	"image/png":  {png.DecodeConfig, png.Decode},
	"image/jpeg": {jpeg.DecodeConfig, jpeg.Decode},
	"image/gif":  {gif.DecodeConfig, gif.Decode},
	"image/webp": {webp.DecodeConfig, webp.Decode},
}

// decodeConfig reads the header of the image data of mediaType.
func decodeConfig(mediaType string, data []byte) (image.Config, error) {
	return codecs[mediaType].config(bytes.NewReader(data))
}

// decode decodes the image data of mediaType; of a GIF, only the first
// frame.
func decode(mediaType string, data []byte) (image.Image, error) {
	return codecs[mediaType].decode(bytes.NewReader(data))
}

// fit returns the size of a w×h image scaled down, keeping its aspect
// ratio, so that its longest side is at most side pixels and, unless
// pixels is 0, it has at most pixels pixels; no side is below 1.
func fit(w, h, side, pixels int) (int, int) {
	long, short := max(w, h), min(w, h)
	l := min(long, side)
	if pixels > 0 && int64(w)*int64(h) > int64(pixels) {
		// l × l·short/long ≤ pixels, before rounding
		l = min(l, int(math.Sqrt(float64(pixels)*float64(long)/float64(short))))
	}
	if l == long {
		return w, h
	}
	s := scaleSide(short, l, long)
	for pixels > 0 && l > 1 && int64(l)*int64(s) > int64(pixels) { // rounded up past it
		l--
		s = scaleSide(short, l, long)
	}
	if w >= h {
		return l, s
	}
	return s, l
}

// scaleSide is side n of an image scaled by num/den, rounded, at least 1.
func scaleSide(n, num, den int) int {
	return max(1, int((int64(n)*int64(num)+int64(den)/2)/int64(den)))
}

// encode encodes img, scaled down, as a JPEG when it came from one, else as
// a PNG, or, when that PNG is over limit bytes, as a JPEG flattened on
// white. It returns the bytes, their media type, and whether the image was
// flattened. A JPEG is not checked against the limit: at quality 85 one of
// 1568×1568 pixels of pure noise is 1.9 MB.
func encode(img image.Image, fromJPEG bool, limit int) ([]byte, string, bool, error) {
	var buf bytes.Buffer
	if fromJPEG {
		err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: jpegQuality})
		return buf.Bytes(), "image/jpeg", false, err
	}
	if err := pngEncoder.Encode(&buf, pngImage(img)); err != nil {
		return nil, "", false, err
	}
	if buf.Len() <= limit {
		return buf.Bytes(), "image/png", false, nil
	}
	flat := imgscale.RGBA(img)
	flatten(flat)
	buf.Reset()
	err := jpeg.Encode(&buf, flat, &jpeg.Options{Quality: jpegQuality})
	return buf.Bytes(), "image/jpeg", true, err
}

// pngImage returns img in a form png.Encode writes without going through
// colour conversions pixel by pixel: a YCbCr image (a WebP photo) as RGBA.
func pngImage(img image.Image) image.Image {
	if _, ok := img.(*image.YCbCr); ok {
		return imgscale.RGBA(img)
	}
	return img
}

// flatten composes the premultiplied image m on white, in place, leaving
// it opaque.
func flatten(m *image.RGBA) {
	for y := range m.Rect.Dy() {
		row := m.Pix[y*m.Stride : y*m.Stride+4*m.Rect.Dx()]
		for i := 0; i+3 < len(row); i += 4 {
			t := 255 - row[i+3]
			row[i] += t
			row[i+1] += t
			row[i+2] += t
			row[i+3] = 255
		}
	}
}

// gifFrames counts the frames of the GIF data by walking its blocks,
// without decoding them; a damaged GIF counts the frames before the damage.
func gifFrames(data []byte) int {
	i := 13 // header and logical screen descriptor
	if len(data) < i {
		return 0
	}
	if data[10]&0x80 != 0 {
		i += 3 << (data[10]&7 + 1) // global colour table
	}
	// skip moves past the data sub-blocks starting at j.
	skip := func(j int) int {
		for j < len(data) && data[j] != 0 {
			j += int(data[j]) + 1
		}
		return j + 1
	}
	n := 0
	for i < len(data) {
		switch data[i] {
		case 0x21: // extension: label, then sub-blocks
			i = skip(i + 2)
		case 0x2c: // image: descriptor, local colour table, LZW code size, sub-blocks
			n++
			if i+10 > len(data) {
				return n
			}
			flags := data[i+9]
			i += 10
			if flags&0x80 != 0 {
				i += 3 << (flags&7 + 1)
			}
			i = skip(i + 1)
		default: // trailer, or damage
			return n
		}
	}
	return n
}
