package ui

import (
	"strings"
	"testing"

	"muse/session"
	"muse/ui/meter"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// /info's counts wrap between one count and the next, never between a
// label and its figure: at every width no line ends in a label ("cache
// write" then 1234 on the next line), and "cache write" stays on one line.
func TestInfoKeepsLabelsWithFigures(t *testing.T) {
	usage := session.Usage{InputTokens: 123456, OutputTokens: 7890, CacheReadInputTokens: 45678, CacheCreationInputTokens: 12345}
	info := infoText(nil, usage, meter.New(meter.Options{}), "", session.Params{Model: "m", MaxTokens: 100})
	for w := 24; w <= 100; w++ {
		text := textfmt.WrapHanging(sanitize.Text(info), w)
		tallyLines, _, _ := strings.Cut(text, "context:")
		for _, l := range strings.Split(tallyLines, "\n") {
			l = strings.TrimRight(l, " \u00a0")
			for _, label := range []string{"in", "out", "read", "write", "cache"} {
				if strings.HasSuffix(l, " "+label) || strings.HasSuffix(l, "\u00a0"+label) {
					t.Fatalf("width %d: %q ends in the label %q:\n%s", w, l, label, text)
				}
			}
		}
		if !strings.Contains(text, "cache\u00a0write\u00a012345") {
			t.Fatalf("width %d: \"cache write 12345\" is broken:\n%s", w, text)
		}
	}
}
