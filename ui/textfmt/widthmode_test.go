package textfmt

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// withMode runs the test in width mode m, and restores Clusters after.
func withMode(t *testing.T, m WidthMode) {
	t.Helper()
	SetWidthMode(m)
	t.Cleanup(func() { SetWidthMode(Clusters) })
}

// TestWidthModes measures the clusters the terminals disagree on in both
// modes: kitty's (Clusters) and xterm's and alacritty's (CodePoints).
func TestWidthModes(t *testing.T) {
	cases := []struct {
		s                   string
		clusters, codepoint int
	}{
		{"👍🏽", 2, 4}, {"🇫🇷", 2, 2}, {"👨‍👩‍👧", 2, 6}, {"n\u0303", 1, 1}, {"ab", 2, 2}, {"界", 2, 2},
		{"\x1b[1m👨‍👩‍👧\x1b[0m x", 4, 8},
	}
	for _, c := range cases {
		if got := Width(c.s); got != c.clusters {
			t.Errorf("Clusters: Width(%q) = %d, want %d", c.s, got, c.clusters)
		}
	}
	withMode(t, CodePoints)
	for _, c := range cases {
		if got := Width(c.s); got != c.codepoint {
			t.Errorf("CodePoints: Width(%q) = %d, want %d", c.s, got, c.codepoint)
		}
	}
}

// TestCutCodePoints cuts styled lines between clusters at the width xterm
// draws them at, keeping their escapes.
func TestCutCodePoints(t *testing.T) {
	withMode(t, CodePoints)
	line := "\x1b[31mab👨‍👩‍👧cd\x1b[0m"
	for width, want := range map[int]string{2: "ab", 7: "ab", 8: "ab👨‍👩‍👧", 9: "ab👨‍👩‍👧c", 20: "ab👨‍👩‍👧cd"} {
		got := Cut(line, width)
		if ansi.Strip(got) != want {
			t.Errorf("Cut(%d) = %q, want %q", width, ansi.Strip(got), want)
		}
		if got[len(got)-4:] != "\x1b[0m" {
			t.Errorf("Cut(%d) = %q dropped the closing reset", width, got)
		}
	}
	if got := TruncateWidth("a👍🏽b", 5); got != "a…" {
		t.Errorf("TruncateWidth = %q, want a…", got)
	}
}
