package theme

import (
	"math"
	"reflect"
	"sync"

	"github.com/charmbracelet/glamour/ansi"
	"github.com/lucasb-eyer/go-colorful"
	"github.com/muesli/termenv"
)

// Code blocks are coloured by Chroma with its 256-colour formatter in
// every profile (ui/conversation), from the "#rrggbb" colours of the
// theme's Chroma style. glamour's own styles pick theirs for looks, not
// contrast: on white its light style's punctuation (#FA7878, drawn as 210)
// is 2.4:1, its numbers (#22CCAE, 43) 1.9:1. legibleCode moves each to the
// nearest colour of the 256-colour palette that keeps the contrast text
// needs (4.5:1; comments, dim by design as muted text is, 3:1), measured as the terminal
// draws it. A palette colour comes out of the formatter as itself, so
// what is measured is what is drawn.

// paletteFrom is the first code of the 256-colour palette that every
// terminal draws alike: the 6x6x6 cube and the greys. The 16 before are
// the terminal's own and differ from one to the next.
const paletteFrom = 16

// legibleCode returns cs, a copy, with every token colour (and a token's
// own background) a colour of the 256-colour palette, the nearest to its
// own whose contrast on bg (or the token's own background) is at least
// minBody, minDim for comments; a colour that reads stays as the palette
// colour nearest to it. With to16 the colour also keeps that contrast
// when a terminal of 16 colours draws it, and its own background, as
// termenv converts them, in xterm's palette; a token whose own background
// no colour reads on in both loses it.
func legibleCode(cs *ansi.Chroma, bg colorful.Color, to16 bool) *ansi.Chroma {
	if cs == nil {
		return nil
	}
	out := *cs
	v := reflect.ValueOf(&out).Elem()
	term := backdrop{col: bg, in16: bg} // the terminal's own background
	for i := range v.NumField() {
		p, ok := v.Field(i).Interface().(ansi.StylePrimitive)
		if !ok || p.Color == nil {
			continue
		}
		on := term
		if p.BackgroundColor != nil {
			// A background of its own is drawn as the colour itself,
			// or in 16 colours as its conversion: the text is measured
			// on the one the terminal draws.
			own, _ := nearestPalette(*p.BackgroundColor, term, 0, false)
			p.BackgroundColor = &own
			on.col, _ = colorful.Hex(own)
			on.in16 = drawn16(own)
		}
		least := minBody
		if v.Type().Field(i).Name == "Comment" {
			least = minDim
		}
		c, ok := nearestPalette(*p.Color, on, least, to16)
		if !ok && p.BackgroundColor != nil {
			// No colour reads on the token's own background as both
			// kinds of terminal draw it (a formatter's 256 colours,
			// which many a terminal of "16" draws as they are): the
			// token goes on the terminal's background.
			p.BackgroundColor = nil
			c, _ = nearestPalette(*p.Color, term, least, to16)
		}
		p.Color = &c
		v.Field(i).Set(reflect.ValueOf(p))
	}
	return &out
}

// backdrop is what a token is drawn on: col with 256 colours or more,
// in16 on a terminal of 16 colours. The terminal's own background is the
// same in both; a token's own background is converted as its text is.
type backdrop struct{ col, in16 colorful.Color }

// nearestPalette is the colour of the 256-colour palette (from
// paletteFrom) nearest to c, as "#rrggbb", when it reads; else the one
// nearest by hue (HSLuv) among those whose contrast on bg.col is at least
// least (and, with to16, that of their 16-colour conversion on bg.in16
// too). When none qualifies it is the nearest, and false; c itself when it
// is no colour.
func nearestPalette(c string, bg backdrop, least float64, to16 bool) (string, bool) {
	want, ok := rgbOf(c)
	if !ok {
		return c, true
	}
	reads := func(p paletteColour) bool {
		return contrast(p.col, bg.col) >= least && (!to16 || contrast(p.in16, bg.in16) >= least)
	}
	// The colour the formatter draws for c, near enough: when it reads,
	// it stays.
	var near, best *paletteColour
	nearD, bestD := math.MaxFloat64, math.MaxFloat64
	pal := palette()
	for i := range pal {
		p := &pal[i]
		if d := want.DistanceRgb(p.col); d < nearD {
			near, nearD = p, d
		}
		if !reads(*p) {
			continue
		}
		if d := want.DistanceHSLuv(p.col); d < bestD {
			best, bestD = p, d
		}
	}
	if reads(*near) {
		return near.hex, true
	}
	if best == nil {
		return near.hex, false
	}
	return best.hex, true
}

// paletteColour is a colour of the 256-colour palette: as "#rrggbb", as
// a terminal draws it, and as a terminal of 16 colours draws it.
type paletteColour struct {
	hex       string
	col, in16 colorful.Color
}

// palette is the 256-colour palette from paletteFrom on, worked out once:
// every code colour of every theme is measured against it.
var palette = sync.OnceValue(func() []paletteColour {
	out := make([]paletteColour, 0, 256-paletteFrom)
	for n := paletteFrom; n < 256; n++ {
		hex := termenv.ConvertToRGB(termenv.ANSI256Color(n)).Hex()
		col, _ := colorful.Hex(hex)
		out = append(out, paletteColour{hex: hex, col: col, in16: drawn16(hex)})
	}
	return out
})

// drawn16 is the colour a terminal of 16 colours draws for c, "#rrggbb",
// as termenv converts it, in xterm's palette.
func drawn16(c string) colorful.Color {
	code, ok := termenv.ANSI.Color(c).(termenv.ANSIColor)
	if !ok {
		col, _ := colorful.Hex(c)
		return col
	}
	col, _ := colorful.Hex(xterm16[code])
	return col
}
