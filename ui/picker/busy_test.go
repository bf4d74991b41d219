package picker

import (
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/session/index"
	"muse/session/index/indextest"
)

// While another program holds the index's lock, the picker does not wait
// for it: the list comes from the index as it was and the journals that
// changed since, a search reads the index as it was, and each says so.
func TestPickerAtABusyIndex(t *testing.T) {
	p := threeSessions(t)
	indextest.HoldLock(t, filepath.Join(p.store.CacheDir(), index.FileName))
	w := newSession(t, p, "capybara written while the index is held")

	msg := listSessions(p.index, p.searchSeq)().(ListedMsg)
	if msg.err != nil || len(msg.items) != 4 || !strings.Contains(msg.note, "the index is busy") {
		t.Fatalf("the list at a held lock: %d sessions, %v, note %q; want 4, the new one from its journal, with a note", len(msg.items), msg.err, msg.note)
	}
	p, _ = p.Update(msg)
	if !strings.Contains(p.status, "read from their journals") {
		t.Fatalf("the status says %q", p.status)
	}

	p, cmd := p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("fcapybara"), Paste: true})
	found := searchMsg(t, cmd)
	if found.err != nil || len(found.items) != 2 || !strings.Contains(found.note, "searched as it was") {
		t.Fatalf("a search at a held lock: %d hits, %v, note %q; want the 2 the index held, with a note", len(found.items), found.err, found.note)
	}
	for _, it := range found.items {
		if it.(sessionItem).info.ID == w {
			t.Fatal("the snapshot holds a session written under the lock")
		}
	}
}

// A NUL byte, and more than the search holds, are refused with a word in
// the status, and the query stays as it was: the input would drop the
// one and cut the other without a word.
func TestPickerRefusesNULAndLongQueries(t *testing.T) {
	p := threeSessions(t)
	p, _ = p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'f'}})
	p, _ = typed(p, "capy")
	for _, msg := range []tea.KeyMsg{
		{Type: tea.KeyCtrlAt},
		{Type: tea.KeyRunes, Runes: []rune("ba\x00ra")},
		{Type: tea.KeyRunes, Runes: []rune("ba\x00ra"), Paste: true},
	} {
		q, cmd := p.Update(msg)
		if cmd != nil || q.input.Value() != "capy" || !strings.Contains(q.status, "NUL byte") {
			t.Errorf("%q: query %q, status %q, a command %v", msg.Runes, q.input.Value(), q.status, cmd != nil)
		}
	}
	long := []rune(strings.Repeat("x", 1<<20))
	q, cmd := p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: long, Paste: true})
	if cmd != nil || q.input.Value() != "capy" || !strings.Contains(q.status, "at most 200 characters, and this would make 1048580") {
		t.Errorf("1 MiB pasted: query %q…, status %q, a command %v", q.input.Value()[:min(10, len(q.input.Value()))], q.status, cmd != nil)
	}
}

// newSession writes a session of p's store whose prompt is text, and
// returns its id.
func newSession(t *testing.T, p Model, text string) string {
	t.Helper()
	w := session.NewWriter(p.store, session.Params{})
	if _, err := w.Append(session.Entry{Kind: session.KindUser, Text: text}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.ID()
}
