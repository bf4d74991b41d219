package session

import (
	"encoding/binary"
	"image"
)

// MaxDecodedBytes bounds the memory an image takes decoded: a small PNG of
// 16 bits a channel and 40 megapixels would take 320 MB. Attachments
// (ui/attach), previews (DecodeImage) and imported images are held to it,
// from their headers, before they are decoded.
const MaxDecodedBytes = 200 << 20

// DecodeCost is about how many bytes decoding the image data of mediaType
// (image/png, image/jpeg, image/gif or image/webp) takes, and scaling it
// and encoding it again, told from its header, cfg as the format's
// DecodeConfig reads it, before any of it is decoded; data may be only
// the file's first bytes, as long as they hold the header: for each format what Go's decoder allocates (see pngCost,
// jpegFrame, webpCost), and, but for a JPEG, the RGBA copy that scaling
// or encoding it may make. A header this cannot read costs the most any
// image of its size could.
func DecodeCost(mediaType string, data []byte, cfg image.Config) int64 {
	px := int64(cfg.Width) * int64(cfg.Height)
	switch mediaType {
	case "image/jpeg":
		planes, components, progressive, ok := jpegFrame(data)
		var cmyk int64 // a CMYK (four-plane) one is made RGBA to scale it
		if components == 4 || !ok {
			cmyk = px * 4
		}
		switch {
		case !ok: // a header Go reads and this does not: the worst it can be
			return px*4*5 + cmyk
		case progressive:
			// Go's decoder keeps 4 bytes a pixel of each plane's
			// coefficients until the end (a 466 KB one of 6300×6300 px
			// took 620 MB).
			return planes*5 + cmyk
		}
		return planes + cmyk
	case "image/png":
		return pngCost(data)
	case "image/gif":
		return px * (1 + 4) // the first frame's palette indexes, then RGBA
	case "image/webp":
		return webpCost(data, px)
	}
	return px * 16
}

// pngCost is what decoding the PNG data and scaling it takes, from its
// header chunk (IHDR): width, height, bit depth, colour type and
// interlacing. Go's decoder makes an image of 1 byte a pixel (palette), 4
// (8 bits a channel or fewer) or 8 (16 bits); a grey or RGB one with a
// transparent colour takes 4 or 8 like one with alpha, and is costed so
// whatever its chunks. It keeps two rows of the raw data, and an
// interlaced image decodes each of its seven passes into an image of its
// own before they are merged: twice the pixels. Scaling then makes an RGBA
// copy of all but 8-bit grey, RGBA and NRGBA.
func pngCost(data []byte) int64 {
	const ihdr = 8 + 8 // signature, then the chunk's length and type
	if len(data) < ihdr+13 || string(data[12:16]) != "IHDR" {
		return 1 << 62
	}
	w := int64(binary.BigEndian.Uint32(data[ihdr:]))
	h := int64(binary.BigEndian.Uint32(data[ihdr+4:]))
	depth, colour, interlace := int64(data[ihdr+8]), data[ihdr+9], data[ihdr+12]
	var channels int64 // by colour type: grey, RGB, palette, grey and alpha, RGBA
	if colour <= 6 {
		channels = [7]int64{1, 0, 3, 1, 2, 0, 4}[colour]
	}
	if channels == 0 || depth == 0 || depth > 16 {
		return 1 << 62 // png.DecodeConfig refuses these first
	}
	pixel := int64(4) // decoded, a pixel of 8 bits a channel or fewer
	switch {
	case colour == 3:
		pixel = 1
	case depth == 16:
		pixel = 8
	}
	img := w * h * pixel
	cost := img + 2*(1+(w*channels*depth+7)/8)
	if interlace == 1 {
		cost += img
	}
	if colour == 3 || depth == 16 {
		cost += w * h * 4
	}
	return cost
}

// webpCost is what decoding the WebP data of px pixels and scaling it
// takes, by its first chunk: a lossy one (VP8) decodes to YCbCr in whole
// 16×16 blocks, about 1.5 bytes a pixel, and is encoded again from RGBA; a
// lossless one (VP8L) decodes to 4 bytes a pixel, and its colour index
// transform makes a second copy; an extended one (VP8X) may be either, and
// with alpha also decodes its alpha plane losslessly, 4 bytes a pixel and
// more.
func webpCost(data []byte, px int64) int64 {
	if len(data) < 21 {
		return px * 16
	}
	switch string(data[12:16]) {
	case "VP8 ":
		return px*3/2 + px*4 + 64<<10
	case "VP8L":
		return px * 8
	case "VP8X":
		if data[20]&0x10 != 0 { // alpha
			return px * 16
		}
		return px * 8
	}
	return px * 16
}

// jpegFrame reads a JPEG's frame header: the pixels of all its planes,
// each rounded up to whole 8×8 blocks, how many planes it has, and whether
// it is progressive.
func jpegFrame(data []byte) (planes int64, components int, progressive, ok bool) {
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xFF {
			i++ // junk between segments, which Go's decoder skips too
			continue
		}
		m := data[i+1]
		switch {
		case m == 0xFF: // fill
			i++
			continue
		case m == 0x01 || m >= 0xD0 && m <= 0xD8:
			i += 2
			continue
		}
		n := int(data[i+2])<<8 | int(data[i+3])
		if n < 2 {
			return 0, 0, false, false // a segment's length counts its own two bytes
		}
		isSOF := m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC
		if !isSOF {
			i += 2 + n
			continue
		}
		seg := data[i+4 : min(len(data), i+2+n)]
		if len(seg) < 6 {
			return 0, 0, false, false
		}
		h, w, nf := int64(seg[1])<<8|int64(seg[2]), int64(seg[3])<<8|int64(seg[4]), int(seg[5])
		if len(seg) < 6+3*nf || nf == 0 {
			return 0, 0, false, false
		}
		var hmax, vmax int64 = 1, 1
		for c := range nf {
			hv := seg[6+3*c+1]
			hmax, vmax = max(hmax, int64(hv>>4)), max(vmax, int64(hv&15))
		}
		for c := range nf {
			hv := seg[6+3*c+1]
			cw := (w*int64(max(hv>>4, 1)) + hmax - 1) / hmax
			ch := (h*int64(max(hv&15, 1)) + vmax - 1) / vmax
			planes += (cw + 7) / 8 * 8 * ((ch + 7) / 8 * 8)
		}
		progressive = m == 0xC2 || m == 0xC6 || m == 0xCA || m == 0xCE
		return planes, nf, progressive, true
	}
	return 0, 0, false, false
}
