package theme

import (
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/lucasb-eyer/go-colorful"
	"github.com/muesli/termenv"
)

// Contrast minimums, WCAG's: body text 4.5:1 (AA), dim text (muted and
// subtle: hints, placeholders, the thinking line) 3:1, and every text of
// the high-contrast theme 7:1 (AAA).
const (
	minBody = 4.5
	minDim  = 3
	minHigh = 7
)

// xterm16 is xterm's default palette of the 16 ANSI colours: what a
// terminal limited to 16 colours draws for each. Terminals differ in these,
// but xterm's are the most common and among the hardest to read (its green,
// yellow and cyan on white, its blue on black).
var xterm16 = [16]string{
	"#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5",
	"#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff",
}

// Option changes how New builds a theme.
type Option func(*options)

type options struct{ profile termenv.Profile }

// WithProfile builds the theme for a terminal of colour profile p. With 16
// colours (termenv.ANSI) each colour becomes the nearest of the 16 that
// keeps its contrast with the background the theme is made for, in
// xterm's palette; the nearest by hue alone, as the conversion would
// otherwise pick, can be unreadable (solarized's green on white, 1.07:1).
// Other profiles keep the theme's colours.
func WithProfile(p termenv.Profile) Option { return func(o *options) { o.profile = p } }

// MadeForDark reports whether the theme is made for a dark background:
// its text is light.
func (t *Theme) MadeForDark() bool {
	c, ok := rgbOf(t.Palette.Text)
	return !ok || luminance(c) > 0.2
}

// Mismatch says, when the theme is made for the other kind of background
// than the terminal's, so once, in a line; "" when it fits.
func (t *Theme) Mismatch() string {
	if t.MadeForDark() == t.DarkBackground {
		return ""
	}
	made, is := "dark", "light"
	if !t.MadeForDark() {
		made, is = "light", "dark"
	}
	return "theme " + t.Name + " is made for " + made + " backgrounds and this terminal's is " + is + ": /theme auto fits it"
}

// minContrast is the contrast the theme's text must keep: 7:1 for
// high-contrast, else by role.
func (t *Theme) minContrast(dim bool) float64 {
	switch {
	case t.Name == "high-contrast":
		return minHigh
	case dim:
		return minDim
	}
	return minBody
}

// in16 is t for a terminal of 16 colours: every colour the nearest of the
// 16 that keeps its contrast on the background t is made for.
func (t *Theme) in16() *Theme {
	bg := xterm16[15]
	if t.MadeForDark() {
		bg = xterm16[0]
	}
	back, _ := colorful.Hex(bg)
	p := t.Palette
	body, dim := t.minContrast(false), t.minContrast(true)
	for _, c := range []*string{&p.Text, &p.Accent, &p.User, &p.Assistant, &p.Error, &p.Warning, &p.Success} {
		*c = legible16(*c, back, body)
	}
	p.Muted, p.Subtle = legible16(p.Muted, back, dim), legible16(p.Subtle, back, dim)
	p.Border = legible16(p.Border, back, 1)
	md := t.Markdown
	code := md.CodeBlock.Chroma // recolour copies what it changes: this stays as it was
	recolour(reflect.ValueOf(&md).Elem(), func(fg string, own *string) string {
		on := back
		if own != nil { // a background of its own, as termenv sends it
			if c, ok := termenv.ANSI.Color(*own).(termenv.ANSIColor); ok {
				on, _ = colorful.Hex(xterm16[c])
			}
		}
		return legible16(fg, on, body)
	})
	// Chroma reads "#rrggbb", never an ANSI code: a code there makes
	// glamour panic on the first code block. Its colours are chosen again,
	// from the theme's own rather than recolour's codes, to read in 16
	// colours too.
	md.CodeBlock.Chroma = legibleCode(code, back, true)
	out := build(t.Name, p, md)
	out.DarkBackground = t.DarkBackground
	return out
}

// legible16 is the one of the 16 ANSI colours, as a code, nearest to c
// whose contrast on bg is at least least; the nearest by hue, as termenv
// measures it, among those that qualify.
func legible16(c string, bg colorful.Color, least float64) string {
	want, ok := rgbOf(c)
	if !ok {
		return c
	}
	best, bestD := -1, math.MaxFloat64
	for i, h := range xterm16 {
		col, _ := colorful.Hex(h)
		if contrast(col, bg) < least {
			continue
		}
		if d := want.DistanceHSLuv(col); d < bestD {
			best, bestD = i, d
		}
	}
	if best < 0 {
		return c
	}
	return strconv.Itoa(best)
}

// rgbOf is the colour a terminal draws for c, a "#rrggbb" or an ANSI 256
// code: the 16 ANSI colours as xterm draws them, the rest as every
// terminal's 256-colour table has them.
func rgbOf(c string) (colorful.Color, bool) {
	if strings.HasPrefix(c, "#") {
		col, err := colorful.Hex(c)
		return col, err == nil
	}
	n, err := strconv.Atoi(c)
	if err != nil || n < 0 || n > 255 {
		return colorful.Color{}, false
	}
	if n < 16 {
		col, _ := colorful.Hex(xterm16[n])
		return col, true
	}
	return palette()[n-paletteFrom].col, true
}

// luminance is WCAG's relative luminance of c.
func luminance(c colorful.Color) float64 {
	lin := func(v float64) float64 {
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// contrast is the WCAG contrast ratio of two colours, from 1 to 21.
func contrast(a, b colorful.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// recolour replaces, in the glamour style v (addressable), the foreground
// of every primitive that sets one with f(foreground, its own background or
// nil). What it changes is copied first: glamour's styles share their
// strings and nested structs with its package defaults.
func recolour(v reflect.Value, f func(fg string, own *string) string) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Elem().Kind() != reflect.Struct {
			return
		}
		cp := reflect.New(v.Elem().Type())
		cp.Elem().Set(v.Elem())
		v.Set(cp)
		recolour(cp.Elem(), f)
	case reflect.Struct:
		if c := v.FieldByName("Color"); c.IsValid() && c.Type() == reflect.TypeFor[*string]() && !c.IsNil() {
			var own *string
			if b := v.FieldByName("BackgroundColor"); b.IsValid() && b.Type() == c.Type() && !b.IsNil() {
				own = b.Interface().(*string)
			}
			s := f(*c.Interface().(*string), own)
			c.Set(reflect.ValueOf(&s))
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && v.Field(i).CanSet() {
				recolour(v.Field(i), f)
			}
		}
	}
}
