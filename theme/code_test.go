package theme

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/charmbracelet/glamour/ansi"
	"github.com/charmbracelet/glamour/styles"
	"github.com/lucasb-eyer/go-colorful"
	"github.com/muesli/termenv"
)

// TestCodeColoursRead measures every syntax colour of every theme's code
// blocks as a terminal draws it (the 256-colour formatter draws a palette
// colour as itself; a 16-colour terminal draws termenv's conversion, in
// xterm's palette) on the background the theme is made for: white for a
// light one, black for a dark one. Each token reads at 4.5:1, comments at
// 3:1 (dim by design, as muted text); a token with a background of its own
// (an error) is measured on it. It also checks the test measures
// something: glamour's own light style fails it.
func TestCodeColoursRead(t *testing.T) {
	profiles := map[termenv.Profile]string{termenv.TrueColor: "truecolor", termenv.ANSI256: "256", termenv.ANSI: "16"}
	checked := 0
	// A theme file without a code_theme keeps glamour's code colours.
	files := []string{writeTheme(t, "paper.toml", "base = \"light\"\n"), writeTheme(t, "ink.toml", "base = \"dark\"\n")}
	for _, name := range append(append([]string{"dark", "light"}, Names()...), files...) {
		for _, dark := range []bool{true, false} {
			for p, pname := range profiles {
				th, err := New(name, dark, WithProfile(p))
				if err != nil {
					t.Fatal(err)
				}
				cs := th.Markdown.CodeBlock.Chroma
				if cs == nil {
					continue // a named Chroma style (code_theme): its own palette
				}
				bg := white
				if th.MadeForDark() {
					bg = black
				}
				where := fmt.Sprintf("%s (for dark %t) in %s colours", th.Name, dark, pname)
				checked += measureCode(t, where, cs, bg, p == termenv.ANSI)
			}
		}
	}
	t.Logf("%d code colours checked", checked)
	if checked < 100 {
		t.Errorf("only %d code colours checked", checked)
	}
	// The measure catches what the review saw: 210 and 43 on white.
	if bad := codeFailures(lightMarkdownOf(t), white, false); len(bad) < 2 {
		t.Errorf("glamour's light code colours all pass (%v): the test measures nothing", bad)
	}
}

// measureCode checks the token colours of cs on bg, reports each that
// reads too faintly, and returns how many it measured.
func measureCode(t *testing.T, where string, cs *ansi.Chroma, bg colorful.Color, in16 bool) int {
	t.Helper()
	n := 0
	forCode(cs, func(token, fg string, own *string, least float64) {
		n++
		c, ok := rgbOf(fg)
		if !ok {
			t.Errorf("%s: %s colour %q is not a colour", where, token, fg)
			return
		}
		if !inPalette(fg) {
			t.Errorf("%s: %s colour %s is not of the 256-colour palette: the formatter would draw another", where, token, fg)
		}
		on := bg
		if own != nil {
			on, _ = rgbOf(*own)
		}
		if r := contrast(c, on); r < least {
			t.Errorf("%s: %s (%s) is %.2f:1, below %.1f:1", where, token, fg, r, least)
		}
		if in16 {
			if own != nil {
				on = drawn16(*own)
			}
			if r := contrast(drawn16(fg), on); r < least {
				t.Errorf("%s: %s (%s) in 16 colours is %.2f:1, below %.1f:1", where, token, fg, r, least)
			}
		}
	})
	return n
}

// codeFailures names the tokens of cs that read below their minimum on bg.
func codeFailures(cs *ansi.Chroma, bg colorful.Color, in16 bool) []string {
	var bad []string
	forCode(cs, func(token, fg string, own *string, least float64) {
		// As the 256-colour formatter draws it: the nearest palette colour
		// by termenv's measure stands in for Chroma's here.
		c, _ := rgbOf(termenv.ConvertToRGB(termenv.ANSI256.Color(fg)).Hex())
		if own == nil && contrast(c, bg) < least {
			bad = append(bad, token)
		}
	})
	return bad
}

// forCode calls f with each token colour of cs, its own background, and
// the contrast it needs.
func forCode(cs *ansi.Chroma, f func(token, fg string, own *string, least float64)) {
	v := reflect.ValueOf(cs).Elem()
	for i := range v.NumField() {
		p, ok := v.Field(i).Interface().(ansi.StylePrimitive)
		if !ok || p.Color == nil {
			continue
		}
		name, least := v.Type().Field(i).Name, minBody
		if name == "Comment" {
			least = minDim
		}
		f(name, *p.Color, p.BackgroundColor, least)
	}
}

// inPalette reports whether c is a colour of the 256-colour palette from
// its cube on.
func inPalette(c string) bool {
	for n := paletteFrom; n < 256; n++ {
		if termenv.ConvertToRGB(termenv.ANSI256Color(n)).Hex() == c {
			return true
		}
	}
	return false
}

// lightMarkdownOf is glamour's own light style's code colours.
func lightMarkdownOf(t *testing.T) *ansi.Chroma {
	t.Helper()
	cs := styles.LightStyleConfig.CodeBlock.Chroma
	if cs == nil {
		t.Fatal("glamour's light style has no code colours")
	}
	return cs
}
