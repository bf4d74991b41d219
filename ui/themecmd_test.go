package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"muse/api"
	"muse/session"
)

// themedScreen is a chat screen at 80x24 showing a prompt and a reply in
// markdown, its styles in 256 colours (the other tests draw without).
func themedScreen(t *testing.T) Model {
	t.Helper()
	lipgloss.SetColorProfile(termenv.ANSI256)
	t.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	h := newHarness(t, 0)
	m := h.modelWith(t, nil, func(o *Options) { o.Profile = termenv.ANSI256 })
	next, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m = next.(Model)
	m.conv = m.conv.Note(session.Entry{Kind: session.KindUser, Text: "hello"}, m.now())
	m.conv = m.conv.Note(session.Entry{Kind: session.KindAssistant, Status: session.StatusComplete,
		Message: &api.Message{Model: "demo-chat", Content: []api.ContentBlock{{Type: api.BlockText, Text: "# Heading\n\nSome *text*."}}}}, m.now())
	return m.layout()
}

// typeLine types line in the input and sends it, and runs the command it
// returns, as the program would, until no message comes.
func typeLine(t *testing.T, m Model, line string) Model {
	t.Helper()
	m.comp = m.comp.SetInput(m.comp.Input().SetValue(line))
	next, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	for cmd != nil {
		msg := cmd()
		if msg == nil {
			break
		}
		next, cmd = next.(Model).Update(msg)
	}
	return next.(Model)
}

// /theme NAME switches the whole screen at once: the chrome and the
// conversation, whose renders cached by width are drawn again in the new
// colours; alone, /theme names the theme on.
func TestThemeSwitchesLive(t *testing.T) {
	m := themedScreen(t)
	dark := m.View()
	// The dark theme's "you" (212) and glamour's dark text (252).
	for _, code := range []string{"38;5;212", "38;5;252"} {
		if !strings.Contains(dark, code) {
			t.Fatalf("the dark screen lacks colour %s:\n%q", code, dark)
		}
	}
	m = typeLine(t, m, "/theme light")
	light := m.View()
	if strings.Contains(light, "38;5;212") || !strings.Contains(light, "38;5;162") {
		t.Errorf("the label \"you\" kept its dark colour:\n%q", light)
	}
	if strings.Contains(light, "38;5;252") || !strings.Contains(light, "38;5;234") {
		t.Errorf("the reply is not drawn in glamour's light style:\n%q", light)
	}
	if m.th.Name != "light" || !strings.Contains(m.status.Notice(), "theme light") {
		t.Errorf("theme %s, notice %q", m.th.Name, m.status.Notice())
	}
	// The screen's background is dark: the light theme says it is made
	// for the other kind, and how to fit it.
	if !strings.Contains(m.status.Notice(), "made for light backgrounds") || !strings.Contains(m.status.Notice(), "/theme auto") {
		t.Errorf("a light theme on a dark background says nothing of it: %q", m.status.Notice())
	}
	m = typeLine(t, m, "/theme")
	if !strings.Contains(m.status.Notice(), "theme light") || !strings.Contains(m.status.Notice(), "/theme NAME") {
		t.Errorf("/theme alone: %q", m.status.Notice())
	}
	if m.conv.Entries()[0].Text != "hello" || len(m.conv.Entries()) != 2 {
		t.Errorf("the conversation changed: %+v", m.conv.Entries())
	}
}

// /theme FILE reads the file off the event loop and switches to it; a bad
// file is refused with its line and what was expected, and the theme on
// stays.
func TestThemeFromFile(t *testing.T) {
	m := themedScreen(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "mine.toml")
	if err := os.WriteFile(good, []byte("[roles]\nuser = \"33\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m.comp = m.comp.SetInput(m.comp.Input().SetValue("/theme " + good))
	next, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd == nil || next.(Model).th.Name != "dark" {
		t.Fatal("the theme file was read on the event loop")
	}
	m = typeLine(t, m, "/theme "+good)
	if v := m.View(); m.th.Name != "mine" || !strings.Contains(v, "38;5;33") {
		t.Errorf("theme %s; view:\n%q", m.th.Name, v)
	}
	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(bad, []byte("[roles]\nuser = \"blue\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m = typeLine(t, m, "/theme "+bad)
	if m.th.Name != "mine" || !strings.Contains(m.status.Notice(), "bad.toml:2:8: roles.user: expected a colour") {
		t.Errorf("theme %s, notice %q", m.th.Name, m.status.Notice())
	}
	m = typeLine(t, m, "/theme pink")
	if m.th.Name != "mine" || !strings.Contains(m.status.Notice(), `no theme "pink"`) || m.comp.Input().Value() != "/theme pink" {
		t.Errorf("theme %s, notice %q, input %q", m.th.Name, m.status.Notice(), m.comp.Input().Value())
	}
}

// Tab completes a theme's name after /theme.
func TestThemeNameCompletes(t *testing.T) {
	m := themedScreen(t)
	m.comp = m.comp.SetInput(m.comp.Input().SetValue("/theme hi"))
	next, _ := m.Update(tea.KeyMsg{Type: tea.KeyTab})
	if got := next.(Model).comp.Input().Value(); got != "/theme high-contrast" {
		t.Errorf("tab gave %q", got)
	}
}
