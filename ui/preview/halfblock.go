package preview

import (
	"image"
	"strconv"

	"github.com/muesli/termenv"
)

// upperHalf is the cell drawn for two pixels: the upper one in the
// foreground colour, the lower one in the background colour.
const upperHalf = "▀"

// reset ends every row of a preview.
const reset = "\x1b[0m"

// halfBlocksTrueColor draws img as rows of upper half blocks in 24-bit colour, at
// most maxCols cells wide (defaultCols when maxCols <= 0), sized by Fit. Each
// row ends with a reset, and rows are joined by "\n" with none after the
// last. The only escape sequences in it are SGR colours. Transparent pixels
// are drawn black. An empty or nil image gives "".
func halfBlocksTrueColor(img image.Image, maxCols int) string {
	return halfBlocks(img, maxCols, appendTrueColor)
}

// halfBlocks256 is halfBlocksTrueColor in the 256 colours of xterm, for terminals
// without 24-bit colour. It uses only the colour cube and the grey ramp
// (16 to 255), whose colours do not depend on the terminal's theme.
func halfBlocks256(img image.Image, maxCols int) string {
	return halfBlocks(img, maxCols, append256)
}

// HalfBlocksFor draws img for a terminal with the colour profile: halfBlocksTrueColor
// for true colour, halfBlocks256 for 256 colours, and otherwise the
// one-line Label, since 16 colours are too few for a picture.
func HalfBlocksFor(img image.Image, maxCols int, profile termenv.Profile) string {
	switch profile {
	case termenv.TrueColor:
		return halfBlocksTrueColor(img, maxCols)
	case termenv.ANSI256:
		return halfBlocks256(img, maxCols)
	}
	if img == nil {
		return ""
	}
	b := img.Bounds()
	return label(b.Dx(), b.Dy())
}

// appendColor appends the SGR parameters that set the foreground (bg false)
// or background colour to c.
type appendColor func(dst []byte, c rgb, bg bool) []byte

func appendTrueColor(dst []byte, c rgb, bg bool) []byte {
	if bg {
		dst = append(dst, "48;2;"...)
	} else {
		dst = append(dst, "38;2;"...)
	}
	dst = strconv.AppendUint(dst, uint64(c.r), 10)
	dst = append(dst, ';')
	dst = strconv.AppendUint(dst, uint64(c.g), 10)
	dst = append(dst, ';')
	return strconv.AppendUint(dst, uint64(c.b), 10)
}

func append256(dst []byte, c rgb, bg bool) []byte {
	if bg {
		dst = append(dst, "48;5;"...)
	} else {
		dst = append(dst, "38;5;"...)
	}
	return strconv.AppendUint(dst, uint64(xterm256(c)), 10)
}

// halfBlocks draws img with the colours written by col. A cell repeats no
// colour the cell before it in the row already set.
func halfBlocks(img image.Image, maxCols int, col appendColor) string {
	if img == nil {
		return ""
	}
	b := img.Bounds()
	cols, rows := Fit(b.Dx(), b.Dy(), maxCols)
	if cols == 0 {
		return ""
	}
	px := scale(img, cols, 2*rows)
	buf := make([]byte, 0, rows*(cols*(len(upperHalf)+40)+len(reset)+1))
	for row := range rows {
		if row > 0 {
			buf = append(buf, '\n')
		}
		top, bottom := px[2*row*cols:(2*row+1)*cols], px[(2*row+1)*cols:(2*row+2)*cols]
		for x := range cols {
			fg, bg := top[x], bottom[x]
			setFG, setBG := x == 0 || fg != top[x-1], x == 0 || bg != bottom[x-1]
			if setFG || setBG {
				buf = append(buf, "\x1b["...)
				if setFG {
					buf = col(buf, fg, false)
				}
				if setBG {
					if setFG {
						buf = append(buf, ';')
					}
					buf = col(buf, bg, true)
				}
				buf = append(buf, 'm')
			}
			buf = append(buf, upperHalf...)
		}
		buf = append(buf, reset...)
	}
	return string(buf)
}
