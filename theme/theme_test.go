package theme

import (
	"testing"

	"github.com/lucasb-eyer/go-colorful"
	"github.com/muesli/termenv"
)

// TestLegibleIn16Colours degrades each palette to the 16-colour profile and
// checks that the colours that carry meaning stay apart.
func TestLegibleIn16Colours(t *testing.T) {
	for _, name := range []string{"dark", "light"} {
		th, err := New(name, name == "dark")
		if err != nil {
			t.Fatal(err)
		}
		p := th.Palette
		ansi := func(c string) string { return termenv.ANSI.Color(c).Sequence(false) }
		distinct := map[string]string{"user": p.User, "assistant": p.Assistant, "error": p.Error, "accent": p.Accent}
		seen := map[string]string{}
		for role, c := range distinct {
			if other, ok := seen[ansi(c)]; ok {
				t.Errorf("%s: %s and %s both become ANSI %s", name, role, other, ansi(c))
			}
			seen[ansi(c)] = role
		}
		// Text must stand off the background it was picked for.
		bg := "#000000"
		if name == "light" {
			bg = "#ffffff"
		}
		back, _ := colorful.Hex(bg)
		for role, c := range map[string]string{"text": p.Text, "muted": p.Muted, "subtle": p.Subtle} {
			fg, _ := colorful.Hex(termenv.ConvertToRGB(termenv.ANSI.Color(c)).Hex())
			if d := fg.DistanceLab(back); d < 0.35 {
				t.Errorf("%s: %s (%s) is too close to the background in 16 colours (distance %.2f)", name, role, c, d)
			}
		}
	}
	if _, err := New("pink", true); err == nil {
		t.Error("an unknown theme was accepted")
	}
}
