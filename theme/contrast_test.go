package theme

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/lucasb-eyer/go-colorful"
	"github.com/muesli/termenv"
)

// drawn is the colour a terminal of profile p draws for the colour c of a
// style: what termenv sends (a code of 16 or 256, or the colour itself),
// with the 16 as xterm draws them.
func drawn(t *testing.T, p termenv.Profile, c string) colorful.Color {
	t.Helper()
	var code string
	switch col := p.Color(c).(type) {
	case termenv.ANSIColor:
		code = strconv.Itoa(int(col))
	case termenv.ANSI256Color:
		code = strconv.Itoa(int(col))
	case termenv.RGBColor:
		code = string(col)
	default:
		t.Fatalf("profile %v sends no colour for %q", p, c)
	}
	rgb, ok := rgbOf(code)
	if !ok {
		t.Fatalf("colour %q (sent as %q) is not a colour", c, code)
	}
	return rgb
}

// backgroundsOf are the backgrounds a theme is measured on: black (xterm,
// kitty) and alacritty's #1d1f21 for a dark theme, white for a light one,
// and the theme's own background for nord and solarized-light. With 16
// colours, xterm's own black or white.
func backgroundsOf(th *Theme, p termenv.Profile) []string {
	if p == termenv.ANSI {
		if th.MadeForDark() {
			return []string{xterm16[0]}
		}
		return []string{xterm16[15]}
	}
	own := map[string]string{"nord": "#2e3440", "solarized-light": "#fdf6e3"}[th.Name]
	bgs := []string{"#ffffff"}
	if th.MadeForDark() {
		bgs = []string{"#000000", "#1d1f21"}
	}
	if own != "" {
		bgs = append(bgs, own)
	}
	return bgs
}

// Every theme's text reads on the background it is made for, in truecolor,
// 256 and 16 colours: body text (and every label and markdown colour) at
// least 4.5:1, dim text (muted, subtle) 3:1, and everything of
// high-contrast 7:1.
func TestEveryThemeReadsInEveryProfile(t *testing.T) {
	profiles := map[termenv.Profile]string{termenv.TrueColor: "truecolor", termenv.ANSI256: "256", termenv.ANSI: "16"}
	checked := 0
	for _, name := range append([]string{"dark", "light"}, Names()...) {
		for _, dark := range []bool{true, false} {
			for p, pname := range profiles {
				th, err := New(name, dark, WithProfile(p))
				if err != nil {
					t.Fatal(err)
				}
				if name == "auto" || name == "dark" || name == "light" {
					if name != "auto" && th.MadeForDark() != (name == "dark") {
						t.Errorf("%s: made for dark %t", name, th.MadeForDark())
					}
				}
				pal := th.Palette
				roles := map[string]string{"text": pal.Text, "accent": pal.Accent, "user": pal.User, "assistant": pal.Assistant,
					"error": pal.Error, "warning": pal.Warning, "success": pal.Success, "muted": pal.Muted, "subtle": pal.Subtle}
				for _, bg := range backgroundsOf(th, p) {
					back, _ := colorful.Hex(bg)
					where := fmt.Sprintf("%s (for dark %t) in %s colours on %s", th.Name, dark, pname, bg)
					for role, c := range roles {
						least := th.minContrast(role == "muted" || role == "subtle")
						if r := contrast(drawn(t, p, c), back); r < least {
							t.Errorf("%s: %s (%s) is %.2f:1, below %.1f:1", where, role, c, r, least)
						}
						checked++
					}
					walkColours(reflect.ValueOf(th.Markdown), "markdown", func(path, fg string, own *string) {
						if strings.Contains(path, ".Chroma.") {
							return // code highlighting: its own palette on its own background
						}
						on := back
						if own != nil {
							on = drawn(t, p, *own)
						}
						least := th.minContrast(strings.Contains(path, "HorizontalRule")) // a rule is a line, not text
						if r := contrast(drawn(t, p, fg), on); r < least {
							t.Errorf("%s: %s (%s) is %.2f:1, below %.1f:1", where, path, fg, r, least)
						}
						checked++
					})
				}
			}
		}
	}
	if checked < 500 {
		t.Errorf("only %d colours checked", checked)
	}
}

// A theme made for the other kind of background says so, once, in words
// that say how to fix it; one that fits says nothing.
func TestMismatchIsSaid(t *testing.T) {
	th, err := New("solarized-light", true)
	if err != nil {
		t.Fatal(err)
	}
	if m := th.Mismatch(); m == "" {
		t.Error("solarized-light on a dark terminal says nothing")
	}
	for _, c := range []struct {
		name string
		dark bool
	}{{"solarized-light", false}, {"nord", true}, {"auto", true}, {"auto", false}, {"high-contrast", false}} {
		if th, _ := New(c.name, c.dark); th.Mismatch() != "" {
			t.Errorf("%s on dark %t: %q", c.name, c.dark, th.Mismatch())
		}
	}
}
