package textfmt

import (
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
	if got := Plural(3, "line"); got != "3 lines" {
		t.Errorf("got %q", got)
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
