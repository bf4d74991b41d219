package preview

import (
	"encoding/base64"
	"strconv"
	"strings"
)

// placeholder is the character kitty draws a cell of an image over.
const placeholder = '\U0010EEEE'

// MaxKittyCells is the largest number of rows or columns of a kitty
// placement: the diacritics can number no more.
const MaxKittyCells = len(diacritics)

// kittyChunk is the largest base64 payload of one graphics command.
const kittyChunk = 4096

// KittyTransmit returns the escape sequences that send the PNG image png to
// a kitty-compatible terminal as the image id and make a virtual placement
// of it, cols×rows cells, for KittyPlaceholder to show. The terminal is told
// not to answer (q=2). The base64 data is cut into commands of at most
// 4096 bytes, each but the last with m=1.
//
// Write it to the terminal once, before the placeholders are shown, and not
// as part of a screen update; sending it again with the same id replaces the
// image. cols and rows are capped at MaxKittyCells. It returns "" when id is
// 0, png is empty or the size is not positive.
func KittyTransmit(id uint32, png []byte, cols, rows int) string {
	if id == 0 || len(png) == 0 || cols <= 0 || rows <= 0 {
		return ""
	}
	cols, rows = min(cols, MaxKittyCells), min(rows, MaxKittyCells)
	payload := base64.StdEncoding.EncodeToString(png)
	n := (len(payload) + kittyChunk - 1) / kittyChunk
	var b strings.Builder
	b.Grow(len(payload) + n*24 + 64)
	for i := 0; i < n; i++ {
		chunk := payload[i*kittyChunk : min((i+1)*kittyChunk, len(payload))]
		more := "0"
		if i < n-1 {
			more = "1"
		}
		b.WriteString("\x1b_G")
		if i == 0 {
			b.WriteString("a=T,f=100,i=")
			b.WriteString(strconv.FormatUint(uint64(id), 10))
			b.WriteString(",U=1,c=")
			b.WriteString(strconv.Itoa(cols))
			b.WriteString(",r=")
			b.WriteString(strconv.Itoa(rows))
			b.WriteString(",")
		}
		b.WriteString("q=2,m=")
		b.WriteString(more)
		b.WriteByte(';')
		b.WriteString(chunk)
		b.WriteString("\x1b\\")
	}
	return b.String()
}

// KittyDelete returns the escape sequence that deletes the image id, with
// its placements, and frees its data in the terminal.
func KittyDelete(id uint32) string {
	return "\x1b_Ga=d,d=I,i=" + strconv.FormatUint(uint64(id), 10) + ",q=2\x1b\\"
}

// KittyPlaceholder returns the text that shows the image id, sent with
// KittyTransmit, over cols×rows cells: rows lines joined by "\n" (none after
// the last) of cols U+10EEEE characters, each followed by the diacritics of
// its row and column and, for an id of 2^24 or more, of the id's high byte.
// The id is the foreground colour: 38;5;id below 256, 38;2;r;g;b from its
// low 24 bits otherwise. Each line ends with a reset. cols and rows are
// capped at MaxKittyCells; it returns "" when id is 0 or the size is not
// positive.
//
// The text is one cell wide per placeholder for a renderer that counts
// Unicode widths, like lipgloss and Bubble Tea do.
func KittyPlaceholder(id uint32, cols, rows int) string {
	if id == 0 || cols <= 0 || rows <= 0 {
		return ""
	}
	cols, rows = min(cols, MaxKittyCells), min(rows, MaxKittyCells)
	var color string
	if id < 256 {
		color = "\x1b[38;5;" + strconv.Itoa(int(id)) + "m"
	} else {
		color = "\x1b[38;2;" + strconv.Itoa(int(id>>16&0xff)) + ";" + strconv.Itoa(int(id>>8&0xff)) + ";" + strconv.Itoa(int(id&0xff)) + "m"
	}
	high := id >> 24
	var b strings.Builder
	b.Grow(rows * (len(color) + cols*13 + len(reset) + 1))
	for r := range rows {
		if r > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(color)
		for c := range cols {
			b.WriteRune(placeholder)
			b.WriteRune(diacritics[r])
			b.WriteRune(diacritics[c])
			if high != 0 {
				b.WriteRune(diacritics[high])
			}
		}
		b.WriteString(reset)
	}
	return b.String()
}
