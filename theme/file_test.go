package theme

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lucasb-eyer/go-colorful"
	"github.com/muesli/termenv"
)

// rgb is the colour a theme colour shows as: "#rrggbb" as it is, an ANSI
// 256 number as xterm draws it.
func rgb(t *testing.T, c string) colorful.Color {
	t.Helper()
	if strings.HasPrefix(c, "#") {
		col, err := colorful.Hex(c)
		if err != nil {
			t.Fatal(err)
		}
		return col
	}
	col, err := colorful.Hex(termenv.ConvertToRGB(termenv.ANSI256.Color(c)).Hex())
	if err != nil {
		t.Fatal(err)
	}
	return col
}

// walkColours walks a glamour style and calls f with the path, the
// foreground and the background (nil: the terminal's) of every colour set.
func walkColours(v reflect.Value, path string, f func(path string, fg string, bg *string)) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			walkColours(v.Elem(), path, f)
		}
	case reflect.Struct:
		if c := v.FieldByName("Color"); c.IsValid() && c.Type() == reflect.TypeFor[*string]() && !c.IsNil() {
			var bg *string
			if b := v.FieldByName("BackgroundColor"); b.IsValid() && !b.IsNil() {
				bg = b.Interface().(*string)
			}
			f(path, *c.Interface().(*string), bg)
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walkColours(v.Field(i), path+"."+v.Type().Field(i).Name, f)
			}
		}
	}
}

// The high-contrast theme meets WCAG AA on both kinds of background: every
// text colour of the screen and of the markdown has a contrast of at least
// 4.5:1 with the background (its own, for a colour on one such as inline
// code), borders at least 3:1 (for what is not text).
func TestHighContrastMeetsWCAGAA(t *testing.T) {
	for _, tc := range []struct {
		dark bool
		bgs  []string
	}{
		{true, []string{"#000000", "#1c1c1c"}},
		{false, []string{"#ffffff", "#eeeeee"}},
	} {
		th, err := New("high-contrast", tc.dark)
		if err != nil {
			t.Fatal(err)
		}
		if cs := th.Markdown.CodeBlock.Chroma; cs == nil {
			t.Errorf("dark %t: code has no style: %+v", tc.dark, th.Markdown.CodeBlock)
		} else {
			forCode(cs, func(token, fg string, _ *string, _ float64) {
				t.Errorf("dark %t: code's %s has a colour of its own (%s): bw keeps the terminal's", tc.dark, token, fg)
			})
		}
		p := th.Palette
		text := map[string]string{"text": p.Text, "muted": p.Muted, "subtle": p.Subtle, "accent": p.Accent, "user": p.User,
			"assistant": p.Assistant, "error": p.Error, "warning": p.Warning, "success": p.Success}
		checked := 0
		for _, bg := range tc.bgs {
			back := rgb(t, bg)
			least, leastRole := 21.0, ""
			for role, c := range text {
				r := contrast(rgb(t, c), back)
				if r < least {
					least, leastRole = r, role
				}
				if r < 4.5 {
					t.Errorf("dark %t: %s (%s) has a contrast of %.2f:1 on %s, below 4.5:1", tc.dark, role, c, r, bg)
				}
				checked++
			}
			t.Logf("on %s the least contrast of the screen's text is %.2f:1 (%s)", bg, least, leastRole)
			if r := contrast(rgb(t, p.Border), back); r < 3 {
				t.Errorf("dark %t: the border (%s) has a contrast of %.2f:1 on %s, below 3:1", tc.dark, p.Border, r, bg)
			}
			walkColours(reflect.ValueOf(th.Markdown), "markdown", func(path, fg string, own *string) {
				on, onName := back, bg
				if own != nil {
					on, onName = rgb(t, *own), *own
				}
				if r := contrast(rgb(t, fg), on); r < 4.5 {
					t.Errorf("dark %t: %s (%s) has a contrast of %.2f:1 on %s, below 4.5:1", tc.dark, path, fg, r, onName)
				}
				checked++
			})
		}
		if checked < 2*(len(text)+8) {
			t.Errorf("dark %t: only %d colours checked", tc.dark, checked)
		}
	}
}

// Every theme known by name builds on both backgrounds, and names itself.
func TestBuiltinThemes(t *testing.T) {
	names := Names()
	for _, want := range []string{"dark", "light", "auto", "high-contrast", "nord", "solarized-light"} {
		found := false
		for _, n := range names {
			found = found || n == want
		}
		if !found {
			t.Errorf("Names() = %q lacks %s", names, want)
		}
	}
	for _, name := range names {
		for _, dark := range []bool{true, false} {
			th, err := New(name, dark)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if name != "auto" && th.Name != name {
				t.Errorf("%s is named %q", name, th.Name)
			}
			if th.DarkBackground != dark {
				t.Errorf("%s: DarkBackground %t, want %t", name, th.DarkBackground, dark)
			}
		}
	}
	if _, err := New("pink", true); err == nil || !strings.Contains(err.Error(), "high-contrast") || !strings.Contains(err.Error(), ".toml") {
		t.Errorf("unknown theme: %v", err)
	}
}

func writeTheme(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// A theme file sets the colours it names over its base; its [dark] or
// [light] part applies on that background only.
func TestThemeFile(t *testing.T) {
	path := writeTheme(t, "mine.toml", `
[chrome]
accent = "#ff0000"
[roles]
user = "201"
[markdown]
heading = "33"
code_theme = "monokai"
[light.chrome]
accent = "#0000aa"
`)
	dark, err := New(path, true)
	if err != nil {
		t.Fatal(err)
	}
	if dark.Name != "mine" || dark.Palette.Accent != "#ff0000" || dark.Palette.User != "201" || dark.Palette.Text != "252" {
		t.Errorf("on dark: %s %+v", dark.Name, dark.Palette)
	}
	if h := dark.Markdown.H2.Color; h == nil || *h != "33" || dark.Markdown.H1.BackgroundColor == nil || *dark.Markdown.H1.BackgroundColor != "33" || dark.Markdown.CodeBlock.Chroma == nil || dark.Markdown.CodeBlock.Chroma.Keyword.Color == nil {
		t.Errorf("markdown: %+v %+v", dark.Markdown.H2, dark.Markdown.H1)
	}
	if got := dark.Styles.InputMarker.GetForeground(); got != dark.Styles.Accent.GetForeground() {
		t.Errorf("the styles do not follow the palette: %v", got)
	}
	light, err := New(path, false)
	if err != nil {
		t.Fatal(err)
	}
	if light.Palette.Accent != "#0000aa" || light.Palette.Text != "235" {
		t.Errorf("on light: %+v", light.Palette)
	}
	// The glamour styles shared by every theme are never written through.
	again, _ := New("dark", true)
	if h := again.Markdown.H2.Color; h != nil && *h == "33" {
		t.Error("a theme file changed the dark theme's markdown")
	}
}

// A bad theme file is refused with its line and what was expected.
func TestThemeFileErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"[chrome]\ntext = \"252\"\ntxt = \"1\"\n", `:3:1: unknown key chrome.txt: expected one of text, muted, subtle, accent, border (did you mean "text"?)`},
		{"[roles]\n\nuser = \"#12345\"\n", `:3:8: roles.user: expected a colour, "#rrggbb" or an ANSI 256 colour number from 0 to 255 such as "75", got "#12345"`},
		{"[roles]\nerror = \"256\"\n", `:2:9: roles.error: expected a colour`},
		{"[chrome]\naccent = 75\n", `:2:10: chrome.accent: expected a string, such as "75" or "#5fafff" for a colour, got 75`},
		{"[dark.roles]\nuser = true\n", `:2:8: dark.roles.user: expected a string`},
		{"name = \"x\"\nbase = \"grey\"\n", `:2:1: base: expected dark, light or auto, got "grey"`},
		{"\uFEFF[chrome]\ntext = \"1\"\n[chrome.text.x]\n", `:3:14: unknown key chrome.text.x: chrome.text takes no table`},
		{"[markdown]\ncode_theme = \"nope\"\n", `:2:14: markdown.code_theme: expected the name of a Chroma style`},
		{"[dark.chrome]\nfoo = \"1\"\n", `:2:1: unknown key dark.chrome.foo: expected one of text`},
		{"[colours]\ntext = \"1\"\n", `:1:2: unknown key colours: expected one of name, base, chrome`},
		{"[chrome\n", `:1:`},
	} {
		path := writeTheme(t, "bad.toml", tc.src)
		_, err := New(path, true)
		var te *Error
		if err == nil || !errors.As(err, &te) || !strings.Contains(err.Error(), path+tc.want) {
			t.Errorf("%q: error %v\nwant it to hold %q", tc.src, err, path+tc.want)
		}
	}
	if _, err := New(filepath.Join(t.TempDir(), "gone.toml"), true); err == nil || !strings.Contains(err.Error(), "gone.toml") {
		t.Errorf("a missing file: %v", err)
	}
}
