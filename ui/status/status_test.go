package status

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"

	"muse/session"
	"muse/theme/themetest"
)

// Each way a tool call waits for the user has its own line; none waits,
// none.
func TestToolPrompt(t *testing.T) {
	for _, c := range []struct {
		ask  Ask
		want string
	}{
		{Ask{}, ""},
		{Ask{Name: "ls"}, ""},
		{Ask{Name: "ls", Approval: true}, "tool ls waits for your answer"},
		{Ask{Name: "ls", Approval: true, PasteRefused: true}, "an answer right behind a paste is not taken: press it again"},
		{Ask{Name: "ls", Result: true, HasCommand: true}, "waiting for you: type why ls should not run, or esc"},
		{Ask{Name: "ls", Result: true}, "waiting for you: type the result of ls below"},
		{Ask{Name: "l\x1b[2Js", Approval: true}, "tool ls waits for your answer"},
	} {
		if got := ToolPrompt(c.ask); got != c.want {
			t.Errorf("%+v: %q, want %q", c.ask, got, c.want)
		}
	}
}

// A long notice takes two lines, the first above the status line, the
// second cut with "…"; while a reply streams it takes the row above, and
// the spinner keeps the line.
func TestNoticeLines(t *testing.T) {
	s := State{Width: 60, Notice: strings.Repeat("word ", 40), Params: session.Params{Model: "m"}}
	lines := New().NoticeLines(s)
	if len(lines) != 2 || New().NoticeHeight(s) != 1 || !strings.HasSuffix(lines[1], "…") || !ShowsNotice(s) {
		t.Fatalf("lines %q", lines)
	}
	if New().NoticeAbove(themetest.Styles(t), s) == "" {
		t.Error("no line above the status line")
	}
	s.Notice = "short"
	if New().NoticeHeight(s) != 0 || New().NoticeAbove(themetest.Styles(t), s) != "" {
		t.Error("a short notice takes a row above")
	}
	s.Turn = &Turn{}
	if l := New().NoticeLines(s); len(l) != 2 || l[0] != "short" || ShowsNotice(s) {
		t.Errorf("while a reply streams: %q", l)
	}
}

// The line fits its width whatever it holds; idle, it keeps the settings
// that change what is sent; with a turn or an image in flight, "esc
// cancels" comes before them.
func TestViewFits(t *testing.T) {
	st := themetest.Styles(t)
	temp := 0.5
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	base := State{Width: 50, Now: now, Spinner: "*", Params: session.Params{Model: "claude-x", MaxTokens: 8000, Temperature: &temp},
		Usage: session.Usage{InputTokens: 1200, OutputTokens: 300}, Branches: "3 branches", LastStop: "end_turn"}
	for name, s := range map[string]State{
		"idle":   base,
		"notice": func() State { s := base; s.Notice = strings.Repeat("long notice ", 10); return s }(),
		"turn": func() State {
			s := base
			s.Turn = &Turn{Started: now.Add(-3 * time.Second), Tokens: 90, Streaming: true}
			return s
		}(),
		"retry": func() State {
			s := base
			s.Turn = &Turn{Retry: "overloaded", RetryAt: now.Add(2 * time.Second), RetryAttempt: 2}
			return s
		}(),
		"image": func() State {
			s := base
			s.Image = &Image{Phase: "downloading", Done: 1, Total: 4}
			s.Progress = func(float64) string { return "[=   ]" }
			return s
		}(),
		"selected": func() State {
			s := base
			s.Selected = &Selected{Entry: session.Entry{Kind: session.KindUser}, Name: "prompt", Count: 3}
			return s
		}(),
		"unsaved": func() State { s := base; s.SaveErr = "disk full"; return s }(),
	} {
		v := New().View(st, s)
		if w := lipgloss.Width(v); w > s.Width {
			t.Errorf("%s: %d wide: %q", name, w, v)
		}
		// A notice, a selection and an unsaved session keep their whole
		// line; a turn or an image in flight says what it does and how
		// to stop it first; the rest leave the settings their room.
		keepsLeft := s.Notice != "" || s.Selected != nil || s.SaveErr != ""
		if !keepsLeft && s.Turn == nil && s.Image == nil && !strings.Contains(v, "t0.5") && !strings.Contains(v, "temp 0.5") {
			t.Errorf("%s: the temperature is not shown: %q", name, v)
		}
		if (s.Turn != nil || s.Image != nil) && !strings.Contains(v, "· esc cancels") {
			t.Errorf("%s: esc cancels is not shown: %q", name, v)
		}
	}
}

// The key changes with what the line shows: a tool's progress, the
// tenth of a second, the notice; not with the clock within the tenth.
func TestKey(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	s := State{Width: 80, Now: now, Turn: &Turn{Started: now, Running: "ls"}}
	k := Key(s)
	s.Now = now.Add(50 * time.Millisecond)
	if Key(s) != k {
		t.Error("the key changed within a tenth of a second")
	}
	for name, change := range map[string]func(State) State{
		"progress": func(s State) State { t := *s.Turn; t.Progress = "2/3"; s.Turn = &t; return s },
		"tenth":    func(s State) State { s.Now = now.Add(150 * time.Millisecond); return s },
		"notice":   func(s State) State { s.Notice = "hi"; return s },
	} {
		if Key(change(s)) == k {
			t.Errorf("%s: the key did not change", name)
		}
	}
}

// The status line's state changes only in the copy returned: a notice,
// a failed request, why the session is not saved, kept notices and the
// rows the notice takes.
func TestModel(t *testing.T) {
	m := New().Note("first").Keep().Note("second").Keep().Failed("req").Unsaved("disk full")
	before := m
	m = m.Note("").Keep()
	if before.Notice() != "second" || m.Notice() != "" || m.Notices().Len() != 2 {
		t.Errorf("notice %q, before %q, kept %d", m.Notice(), before.Notice(), m.Notices().Len())
	}
	s := m.Note("n").Fill(State{Width: 40})
	if s.Notice != "n" || s.LastErr != "req" || s.SaveErr != "disk full" {
		t.Errorf("filled %+v", s)
	}
	if m.Saved(nil, 1).SaveErr() != "disk full" || m.Saved(nil, 0).SaveErr() != "" || m.Reset().LastErr() != "" {
		t.Error("saved or reset")
	}
	long := State{Width: 30, Notice: strings.Repeat("a long notice that wraps ", 4)}
	if !m.Resized(long) || m.SetRows(long).Resized(long) || m.SetRows(long).Rows() != 1 {
		t.Error("rows")
	}
}
