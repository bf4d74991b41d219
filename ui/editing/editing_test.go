package editing

import (
	"strings"
	"testing"

	"muse/session"
	"muse/theme/themetest"
	"muse/ui/attach"
)

// An edit keeps the draft put aside, says which prompt it edits on one
// line cut to the width, and gives everything back when it stops.
func TestEditing(t *testing.T) {
	m := New(themetest.Styles(t)).SetSize(30)
	if m.Active() || m.View() != "" || m.Height() != 0 {
		t.Fatal("an edit before any started")
	}
	files := []attach.File{{Attachment: session.Attachment{Name: "a.md"}}}
	m = m.Start("e7", 3, "half a thought", files)
	if !m.Active() || m.ID() != "e7" || m.Num() != 3 || m.Height() != 1 {
		t.Fatalf("started: %+v", m)
	}
	if v := m.View(); !strings.Contains(v, "editing message 3") || strings.Contains(v, "\n") {
		t.Errorf("line %q", v)
	}
	if draft, pending := m.Draft(); draft != "half a thought" || len(pending) != 1 {
		t.Errorf("draft %q, %d files", draft, len(pending))
	}
	if m = m.Stop(); m.Active() || m.View() != "" {
		t.Error("still editing after Stop")
	}
	if m.SetSize(0).Start("e1", 1, "", nil).View() != "" {
		t.Error("drawn with no width")
	}
}
