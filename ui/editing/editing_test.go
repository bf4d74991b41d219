package editing

import (
	"strings"
	"testing"

	"muse/session"
	"muse/theme"
	"muse/theme/themetest"
	"muse/ui/input"
	"muse/ui/pending"
)

// An edit puts the draft and its files aside, says which prompt it edits
// on one line cut to the width, and gives everything back when it ends;
// a second edit keeps the first draft.
func TestEditing(t *testing.T) {
	st := themetest.Styles(t)
	m := New(st).SetSize(30)
	if m.Active() || m.View() != "" || m.Height() != 0 {
		t.Fatal("an edit before any started")
	}
	files := []session.File{{Attachment: session.Attachment{Name: "a.md"}}}
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	in := input.New(th, input.KeyMap{}, nil).SetValue("half a thought")
	chips := pending.New(st, files)
	m, in, chips = m.Begin(session.Entry{ID: "e7", Text: "the prompt"}, 3, in, chips)
	if !m.Active() || m.ID() != "e7" || m.Num() != 3 || m.Height() != 1 || in.Value() != "the prompt" || chips.Len() != 0 {
		t.Fatalf("begun: %+v, input %q, %d files", m, in.Value(), chips.Len())
	}
	if v := m.View(); !strings.Contains(v, "editing message 3") || strings.Contains(v, "\n") {
		t.Errorf("line %q", v)
	}
	m, in, chips = m.Begin(session.Entry{ID: "e9", Text: "another"}, 5, in, chips)
	if m, in, chips = m.Leave(in, chips); m.Active() || m.View() != "" || in.Value() != "half a thought" || chips.Len() != 1 {
		t.Errorf("after Leave: editing %v, input %q, %d files", m.Active(), in.Value(), chips.Len())
	}
	if m2, in2, _ := m.Leave(in.SetValue("x"), chips); m2.Active() || in2.Value() != "x" {
		t.Error("Leave with no edit changed the input")
	}
	if m, _, _ := m.SetSize(0).Begin(session.Entry{ID: "e1"}, 1, in, chips); m.View() != "" {
		t.Error("drawn with no width")
	}
}
