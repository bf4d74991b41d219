package theme

import (
	"reflect"

	"github.com/alecthomas/chroma/v2"
	chromastyles "github.com/alecthomas/chroma/v2/styles"
	"github.com/charmbracelet/glamour/ansi"
)

// codeThemeColours is the Chroma style name (a theme file's code_theme) as
// glamour's code colours, one per token type glamour knows, so that they
// are measured and made legible as glamour's own are (see legibleCode):
// a named style handed to glamour as it is would be drawn unmeasured, in
// every profile. Each type takes what the style gives it, inherited from
// its category as Chroma resolves it; the style's own background is
// dropped, as the code formatter drops it (the code sits on the
// terminal's), while a token's own background stays. Types glamour has
// no field for (NameVariable, say) take their category's colour.
func codeThemeColours(name string) *ansi.Chroma {
	style := chromastyles.Get(name)
	b := style.Builder()
	bg := b.Get(chroma.Background)
	bg.Background = 0
	bg.NoInherit = true
	if cleared, err := b.AddEntry(chroma.Background, bg).Build(); err == nil {
		style = cleared
	}
	var out ansi.Chroma
	v := reflect.ValueOf(&out).Elem()
	for i := range v.NumField() {
		tt, err := chroma.TokenTypeString(v.Type().Field(i).Name)
		if err != nil {
			continue // every field is named for a token type: see TestCodeThemeColours
		}
		e := style.Get(tt)
		var p ansi.StylePrimitive
		if e.Colour.IsSet() {
			p.Color = str(e.Colour.String())
		}
		if e.Background.IsSet() && tt != chroma.Background {
			p.BackgroundColor = str(e.Background.String())
		}
		yes := true
		if e.Bold == chroma.Yes {
			p.Bold = &yes
		}
		if e.Italic == chroma.Yes {
			p.Italic = &yes
		}
		if e.Underline == chroma.Yes {
			p.Underline = &yes
		}
		v.Field(i).Set(reflect.ValueOf(p))
	}
	return &out
}
