package session

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// longSession writes a session of n entries with a title, settings changed
// half way and a second branch whose head is set last, and returns its id
// and the session as Load replays it.
func longSession(t *testing.T, s *Store, n int) (string, *Session) {
	t.Helper()
	w := NewWriter(s, Params{Model: "m1", MaxTokens: 100})
	var es []Entry
	for i := range n {
		id := fmt.Sprintf("e%d", i+1)
		if i%2 == 0 {
			es = append(es, userEntry(id, fmt.Sprintf("question %d", i)))
		} else {
			es = append(es, fullAssistant(id))
		}
	}
	if err := w.AppendAll(es[:n/2]); err != nil {
		t.Fatal(err)
	}
	if err := w.SetTitle("long one"); err != nil {
		t.Fatal(err)
	}
	if err := w.SetParams(Params{Model: "m2", MaxTokens: 200}); err != nil {
		t.Fatal(err)
	}
	if err := w.AppendAll(es[n/2:]); err != nil {
		t.Fatal(err)
	}
	// A second answer to the last prompt, then back to the first one.
	alt, err := w.AppendAt(Entry{Kind: KindNotice, Text: "another branch"}, es[n-2].ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.SetHead(es[n-1].ID); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	sess, err := s.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if sess.Head != es[n-1].ID || len(sess.All) != n+1 || sess.All[n].ID != alt.ID {
		t.Fatalf("head %s, %d entries", sess.Head, len(sess.All))
	}
	return w.ID(), sess
}

// TestOpenWriterAsyncLong checks that a long session opens with a preview
// that shows its title, settings (as adjusted) and the end of its active
// branch, and that the writer then holds the whole session, as Load
// replays it, with the adjusted settings written.
func TestOpenWriterAsyncLong(t *testing.T) {
	s, _ := newTestStore(t)
	n := 3 * previewLines
	id, want := longSession(t, s, n)
	adjust := func(p Params) Params { p.MaxTokens = 300; return p }
	w, preview, err := s.OpenWriterAsync(id, adjust)
	if err != nil {
		t.Fatal(err)
	}
	if preview.ID != id || preview.Title != "long one" || preview.Params.Model != "m2" || preview.Params.MaxTokens != 300 {
		t.Errorf("preview: id %q title %q params %+v", preview.ID, preview.Title, preview.Params)
	}
	k := len(preview.Entries)
	if k == 0 || k >= n || preview.Head != want.Head {
		t.Fatalf("preview: %d entries, head %s", k, preview.Head)
	}
	if !reflect.DeepEqual(preview.Entries, want.Entries[n-k:]) {
		t.Error("the preview's entries are not the end of the active branch")
	}

	got := w.Snapshot() // waits for the replay
	if !reflect.DeepEqual(got.Entries, want.Entries) || !reflect.DeepEqual(got.All, want.All) || got.Head != want.Head {
		t.Errorf("snapshot: %d entries, %d in all, head %s", len(got.Entries), len(got.All), got.Head)
	}
	if got.Params.MaxTokens != 300 || got.Title != "long one" {
		t.Errorf("snapshot: title %q params %+v", got.Title, got.Params)
	}
	if e, err := w.Append(userEntry("", "one more")); err != nil || !isEntryID(e.ID) || slices.ContainsFunc(got.All, func(o Entry) bool { return o.ID == e.ID }) {
		t.Errorf("append: %v, id %s", err, e.ID)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if again.Params.MaxTokens != 300 || len(again.Entries) != n+1 {
		t.Errorf("reloaded: params %+v, %d entries", again.Params, len(again.Entries))
	}
}

// TestOpenWriterAsyncShort checks that a short session is replayed at once:
// the preview is the whole session.
func TestOpenWriterAsyncShort(t *testing.T) {
	s, _ := newTestStore(t)
	id, want := longSession(t, s, 20)
	w, preview, err := s.OpenWriterAsync(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if !reflect.DeepEqual(preview.Entries, want.Entries) || preview.Title != want.Title || !reflect.DeepEqual(preview.Params, want.Params) {
		t.Errorf("preview of a short session: %d entries, title %q", len(preview.Entries), preview.Title)
	}
}

// TestOpenWriterAsyncDamage checks that a corrupt record is reported by the
// replay of the whole journal (not twice), that a damaged journal fails to
// open, and that a session open elsewhere stays locked.
func TestOpenWriterAsyncDamage(t *testing.T) {
	s, _ := newTestStore(t)
	id, _ := longSession(t, s, 3*previewLines)
	lines := journalLines(t, s, id)
	lines[5] = `{"type":"entry","entry":{"id":`
	writeJournal(t, s, id, lines, "")
	w, preview, err := s.OpenWriterAsync(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(preview.Warnings) != 0 {
		t.Errorf("preview warnings: %q", preview.Warnings)
	}
	if _, _, err := s.OpenWriterAsync(id, nil); err == nil {
		t.Error("a session open for writing opened again")
	}
	got := w.Snapshot()
	if len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], "line 6: skipped a corrupt record") {
		t.Errorf("warnings: %q", got.Warnings)
	}
	w.Close()

	writeJournal(t, s, id, nil, "not json\n")
	if _, _, err := s.OpenWriterAsync(id, nil); !errors.Is(err, ErrDamaged) {
		t.Errorf("damaged journal: %v", err)
	}
	if _, _, err := s.OpenWriterAsync("20250101-000000-abcdef", nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing journal: %v", err)
	}
}

// TestOpenLatestAsync checks that -c opens the most recently used session.
func TestOpenLatestAsync(t *testing.T) {
	s, _ := newTestStore(t)
	if _, _, err := s.OpenLatestAsync(nil); !errors.Is(err, ErrNoSessions) {
		t.Fatalf("no sessions: %v", err)
	}
	longSession(t, s, 4)
	id, _ := longSession(t, s, 3*previewLines)
	w, preview, err := s.OpenLatestAsync(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if preview.ID != id || w.ID() != id {
		t.Errorf("opened %s (preview %s), want %s", w.ID(), preview.ID, id)
	}
}

// TestOpenWriterAsyncCloseAtOnce checks that a writer closed while its
// journal may still be replayed releases the session at once, and leaves
// the journal as it was.
func TestOpenWriterAsyncCloseAtOnce(t *testing.T) {
	s, _ := newTestStore(t)
	id, want := longSession(t, s, 3*previewLines)
	before := journalLines(t, s, id)
	for range 5 {
		w, _, err := s.OpenWriterAsync(id, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatalf("second close: %v", err)
		}
		if w.ID() != id {
			t.Errorf("closed writer's id %q", w.ID())
		}
	}
	if got := journalLines(t, s, id); !reflect.DeepEqual(got, before) {
		t.Error("opening and closing changed the journal")
	}
	got, err := s.Load(id)
	if err != nil || !reflect.DeepEqual(got.Entries, want.Entries) {
		t.Fatalf("reload: %v", err)
	}

	// Adjusted settings are written however soon the writer is closed.
	for i := range 5 {
		adjust := func(p Params) Params { p.MaxTokens = 1000 + i; return p }
		w, _, err := s.OpenWriterAsync(id, adjust)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		got, err := s.Load(id)
		if err != nil || got.Params.MaxTokens != 1000+i || !reflect.DeepEqual(got.Entries, want.Entries) {
			t.Fatalf("reload %d: params %+v, %v", i, got.Params, err)
		}
	}
}
