package conversation

import (
	"testing"
	"time"

	"muse/session"
)

// A display setting changes on a renderer of the conversation's own: the
// copy it was changed from keeps its setting.
func TestSettingsStayWithTheirCopy(t *testing.T) {
	c := testConversation(t, 2)
	c.r.Previews = map[string]string{}
	thinking := c.SetExpandThinking(true)
	shown := c.SetShowPreviews(true)
	hidden := shown.SetShowPreviews(false)
	if !thinking.ExpandThinking() || c.ExpandThinking() {
		t.Errorf("expanded: the copy %v, the original %v", thinking.ExpandThinking(), c.ExpandThinking())
	}
	if hidden.ShowPreviews() || !shown.ShowPreviews() || hidden.ExpandThinking() {
		t.Errorf("previews hidden: the copy %v, the original %v", hidden.ShowPreviews(), shown.ShowPreviews())
	}
	// The previews, derived from the files, are shared.
	thinking = thinking.SetPreview("a.png", "▀▄")
	if c.r.Previews["a.png"] != "▀▄" {
		t.Error("a preview kept by one copy is not the others'")
	}
}

// The screen's own entries are numbered n1, n2… across SetEntries, so an
// id never names two entries of one screen.
func TestNoteNumbersScreenEntries(t *testing.T) {
	at := time.Date(2026, 11, 28, 12, 0, 0, 0, time.FixedZone("CET", 3600))
	c := testConversation(t, 1).Note(session.Entry{Kind: session.KindNotice, Text: "one"}, at)
	c = c.SetEntries(nil).Note(session.Entry{Kind: session.KindNotice, Text: "two"}, at)
	es := c.Entries()
	if len(es) != 1 || es[0].ID != "n2" || !es[0].Time.Equal(at) || es[0].Time.Location() != time.UTC {
		t.Errorf("entries %+v", es)
	}
}
