package session

import (
	"os"
	"testing"
	"time"
)

// A session one machine (c) wrote, the header aside: it edits an entry,
// compacts its journal (which keeps the newest version only), then an
// older copy of the journal arrives from another machine and is merged,
// its old version appended after the new. The edit stands: records that
// name a machine out of order were merged so, and apply in time order.
// Before, a journal one machine wrote applied in line order, and the old
// version undid the edit.
func TestStaleCopyAfterCompactionKeepsTheEdit(t *testing.T) {
	a, c := newMachine(t, "a", 0), newMachine(t, "c", 0)
	sess, err := a.s.create(Params{Model: "m"}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	id := sess.ID
	copyJournal(t, a.s, c.s, id, id+journalExt)
	c.c.t = c.c.t.Add(time.Minute)
	e := appendTo(t, c.s, id, "v1")
	w, err := c.s.OpenWriter(id)
	if err != nil {
		t.Fatal(err)
	}
	e.Text = "v2"
	if _, err := w.Append(e); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	copyJournal(t, c.s, a.s, id, id+journalExt)
	f, err := os.Open(c.s.path(id))
	if err != nil {
		t.Fatal(err)
	}
	loaded, size, err := replayStats(f, id, false)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.s.compact(loaded, size.cutIDs); err != nil {
		t.Fatal(err)
	}
	copyJournal(t, a.s, c.s, id, id+" 2"+journalExt)
	catchUp(t, c.s)
	got, err := c.s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.All) != 1 || got.All[0].Text != "v2" {
		t.Errorf("entries %+v, want the edit v2", got.All)
	}
}
