package theme

import (
	"testing"

	"github.com/charmbracelet/lipgloss"
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

// TestLightThemeContrast checks, in 256 colours, that the input marker and
// every muted or subtle text of the light theme reach a contrast of 4.5:1
// against a white background (WCAG AA for text).
func TestLightThemeContrast(t *testing.T) {
	th, err := New("light", false)
	if err != nil {
		t.Fatal(err)
	}
	white, _ := colorful.Hex("#ffffff")
	st := th.Styles
	styles := map[string]lipgloss.Style{
		"input marker": st.InputMarker, "muted": st.Muted, "subtle": st.Subtle, "hint": st.Hint, "notice": st.Notice,
		"status bar": st.StatusBar, "status key": st.StatusKey, "thinking": st.Thinking, "raw block": st.RawBlock,
		"header model": st.HeaderModel, "text": st.UserText, "accent": st.Accent, "selected": st.Selected,
	}
	for role, s := range styles {
		c, ok := s.GetForeground().(lipgloss.Color)
		if !ok {
			t.Errorf("%s has no palette colour", role)
			continue
		}
		fg, _ := colorful.Hex(termenv.ConvertToRGB(termenv.ANSI256.Color(string(c))).Hex())
		if r := contrast(fg, white); r < 4.5 {
			t.Errorf("%s (colour %s) has a contrast of %.2f:1 on white, below 4.5:1", role, c, r)
		}
	}
}
