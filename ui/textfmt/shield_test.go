package textfmt

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
)

// TestShieldRoundTrip hides the clusters glamour would mis-measure behind
// placeholders as wide as the terminal draws them, in both width modes,
// and Restore gives the text back byte for byte; ASCII and n with a
// combining tilde (1 column in every measure) are left alone.
func TestShieldRoundTrip(t *testing.T) {
	src := "a 👍🏽 b 🇫🇷 c 👨‍👩‍👧 d n\u0303o 👨‍👩‍👧"
	for _, mode := range []WidthMode{Clusters, CodePoints} {
		SetWidthMode(mode)
		got, sh := Shield(src)
		if strings.Contains(got, "👨") || !strings.Contains(got, "n\u0303o") {
			t.Errorf("mode %d: Shield = %q", mode, got)
		}
		if w, want := Width(got), Width(src); w != want {
			t.Errorf("mode %d: the shielded text is %d columns, the text %d", mode, w, want)
		}
		if back := sh.Restore(got); back != src {
			t.Errorf("mode %d: Restore = %q, want %q", mode, back, src)
		}
	}
	SetWidthMode(Clusters)
	if got, _ := Shield("plain ascii"); got != "plain ascii" {
		t.Errorf("ASCII changed: %q", got)
	}
}

// TestRestoreCutPlaceholder: a placeholder cut short (a table cell cut)
// leaves blanks as wide as what is left of it, never part of a cluster.
func TestRestoreCutPlaceholder(t *testing.T) {
	SetWidthMode(CodePoints)
	defer SetWidthMode(Clusters)
	got, sh := Shield("x👨‍👩‍👧")
	cut := string([]rune(got)[:3]) // x and 2 of the family's 6 columns
	if back := sh.Restore(cut); back != "x  " {
		t.Errorf("Restore(cut) = %q, want %q", back, "x  ")
	}
}

// TestFitCutsWideLines cuts only lines wider than the width.
func TestFitCutsWideLines(t *testing.T) {
	SetWidthMode(CodePoints)
	defer SetWidthMode(Clusters)
	got := Fit("ab👨‍👩‍👧cd\nshort", 8)
	if got != "ab👨‍👩‍👧\nshort" {
		t.Errorf("Fit = %q", got)
	}
}

// A lipgloss box around text holding 👨‍👩‍👧 and 👍🏽 keeps its right border in
// one column, and Wrap breaks rows at the width, in both width modes.
func TestRenderAndWrapAtTerminalWidths(t *testing.T) {
	box := lipgloss.NewStyle().Border(lipgloss.NormalBorder()).Width(16)
	for _, mode := range []WidthMode{Clusters, CodePoints} {
		SetWidthMode(mode)
		lines := strings.Split(Render(box, "a 👨‍👩‍👧 b\n👍🏽👍🏽 c\nplain"), "\n")
		for _, l := range lines {
			if Width(l) != Width(lines[0]) {
				t.Errorf("mode %d: row %q is %d columns, the top %d", mode, l, Width(l), Width(lines[0]))
			}
		}
		for _, row := range strings.Split(Wrap(strings.Repeat("👨‍👩‍👧 go ", 6), 20), "\n") {
			if Width(row) > 20 {
				t.Errorf("mode %d: Wrap made a row of %d columns: %q", mode, Width(row), row)
			}
		}
	}
	SetWidthMode(Clusters)
}

// A highlighter that colours each character puts styles between a
// placeholder's runes: the cluster comes back whole, the styles after it.
func TestRestoreStyledPlaceholder(t *testing.T) {
	SetWidthMode(CodePoints)
	defer SetWidthMode(Clusters)
	got, sh := Shield("a👍🏽b")
	var styled strings.Builder
	for _, r := range got {
		styled.WriteString("\x1b[38;5;1m" + string(r) + "\x1b[0m")
	}
	back := sh.Restore(styled.String())
	if want := "\x1b[38;5;1ma\x1b[0m\x1b[38;5;1m👍🏽\x1b[0m\x1b[38;5;1m\x1b[0m\x1b[38;5;1m\x1b[0m\x1b[38;5;1m\x1b[0m\x1b[38;5;1mb\x1b[0m"; back != want {
		t.Errorf("Restore = %q, want %q", back, want)
	}
}
