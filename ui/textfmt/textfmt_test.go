package textfmt

import (
	"github.com/charmbracelet/lipgloss"
	"muse/ui/internal/streamtest"
	"strings"
	"testing"
)

func TestWrapHanging(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		width    int
		want     string
	}{
		{"fits", "  short line", 20, "  short line"},
		{"two columns", "  /copy [N]   copy the last reply or one before it", 30,
			"  /copy [N]   copy the last\n" +
				"              reply or one\n" +
				"              before it"},
		{"indented prose", "  a long line of prose that wraps", 16,
			"  a long line of\n  prose that\n  wraps"},
		{"second column too far right", "x                         far away words here", 30,
			"x                         far\naway words here"},
		{"lines kept apart", "one\n  two  three four five", 12,
			"one\n  two  three\n  four five"},
		{"second column at half the width", "  ab  cd ef gh", 12,
			"  ab  cd ef\n      gh"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := WrapHanging(tc.in, tc.width)
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			for _, l := range strings.Split(got, "\n") {
				if len([]rune(l)) > tc.width {
					t.Errorf("row %q is wider than %d", l, tc.width)
				}
			}
		})
	}
}

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 matches", 1: "1 match", 2: "2 matches"} {
		if got := Plural(n, "match"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
	for thing, want := range map[string]string{"line": "3 lines", "new entry": "3 new entries", "day": "3 days"} {
		if got := Plural(3, thing); got != want {
			t.Errorf("Plural(3, %q) = %q, want %q", thing, got, want)
		}
	}
}

func TestWrapHangingLeavesTwentyColumns(t *testing.T) {
	line := "  /copy [N|code [N]]               copy the last reply; N: message N from the end"
	got := WrapHanging(line, 60)
	for _, row := range strings.Split(got, "\n")[1:] {
		if !strings.HasPrefix(row, strings.Repeat(" ", 35)) || row[35] == ' ' {
			t.Errorf("row %q does not start under the second column (35):\n%s", row, got)
		}
	}
}

// TestWrapLongWordCostIsLinear wraps a prompt or a tool's output holding
// one long word, as the chat screen shows them: four times the word takes
// at most five times the bytes, and the word is cut at the width.
func TestWrapLongWordCostIsLinear(t *testing.T) {
	word := func(n int) string { return strings.Repeat("aB3+/xY9=Qz", n/11) }
	cost := func(n int) uint64 {
		w := word(n)
		return streamtest.Allocated(func() {
			Wrap("run: "+w+" now", 80)
			WrapHanging("  /cmd   "+w, 80)
		})
	}
	cost(100)
	small, large := cost(100000), cost(400000)
	if large > 5*small {
		t.Errorf("a word four times as long took %.1f times the bytes (%d, %d); want at most 5", float64(large)/float64(small), small, large)
	}
	w := word(1000)
	rows := strings.Split(Wrap(w, 80), "\n")
	if strings.Join(rows, "") != w || len(rows[0]) != 80 {
		t.Errorf("the word is not cut at the width: %q", rows[0])
	}
}

func TestTruncateRunes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exact", 5, "exact"},
		{"héllo wörld", 5, "héllo…"},
		{"", 0, ""},
		{"x", 0, "…"},
		{"ab👨‍👩‍👧", 4, "ab…"}, // the family is five runes: it goes whole
		{"n\u0303o", 1, "…"},
	} {
		if got := TruncateRunes(tc.in, tc.n); got != tc.want {
			t.Errorf("TruncateRunes(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
	// It copies no more than the cut: cutting 2 MB costs the cut (801
	// bytes), not a copy of the text (2 MB, 4 MB as runes). The slack, a
	// 32nd of the text, is for what the runtime allocates meanwhile.
	long := strings.Repeat("é", 1<<20)
	if b := streamtest.Allocated(func() { sink = TruncateRunes(long, 400) }); b > uint64(len(long))/32 {
		t.Errorf("cutting 400 runes off %d bytes allocated %d bytes", len(long), b)
	}
}

// sink keeps a result a test measures, so that it is used.
var sink string

func TestWrapAfter(t *testing.T) {
	got := WrapAfter("   revised: ", "a red fox sitting in a snowy forest at dawn", 30)
	want := "   revised: a red fox sitting\n            in a snowy forest\n            at dawn"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got, want := WrapAfter("  label: ", "a b c d e f g h", 12), Wrap("  label: a b c d e f g h", 12); got != want {
		t.Errorf("narrow: got %q, want %q", got, want)
	}
}

// A path is never broken: it fits whole, or folders from its middle are
// left out, and the file's name stays whole.
func TestFitPath(t *testing.T) {
	p := "~/.local/share/muse/sessions/images/20261128-093000-abcd/turn-1-image-1.png"
	for _, c := range []struct {
		width int
		want  string
	}{
		{200, p},
		{60, "~/…/sessions/images/20261128-093000-abcd/turn-1-image-1.png"},
		{50, "~/…/images/20261128-093000-abcd/turn-1-image-1.png"},
		{30, "~/…/turn-1-image-1.png"},
		{21, "…/turn-1-image-1.png"},
		{10, "turn-1-image-1.png"},
	} {
		got := FitPath(p, c.width)
		if got != c.want {
			t.Errorf("FitPath(%d) = %q, want %q", c.width, got, c.want)
		}
		if c.width >= 20 && lipgloss.Width(got) > c.width {
			t.Errorf("FitPath(%d) = %q is wider", c.width, got)
		}
	}
	if got := FitPath("/tmp/x.png", 3); got != "x.png" {
		t.Errorf("narrower than the name: %q, want the name whole", got)
	}
	if got := FitPath("x.png", 3); got != "x.png" {
		t.Errorf("a bare name: %q", got)
	}
}

// TruncateWidth cuts between clusters.
func TestTruncateByCluster(t *testing.T) {
	for _, c := range []string{"👍🏽", "🇫🇷", "👨‍👩‍👧", "n\u0303"} {
		s := strings.Repeat(c, 10)
		got := TruncateWidth(s, 5)
		if !strings.HasSuffix(got, "…") || strings.TrimSuffix(got, "…") != strings.Repeat(c, len(strings.TrimSuffix(got, "…"))/len(c)) {
			t.Errorf("%q cut to %q", s, got)
		}
		if Width(got) > 5 {
			t.Errorf("%q is wider than 5", got)
		}
	}
}
