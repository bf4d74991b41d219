package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"muse/session"
	"muse/theme"
)

// TestOpenWithPreview opens a long session as muse -c does: the first frame
// shows the preview's last reply, keys typed meanwhile wait, and the whole
// session replaces the preview once it is replayed.
func TestOpenWithPreview(t *testing.T) {
	store, err := session.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := benchModel(t, 2000, 100, 40).conv.Entries()
	wr := session.NewWriter(store, session.Params{Model: "m", MaxTokens: 4096})
	if err := wr.AppendAll(src); err != nil {
		t.Fatal(err)
	}
	if err := wr.Close(); err != nil {
		t.Fatal(err)
	}
	w, preview, err := store.OpenWriterAsync(wr.ID(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if len(preview.Entries) >= len(src) {
		t.Fatalf("the preview holds all %d entries", len(preview.Entries))
	}
	th, _ := theme.New("dark", true)
	m := New(Options{Theme: th, Profile: termenv.TrueColor, Writer: w, Preview: preview, Store: store})
	init := m.Init()
	next, _ := m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	if v := next.View(); !strings.Contains(v, "question 1998") {
		t.Fatalf("the first frame does not show the last reply:\n%s", v)
	}
	next, _ = next.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("hi")})
	if got := next.(Model).comp.Input().Value(); got != "" {
		t.Fatalf("a key was handled before the session was replayed: input %q", got)
	}
	msg := init()
	if _, ok := msg.(replayedMsg); !ok {
		t.Fatalf("Init's command returned %T", msg)
	}
	next, _ = next.Update(msg)
	got := next.(Model)
	if got.loading || len(got.conv.Entries()) != len(src) {
		t.Errorf("after the replay: loading %v, %d entries, want %d", got.loading, len(got.conv.Entries()), len(src))
	}
	if v := got.comp.Input().Value(); v != "hi" {
		t.Errorf("the keys typed meanwhile gave input %q", v)
	}
	if v := got.View(); !strings.Contains(v, "question 1998") {
		t.Errorf("the frame after the replay does not show the last reply:\n%s", v)
	}
	if id := got.SessionID(); id != wr.ID() {
		t.Errorf("session %q, want %q", id, wr.ID())
	}
}
