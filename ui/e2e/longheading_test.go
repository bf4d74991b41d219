//go:build linux

package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// The new-user review's long heading, echoed by the demo, shows whole in
// the built binary at 40, 60 and 80 columns: wrapped between words, every
// word there in order, nothing marked cut.
func TestLongHeadingShowsWhole(t *testing.T) {
	t.Parallel()
	const prompt = "demo:long please explain the supercalifragilisticexpialidocious caching layer in great detail"
	want := "Long answer: " + prompt
	for _, width := range []int{40, 60, 80} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			h := newHome(t, "")
			tm := start(t, h, width, 60, "--demo")
			tm.waitFor("Ask anything")
			tm.typ(prompt + "\r")
			tm.waitUntil("the whole heading", waitDeadline, func(s string) bool {
				return strings.Contains(headingText(s), want)
			})
			if h := headingText(tm.screen()); strings.Contains(h, "…") {
				t.Errorf("the heading is marked cut: %q", h)
			}
		})
	}
}

// headingText is the words of screen from the reply's "Long answer:" to
// the blank line under the heading, joined by single spaces.
func headingText(screen string) string {
	_, rest, ok := strings.Cut(screen, "Long answer:")
	if !ok {
		return ""
	}
	var words []string
	for _, l := range strings.Split(rest, "\n") {
		f := strings.Fields(l)
		if len(f) == 0 {
			break
		}
		words = append(words, f...)
	}
	return "Long answer: " + strings.Join(words, " ")
}
