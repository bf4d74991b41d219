package mdwrap

import (
	"strings"
	"testing"

	"muse/ui/textfmt"
)

// TestShieldRoundTrip hides the clusters glamour would mis-measure behind
// placeholders as wide as the terminal draws them, in both width modes,
// and Restore gives the text back byte for byte; ASCII and n with a
// combining tilde (1 column in every measure) are left alone.
func TestShieldRoundTrip(t *testing.T) {
	src := "a 👍🏽 b 🇫🇷 c 👨‍👩‍👧 d n\u0303o 👨‍👩‍👧"
	for _, mode := range []textfmt.WidthMode{textfmt.Clusters, textfmt.CodePoints} {
		textfmt.SetWidthMode(mode)
		got, sh := Shield(src)
		if strings.Contains(got, "👨") || !strings.Contains(got, "n\u0303o") {
			t.Errorf("mode %d: Shield = %q", mode, got)
		}
		if w, want := textfmt.Width(got), textfmt.Width(src); w != want {
			t.Errorf("mode %d: the shielded text is %d columns, the text %d", mode, w, want)
		}
		if back := sh.Restore(got); back != src {
			t.Errorf("mode %d: Restore = %q, want %q", mode, back, src)
		}
	}
	textfmt.SetWidthMode(textfmt.Clusters)
	if got, _ := Shield("plain ascii"); got != "plain ascii" {
		t.Errorf("ASCII changed: %q", got)
	}
}

// TestRestoreCutPlaceholder: a placeholder cut short (a table cell cut)
// leaves blanks as wide as what is left of it, never part of a cluster.
func TestRestoreCutPlaceholder(t *testing.T) {
	textfmt.SetWidthMode(textfmt.CodePoints)
	defer textfmt.SetWidthMode(textfmt.Clusters)
	got, sh := Shield("x👨‍👩‍👧")
	cut := string([]rune(got)[:3]) // x and 2 of the family's 6 columns
	if back := sh.Restore(cut); back != "x  " {
		t.Errorf("Restore(cut) = %q, want %q", back, "x  ")
	}
}

// TestFitCutsWideLines cuts only lines wider than the width.
func TestFitCutsWideLines(t *testing.T) {
	textfmt.SetWidthMode(textfmt.CodePoints)
	defer textfmt.SetWidthMode(textfmt.Clusters)
	got := Fit("ab👨‍👩‍👧cd\nshort", 8)
	if got != "ab👨‍👩‍👧\nshort" {
		t.Errorf("Fit = %q", got)
	}
}
