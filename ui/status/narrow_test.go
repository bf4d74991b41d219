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

// TestNarrowKeepsSettingsAndEsc: at 60 and 80 columns, with a model and
// an image model set, the line keeps every setting that changes what is
// sent during an approval and while a reply streams, runs a tool, retries
// or an image downloads, and "esc cancels" stays whole wherever a turn can
// be cancelled, or absent where what waits is said whole instead; the line
// never overflows. The tool prompt and the rate give way instead.
func TestNarrowKeepsSettingsAndEsc(t *testing.T) {
	st := themetest.Styles(t)
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, width := range []int{60, 80, 120} {
		base := State{Width: width, Now: now, Spinner: "⠋",
			Params:      session.Params{Model: "demo-chat"},
			ImageParams: session.ImageParams{Model: "demo-image"}}
		cases := map[string]State{
			"approval": func() State { s := base; s.Ask = Ask{Name: "get_time", Approval: true}; return s }(),
			"typed result": func() State {
				s := base
				s.Ask = Ask{Name: "a_long_tool_name_here", Result: true, HasCommand: true}
				return s
			}(),
			"streaming": func() State {
				s := base
				s.Turn = &Turn{Started: now.Add(-12 * time.Second), Tokens: 900, Streaming: true}
				return s
			}(),
			"tool": func() State {
				s := base
				s.Turn = &Turn{Running: "a_very_long_tool_name_indeed", Progress: "step 3 of 10, reading"}
				return s
			}(),
			"retry": func() State {
				s := base
				s.Turn = &Turn{Retry: "overloaded_error", RetryAt: now.Add(2 * time.Second), RetryAttempt: 2}
				return s
			}(),
			"image": func() State {
				s := base
				s.Image = &Image{Phase: "downloading", Done: 1, Total: 4, Started: now}
				s.Progress = func(float64) string { return "[=====     ]" }
				return s
			}(),
		}
		for name, s := range cases {
			v := ansi.Strip(New().View(st, s))
			if w := textfmt.Width(v); w > width {
				t.Errorf("%d %s: %d columns: %q", width, name, w, v)
			}
			// What a chat turn does (a running tool's whole name, why a
			// retry waits) comes before the image model, which the turn
			// does not send.
			if !strings.Contains(v, "demo-chat") || !strings.Contains(v, "demo-image") && s.Turn == nil {
				t.Errorf("%d %s: a setting that changes what is sent is gone: %q", width, name, v)
			}
			// "esc cancels" is whole or, where what waits is said whole
			// instead, absent: never "es…". A stream always has it.
			if s.Turn != nil || s.Image != nil {
				esc := strings.Contains(v, "· esc cancels")
				if !esc && (strings.Contains(v, "· e") || strings.Contains(v, "…  ")) || !esc && name == "streaming" {
					t.Errorf("%d %s: esc cancels is cut: %q", width, name, v)
				}
			}
			if s.Ask.Approval && !strings.Contains(v, "tool get_time waits") {
				t.Errorf("%d %s: the prompt does not name the tool: %q", width, name, v)
			}
		}
	}
}

// TestPathNoticeFitsOneLine: a notice naming a long path takes one row
// where "…" for folders from the path's middle makes it fit (the file's
// name whole), at 80 and 120 columns; one that fits is left as it is.
func TestPathNoticeFitsOneLine(t *testing.T) {
	path := "~/.local/share/muse/images/20261128-185637-cb6fe7ec02cffb48/turn-1-image-1-b44b9a46a639.png"
	for _, width := range []int{60, 80, 120} {
		s := State{Width: width, Notice: "opened " + path + ".", Params: session.Params{Model: "demo-chat"}}
		l := New().NoticeLines(s)
		if len(l) != 1 || New().NoticeHeight(s) != 0 {
			t.Fatalf("%d: %d rows: %q", width, len(l), l)
		}
		if textfmt.Width(l[0]) > width || !strings.HasSuffix(l[0], "/turn-1-image-1-b44b9a46a639.png.") || !strings.HasPrefix(l[0], "opened ~/") {
			t.Errorf("%d: %q", width, l[0])
		}
	}
	s := State{Width: 200, Notice: "opened " + path, Params: session.Params{Model: "demo-chat"}}
	if l := New().NoticeLines(s); len(l) != 1 || l[0] != "opened "+path {
		t.Errorf("a notice that fits changed: %q", l)
	}
	// A short path stays whole, and so do paths that, shortened, would
	// still wrap: the consent notice names the key it left out as typed.
	key := "not attached: ~/.ssh/id_rsa is in ~/.ssh, where keys and credentials are kept · a mention never attaches such a file: /attach it to send it · enter sends the text"
	for _, width := range []int{120, 160} {
		if got := fitPaths(key, width); got != key {
			t.Errorf("%d: a notice with a short path changed: %q", width, got)
		}
	}
	// A long notice with no path still wraps, as before.
	s = State{Width: 60, Notice: strings.Repeat("word ", 20), Params: session.Params{Model: "demo-chat"}}
	if l := New().NoticeLines(s); len(l) != 2 {
		t.Errorf("a long notice without a path: %q", l)
	}
}

// TestFitPathsByGraphemeCluster: a path of wide and combined characters
// is shortened by its width in cells, not its bytes or runes.
func TestFitPathsByGraphemeCluster(t *testing.T) {
	text := "saved /home/名前/写真/家族/👨‍👩‍👧/2026/e\u0301te\u0301/picture.png"
	for _, width := range []int{30, 40, 50} {
		got := fitPaths(text, width)
		if textfmt.Width(got) > width || !strings.HasSuffix(got, "/picture.png") || !strings.HasPrefix(got, "saved /") {
			t.Errorf("%d: %q is %d wide", width, got, textfmt.Width(got))
		}
	}
}
