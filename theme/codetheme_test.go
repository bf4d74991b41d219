package theme

import (
	"reflect"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/lucasb-eyer/go-colorful"
	"github.com/muesli/termenv"
)

// Every field of glamour's code colours is named for a Chroma token type,
// and a code_theme's colours come across: monokai's keywords, its
// comments' italics, and no token keeps the style's own background (the
// code sits on the terminal's).
func TestCodeThemeColours(t *testing.T) {
	cs := codeThemeColours("monokai")
	v := reflect.ValueOf(cs).Elem()
	for i := range v.NumField() {
		if _, err := chroma.TokenTypeString(v.Type().Field(i).Name); err != nil {
			t.Errorf("glamour's %s is no Chroma token type: %v", v.Type().Field(i).Name, err)
		}
	}
	if c := cs.Keyword.Color; c == nil || *c != "#66d9ef" {
		t.Errorf("monokai's keyword colour is %v, want #66d9ef", c)
	}
	if cs.GenericStrong.Bold == nil || !*cs.GenericStrong.Bold {
		t.Errorf("monokai's strong text is not bold")
	}
	forCode(cs, func(token, _ string, own *string, _ float64) {
		if own != nil && *own == "#272822" {
			t.Errorf("%s keeps monokai's background", token)
		}
	})
}

// A theme file whose code_theme reads in 256 colours but not in 16:
// github-dark's inserted lines, #87d75f on #005f00 (5.8:1), are bright
// green on green (1.6:1) once a terminal of 16 colours converts both. The
// theme built for 16 colours measures the text on the background as that
// terminal draws it, and picks a colour that reads there.
func TestCodeThemeReadsIn16(t *testing.T) {
	path := writeTheme(t, "gh.toml", "base = \"dark\"\n[markdown]\ncode_theme = \"github-dark\"\n")
	full, err := New(path, true, WithProfile(termenv.ANSI256))
	if err != nil {
		t.Fatal(err)
	}
	ins := full.Markdown.CodeBlock.Chroma.GenericInserted
	if ins.Color == nil || ins.BackgroundColor == nil {
		t.Fatalf("github-dark's inserted lines have no colours: %+v", ins)
	}
	fg, bg := *ins.Color, *ins.BackgroundColor
	if r := contrast(mustRGB(t, fg), mustRGB(t, bg)); r < minBody {
		t.Fatalf("in 256 colours %s on %s is %.2f:1: the theme fails there too", fg, bg, r)
	}
	if r := contrast(drawn16(fg), drawn16(bg)); r >= minBody {
		t.Fatalf("in 16 colours %s on %s is %.2f:1: the theme does not fail there", fg, bg, r)
	}
	th, err := New(path, true, WithProfile(termenv.ANSI))
	if err != nil {
		t.Fatal(err)
	}
	got := th.Markdown.CodeBlock.Chroma.GenericInserted
	if got.Color == nil {
		t.Fatalf("in 16 colours the inserted lines lost their colour: %+v", got)
	}
	on := "the terminal's black"
	if got.BackgroundColor != nil {
		on = *got.BackgroundColor
	}
	t.Logf("inserted lines in 16 colours: %s on %s", *got.Color, on)
	// measureCode measures each colour as both kinds of terminal draw it.
	if n := measureCode(t, "github-dark in 16 colours", th.Markdown.CodeBlock.Chroma, black, true); n < 10 {
		t.Errorf("only %d code colours measured", n)
	}
}

func mustRGB(t *testing.T, c string) colorful.Color {
	t.Helper()
	col, ok := rgbOf(c)
	if !ok {
		t.Fatalf("%q is not a colour", c)
	}
	return col
}
