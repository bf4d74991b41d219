package theme

import (
	"reflect"
	"testing"

	chromalib "github.com/alecthomas/chroma/v2"
	"github.com/charmbracelet/glamour/ansi"
	"github.com/muesli/termenv"
)

// TestChromaColoursIn16 checks that every theme built for a terminal of 16
// colours gives its code blocks' syntax colours as Chroma reads them: an
// ANSI code there ("6") made glamour panic on the first code block, on the
// chat screen and with -p, wherever TERM=xterm.
func TestChromaColoursIn16(t *testing.T) {
	for _, name := range Names() {
		for _, dark := range []bool{true, false} {
			th, err := New(name, dark, WithProfile(termenv.ANSI))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			cs := th.Markdown.CodeBlock.Chroma
			if cs == nil {
				continue
			}
			v := reflect.ValueOf(cs).Elem()
			for i := range v.NumField() {
				p, ok := v.Field(i).Interface().(ansi.StylePrimitive)
				if !ok {
					continue
				}
				// As glamour gives them to Chroma.
				var entries []string
				if p.Color != nil {
					entries = append(entries, *p.Color)
				}
				if p.BackgroundColor != nil {
					entries = append(entries, "bg:"+*p.BackgroundColor)
				}
				for _, e := range entries {
					if _, err := chromalib.ParseStyleEntry(e); err != nil {
						t.Errorf("%s (dark %v): Chroma's %s: %v", name, dark, v.Type().Field(i).Name, err)
					}
				}
			}
		}
	}
}
