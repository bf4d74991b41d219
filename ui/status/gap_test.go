package status

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"muse/session"
	"muse/theme/themetest"
)

// At every width, the settings on the right stand at least two blanks
// from what the left part says, or are left out: never "stop end_turn
// approve all", which reads as one phrase.
func TestViewKeepsTwoBlanksBeforeSettings(t *testing.T) {
	st := themetest.Styles(t)
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	temp := 0.5
	for _, approve := range []bool{false, true} {
		for _, stop := range []string{"", "end_turn", "max_tokens"} {
			for w := 20; w <= 160; w++ {
				s := State{Width: w, Now: now, Spinner: "*", LastStop: stop, Branches: "2 branches",
					Params:      session.Params{Model: "demo-chat", Temperature: &temp},
					ImageParams: session.ImageParams{Model: "demo-image"},
					Usage:       session.Usage{InputTokens: 417, OutputTokens: 149}}
				first := "demo-chat"
				if approve {
					s.Approve, first = Setting{Long: "approve all", Short: "all!"}, "all"
				}
				line := ansi.Strip(New().View(st, s))
				if n := ansi.StringWidth(line); n > w {
					t.Fatalf("width %d: the line is %d wide: %q", w, n, line)
				}
				i := strings.LastIndex(line, first)
				if approve && i > 0 && strings.HasSuffix(line[:i], "approve ") {
					i -= len("approve ")
				}
				if i < 0 {
					continue // the settings are left out
				}
				if before := line[:i]; strings.TrimSpace(before) != "" && !strings.HasSuffix(before, "  ") {
					t.Errorf("width %d: the settings touch the left part: %q", w, line)
				}
			}
		}
	}
}
