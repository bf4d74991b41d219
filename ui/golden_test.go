package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"muse/api/demo"
)

// TestGoldens drives the chat screen as a person would and compares the final
// screen with testdata/TestGoldens/<case>.golden (go test ./ui -update rewrites them).
func TestGoldens(t *testing.T) {
	cases := []struct {
		name  string
		w, h  int
		steps func(t *testing.T, tm *testDriver)
		check string // a string the final view must hold
	}{
		{"empty", 80, 24, func(t *testing.T, d *testDriver) {}, "Ask anything"},
		{"reply_with_code", 80, 40, func(t *testing.T, d *testDriver) {
			d.send("show me some go code")
			d.wait("stop end_turn")
		}, "package main"},
		{"thinking_collapsed", 80, 50, func(t *testing.T, d *testDriver) {
			d.send("demo:think about it")
			d.wait("stop end_turn")
		}, "thinking · "},
		{"thinking_expanded", 80, 30, func(t *testing.T, d *testDriver) {
			d.send("demo:think about it")
			d.wait("stop end_turn")
			d.key(tea.KeyMsg{Type: tea.KeyCtrlT})
			d.key(tea.KeyMsg{Type: tea.KeyHome})
		}, "I should answer with a heading"},
		{"error", 80, 24, func(t *testing.T, d *testDriver) {
			d.send("demo:overloaded now")
			d.wait("overloaded_error")
		}, "✗ error 529 overloaded_error"},
		{"max_tokens", 80, 24, func(t *testing.T, d *testDriver) {
			d.send("/max-tokens 25")
			d.send("a long answer please")
			d.wait("stop max_tokens")
		}, "reply cut at max_tokens · /continue"},
		{"help", 80, 30, func(t *testing.T, d *testDriver) {
			d.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("?")})
		}, "ctrl+a"},
		{"small_60x20", 60, 20, func(t *testing.T, d *testDriver) {
			d.send("hello there")
			d.wait("hello there") // quit waits for the end of the turn
		}, "Ask anything"},
		{"grown_input", 60, 20, func(t *testing.T, d *testDriver) {
			// Longer than a row: the input grows with its wrapped rows.
			d.tm.Type("a prompt that is longer than one row of the input, so it wraps onto the rows below it, and the input grows to show them all")
			d.wait("them all")
		}, "them all"},
		{"selection", 80, 24, func(t *testing.T, d *testDriver) {
			d.send("hello there")
			d.wait("stop end_turn")
			d.key(tea.KeyMsg{Type: tea.KeyCtrlUp})
			d.key(tea.KeyMsg{Type: tea.KeyUp})
			d.wait("selected: prompt, 1 of 2")
		}, "▌ you"},
		{"tiny_40x10", 40, 10, func(t *testing.T, d *testDriver) {
			d.send("hello there")
			d.wait("hello there") // quit waits for the end of the turn
		}, "demo-chat"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 0)
			tm := start(t, h.model(t, nil), tc.w, tc.h)
			d := &testDriver{t: t, tm: tm}
			tc.steps(t, d)
			m := quit(t, tm)
			view := m.View()
			if !strings.Contains(view, tc.check) {
				t.Errorf("view lacks %q:\n%s", tc.check, view)
			}
			for i, line := range strings.Split(view, "\n") {
				if w := visibleWidth(line); w > tc.w {
					t.Errorf("line %d is %d wide, more than %d: %q", i, w, tc.w, line)
				}
			}
			if n := strings.Count(view, "\n") + 1; n != tc.h {
				t.Errorf("view has %d lines, want %d", n, tc.h)
			}
			golden.RequireEqual(t, []byte(view))
		})
	}
}

// The first screen welcomes: the keys that matter and, under --demo, the
// words to try.
func TestWelcomeGolden(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {40, 10}} {
		t.Run(fmt.Sprintf("demo_%dx%d", size.w, size.h), func(t *testing.T) {
			h := newHarness(t, 0)
			m := h.model(t, nil)
			prompt, image := demo.Keywords()
			m.opts.DemoWords = &DemoWords{Prompt: prompt, Image: image}
			tm := start(t, m, size.w, size.h)
			view := quit(t, tm).View()
			for _, want := range []string{"Welcome to muse.", "enter", "send"} {
				if !strings.Contains(view, want) {
					t.Errorf("view lacks %q:\n%s", want, view)
				}
			}
			if size.h >= 24 && (!strings.Contains(view, "demo:tool") || !strings.Contains(view, "demo:404")) {
				t.Errorf("the demo words are missing:\n%s", view)
			}
			for i, line := range strings.Split(view, "\n") {
				if w := visibleWidth(line); w > size.w {
					t.Errorf("line %d is %d wide: %q", i, w, line)
				}
			}
			if n := strings.Count(view, "\n") + 1; n != size.h {
				t.Errorf("view has %d lines, want %d", n, size.h)
			}
			golden.RequireEqual(t, []byte(view))
		})
	}
}
