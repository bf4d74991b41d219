package status

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"muse/session"
	"muse/theme/themetest"
	"muse/ui/textfmt"
)

// demoStates are the demo's screens (`muse --demo`: demo-chat, and
// demo-image for /image) at width: idle after a reply, after a reply cut
// at max_tokens, after a failed turn, while a reply streams a minute in,
// while a tool runs, while an image is made and while a tool waits for
// approval.
func demoStates(width int, model string) map[string]State {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	base := State{Width: width, Now: now, Spinner: "⠋", LastStop: "end_turn",
		Params: session.Params{Model: model}, ImageParams: session.ImageParams{Model: "demo-image"},
		Usage: session.Usage{InputTokens: 539, OutputTokens: 19}}
	with := func(f func(*State)) State { s := base; f(&s); return s }
	return map[string]State{
		"idle":       base,
		"max_tokens": with(func(s *State) { s.LastStop = "max_tokens" }),
		"failed":     with(func(s *State) { s.LastErr = "failed: overloaded_error (in the stream, after HTTP 200)" }),
		"streaming": with(func(s *State) {
			s.Turn = &Turn{Started: now.Add(-65 * time.Second), Tokens: 300, Streaming: true}
		}),
		"tool":     with(func(s *State) { s.Turn = &Turn{Started: now, Running: "get_time", Progress: "2/3"} }),
		"image":    with(func(s *State) { s.Image = &Image{Phase: "generating", Started: now.Add(-2 * time.Second)} }),
		"approval": with(func(s *State) { s.Turn = &Turn{Started: now}; s.Ask = Ask{Name: "get_time", Approval: true} }),
	}
}

// At every width from 40 columns, the status line says what is happening
// and how to stop it whole ("streaming 1m05s · esc cancels", never
// "streaming 1…"), a failure or an unusual stop whole, and cuts nothing
// in its middle: a part that does not fit is left out. Its settings
// never show a raw label like "img:demo-image".
func TestEveryWidthSaysWhatAndHowToStop(t *testing.T) {
	st := themetest.Styles(t)
	must := map[string][]string{
		"max_tokens": {"stop max_tokens"},
		"failed":     {"✗ ", "overloaded_error"},
		"streaming":  {"⠋ streaming 1m05s", "· esc cancels"},
		"tool":       {"⠋ running tool get_time", "· esc cancels"},
		"image":      {"⠋ generating 2.0s", "· esc cancels"},
		"approval":   {"tool get_time waits"},
	}
	for w := 40; w <= 160; w++ {
		for name, s := range demoStates(w, "demo-chat") {
			line := ansi.Strip(New().View(st, s))
			if n := textfmt.Width(line); n != w {
				t.Fatalf("%s at %d: %d wide: %q", name, w, n, line)
			}
			for _, m := range must[name] {
				if !strings.Contains(line, m) {
					t.Errorf("%s at %d: %q is not said whole: %q", name, w, m, line)
				}
			}
			if strings.Contains(line, "…") || strings.Contains(line, "img:") {
				t.Errorf("%s at %d: %q", name, w, line)
			}
		}
	}
	// What 40 columns show: what happens and its key, the model where
	// it fits beside them (the header names it too).
	for name, want := range map[string]string{
		"idle":      "in 539 out 19   demo-chat img demo-image",
		"failed":    "in 539 out 19 · ✗ overloaded_error",
		"streaming": "⠋ streaming 1m05s · esc cancels",
		"image":     "⠋ generating 2.0s · esc cancels",
		"approval":  "tool get_time waits            demo-chat",
	} {
		if got := strings.TrimRight(ansi.Strip(New().View(st, demoStates(40, "demo-chat")[name])), " "); got != want {
			t.Errorf("%s at 40: %q, want %q", name, got, want)
		}
	}
}

// A model named in wide characters and an emoji is measured in the
// columns the terminal draws (by grapheme cluster): the line is never
// wider than its width, and the model is whole or left out.
func TestSettingsMeasuredByCluster(t *testing.T) {
	st := themetest.Styles(t)
	model := "モデル-👨‍👩‍👧-chat"
	for w := 20; w <= 100; w++ {
		for name, s := range demoStates(w, model) {
			line := ansi.Strip(New().View(st, s))
			if n := textfmt.Width(line); n > w {
				t.Fatalf("%s at %d: %d wide: %q", name, w, n, line)
			}
			if strings.Contains(line, "モデル") && !strings.Contains(line, model) {
				t.Errorf("%s at %d: the model is cut: %q", name, w, line)
			}
		}
	}
}
