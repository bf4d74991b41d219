package preview

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi/kitty"
)

// maxKittyCells is the largest number of rows or columns of a kitty
// placement: the diacritics that number them (kitty.Diacritic) are no more.
const maxKittyCells = 297

// Pixels sent for each cell of a kitty preview, at most: enough for a
// sharp picture on a high-density screen, whose cells are about 16×32
// pixels; an image is scaled down to this before it is sent, never up.
const (
	kittyCellWidth  = 16
	kittyCellHeight = 32
)

// KittyTransmit returns the escape sequences that send the PNG image png to
// a kitty-compatible terminal as the image id and make a virtual placement
// of it, cols×rows cells, for KittyPlaceholder to show. The image is
// decoded and, when it has more pixels than the cells can show, scaled
// down first (see kittyTransmitImage). It returns ""
// when id is 0, png is not a PNG image or the size is not positive.
func KittyTransmit(id uint32, pngData []byte, cols, rows int) string {
	if id == 0 || len(pngData) == 0 || cols <= 0 || rows <= 0 {
		return ""
	}
	img, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		return ""
	}
	return kittyTransmitImage(id, img, cols, rows)
}

// kittyTransmitImage returns the escape sequences that send img to a
// kitty-compatible terminal as the image id, with a virtual placement of
// cols×rows cells (U=1) for KittyPlaceholder to show. The image is first
// scaled down to at most kittyCellWidth×kittyCellHeight pixels a cell,
// keeping its aspect, so that a 40-megapixel result costs the terminal a
// few hundred kilobytes, not hundreds of megabytes; it is then sent as PNG
// (f=100), in base64 chunks of at most 4096 bytes (m=1 on all but the
// last), and the terminal is told not to answer (q=2).
//
// Write it to the terminal once, before the placeholders are shown, and not
// as part of a screen update; sending it again with the same id replaces the
// image. cols and rows are capped at maxKittyCells. It returns "" when id is
// 0 (or, on a 32-bit system, above 2^31-1), img is empty or the size is not
// positive.
func kittyTransmitImage(id uint32, img image.Image, cols, rows int) string {
	if id == 0 || uint64(id) > math.MaxInt || img == nil || img.Bounds().Empty() || cols <= 0 || rows <= 0 {
		return ""
	}
	cols, rows = min(cols, maxKittyCells), min(rows, maxKittyCells)
	small := downscale(img, cols*kittyCellWidth, rows*kittyCellHeight)
	var b strings.Builder
	err := kitty.EncodeGraphics(&b, small, &kitty.Options{
		Action:           kitty.TransmitAndPut,
		Transmission:     kitty.Direct, // the zero value would send no data
		Format:           kitty.PNG,
		ID:               int(id),
		VirtualPlacement: true,
		Columns:          cols,
		Rows:             rows,
		Quite:            2,
		Chunk:            true,
		ChunkFormatter:   orderKeys,
	})
	if err != nil {
		return ""
	}
	return b.String()
}

// keyOrder is the order muse has always written a command's keys in: the
// action first, as the protocol's documentation does, then what the image
// is, its placement, and the quiet and chunk keys last.
var keyOrder = []string{"a", "f", "t", "o", "s", "v", "i", "p", "U", "c", "r", "q", "m"}

// orderKeys writes the keys of a command, which kitty.Options writes with the
// action last, in keyOrder. Terminals read them in any order; this keeps
// the transmission as muse has always sent it.
func orderKeys(cmd string) string {
	const head = "\x1b_G"
	keys, rest, ok := strings.Cut(strings.TrimPrefix(cmd, head), ";")
	if !ok || !strings.HasPrefix(cmd, head) {
		return cmd
	}
	kv := strings.Split(keys, ",")
	rank := func(k string) int {
		name, _, _ := strings.Cut(k, "=")
		if i := slices.Index(keyOrder, name); i >= 0 {
			return i
		}
		return len(keyOrder)
	}
	slices.SortStableFunc(kv, func(x, y string) int { return rank(x) - rank(y) })
	return head + strings.Join(kv, ",") + ";" + rest
}

// downscale returns img scaled down, keeping its aspect, to fit within
// maxW×maxH pixels, averaging the pixels each new one covers; an image
// that fits already is returned as it is. Transparent pixels count as
// black.
func downscale(img image.Image, maxW, maxH int) image.Image {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= maxW && h <= maxH || maxW <= 0 || maxH <= 0 {
		return img
	}
	// The largest size within the box with the image's aspect.
	nw, nh := maxW, max(1, roundDiv(h*maxW, w))
	if nh > maxH {
		nw, nh = max(1, roundDiv(w*maxH, h)), maxH
	}
	px := scale(img, nw, nh)
	out := image.NewRGBA(image.Rect(0, 0, nw, nh))
	for i, p := range px {
		o := 4 * i
		out.Pix[o], out.Pix[o+1], out.Pix[o+2], out.Pix[o+3] = p.r, p.g, p.b, 0xff
	}
	return out
}

// KittyPlaceholder returns the text that shows the image id, sent with
// KittyTransmit, over cols×rows cells: rows lines joined by "\n" (none after
// the last) of cols kitty.Placeholder (U+10EEEE) characters, each followed
// by the diacritics (kitty.Diacritic) of its row and column and, for an id
// of 2^24 or more, of the id's high byte. The id is the foreground colour:
// 38;5;id below 256, 38;2;r;g;b from its low 24 bits otherwise. Each line
// ends with a reset. cols and rows are capped at maxKittyCells; it returns
// "" when id is 0 or the size is not positive.
//
// The text is one cell wide per placeholder for a renderer that counts
// Unicode widths, like lipgloss and Bubble Tea do.
func KittyPlaceholder(id uint32, cols, rows int) string {
	if id == 0 || cols <= 0 || rows <= 0 {
		return ""
	}
	cols, rows = min(cols, maxKittyCells), min(rows, maxKittyCells)
	var color string
	if id < 256 {
		color = "\x1b[38;5;" + strconv.Itoa(int(id)) + "m"
	} else {
		color = "\x1b[38;2;" + strconv.Itoa(int(id>>16&0xff)) + ";" + strconv.Itoa(int(id>>8&0xff)) + ";" + strconv.Itoa(int(id&0xff)) + "m"
	}
	high := int(id >> 24)
	var b strings.Builder
	b.Grow(rows * (len(color) + cols*13 + len(reset) + 1))
	for r := range rows {
		if r > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(color)
		for c := range cols {
			b.WriteRune(kitty.Placeholder)
			b.WriteRune(kitty.Diacritic(r))
			b.WriteRune(kitty.Diacritic(c))
			if high != 0 {
				b.WriteRune(kitty.Diacritic(high))
			}
		}
		b.WriteString(reset)
	}
	return b.String()
}
