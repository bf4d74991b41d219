package attach

import (
	"bytes"
	"encoding/binary"
	"image"
	"muse/ui/imgscale"
)

// jpegOrientation returns the EXIF orientation of the JPEG data, 1 to 8,
// or 1 when it has none: how a camera says its photo must be turned to be
// upright. A JPEG encoded again loses its EXIF, so the turn is made on the
// pixels instead.
func jpegOrientation(data []byte) int {
	i := 2 // past the start of image
	for i+4 <= len(data) && data[i] == 0xff {
		marker := data[i+1]
		n := int(binary.BigEndian.Uint16(data[i+2:]))
		if marker == 0xda || n < 2 || i+2+n > len(data) { // start of scan: no EXIF past it
			return 1
		}
		if seg := data[i+4 : i+2+n]; marker == 0xe1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")) {
			return tiffOrientation(seg[6:])
		}
		i += 2 + n
	}
	return 1
}

// tiffOrientation reads the orientation tag of the first directory of the
// TIFF structure t, the body of an EXIF segment; 1 when there is none.
func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 1
	}
	var order binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		order = binary.LittleEndian
	case "MM":
		order = binary.BigEndian
	default:
		return 1
	}
	off := int64(order.Uint32(t[4:]))
	if off+2 > int64(len(t)) {
		return 1
	}
	n := int64(order.Uint16(t[off:]))
	for e := off + 2; e+12 <= int64(len(t)) && e < off+2+12*n; e += 12 {
		if order.Uint16(t[e:]) == 0x0112 && order.Uint16(t[e+2:]) == 3 { // orientation, a SHORT
			if o := int(order.Uint16(t[e+8:])); o >= 1 && o <= 8 {
				return o
			}
			return 1
		}
	}
	return 1
}

// orient returns img, as scale makes it (4:2:0 YCbCr, gray or RGBA),
// turned and flipped as the EXIF orientation o says: upright.
func orient(img image.Image, o int) image.Image {
	if o <= 1 {
		return img
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if o >= 5 { // the sides swap
		w, h = h, w
	}
	switch src := img.(type) {
	case *image.YCbCr:
		dst := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
		orientPlane(dst.Y, dst.YStride, src.Y, src.YStride, b.Dx(), b.Dy(), 1, o)
		cw, ch := imgscale.ChromaSize(src.Rect, src.SubsampleRatio)
		orientPlane(dst.Cb, dst.CStride, src.Cb, src.CStride, cw, ch, 1, o)
		orientPlane(dst.Cr, dst.CStride, src.Cr, src.CStride, cw, ch, 1, o)
		return dst
	case *image.Gray:
		dst := image.NewGray(image.Rect(0, 0, w, h))
		orientPlane(dst.Pix, dst.Stride, src.Pix, src.Stride, b.Dx(), b.Dy(), 1, o)
		return dst
	}
	src := imgscale.RGBA(img)
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	orientPlane(dst.Pix, dst.Stride, src.Pix, src.Stride, b.Dx(), b.Dy(), 4, o)
	return dst
}

// orientPlane writes to dst the sw×sh pixels of c bytes of src, turned and
// flipped as the EXIF orientation o says.
func orientPlane(dst []byte, dstride int, src []byte, sstride, sw, sh, c, o int) {
	dw, dh := sw, sh
	if o >= 5 {
		dw, dh = sh, sw
	}
	for dy := range dh {
		for dx := range dw {
			var sx, sy int
			switch o {
			case 1:
				sx, sy = dx, dy
			case 2: // mirrored
				sx, sy = sw-1-dx, dy
			case 3: // upside down
				sx, sy = sw-1-dx, sh-1-dy
			case 4: // mirrored upside down
				sx, sy = dx, sh-1-dy
			case 5: // mirrored, on its side
				sx, sy = dy, dx
			case 6: // turned a quarter anticlockwise: turn it clockwise
				sx, sy = dy, sh-1-dx
			case 7:
				sx, sy = sw-1-dy, sh-1-dx
			default: // 8: turned a quarter clockwise: turn it back
				sx, sy = sw-1-dy, dx
			}
			copy(dst[dy*dstride+dx*c:dy*dstride+dx*c+c], src[sy*sstride+sx*c:])
		}
	}
}
