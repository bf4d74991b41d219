package page

import (
	"testing"

	"github.com/lucasb-eyer/go-colorful"
)

// luminance is the WCAG relative luminance of a CSS hex colour.
func luminance(t *testing.T, hex string) float64 {
	t.Helper()
	c, err := colorful.Hex(hex)
	if err != nil {
		t.Fatalf("colour %q: %v", hex, err)
	}
	r, g, b := c.LinearRgb()
	return 0.2126*r + 0.7152*g + 0.0722*b
}

// ratio is the WCAG contrast ratio of two colours.
func ratio(t *testing.T, a, b string) float64 {
	la, lb := luminance(t, a), luminance(t, b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// TestContrast measures every pair of text and background the stylesheet
// draws, in light and dark, against WCAG AA for text (4.5:1): text of
// each role on the page, each colour of code on a code block, and the
// text on inline code.
func TestContrast(t *testing.T) {
	for name, s := range map[string]scheme{"light": lightScheme, "dark": darkScheme} {
		roles := map[string]string{"text": s.Fg, "muted": s.Muted, "accent": s.Accent, "user": s.User,
			"assistant": s.Assistant, "error": s.Error, "warning": s.Warning, "success": s.Success}
		for role, fg := range roles {
			for bgName, bg := range map[string]string{"page": s.Bg, "code block": s.CodeBg} {
				if r := ratio(t, fg, bg); r < 4.5 {
					t.Errorf("%s: %s %s on the %s's %s is %.2f:1, below 4.5:1", name, role, fg, bgName, bg, r)
				}
			}
		}
		if r := ratio(t, s.Fg, s.InlineBg); r < 4.5 {
			t.Errorf("%s: inline code is %.2f:1, below 4.5:1", name, r)
		}
	}
}
