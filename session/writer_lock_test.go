package session

import (
	"runtime"
	"strings"
	"testing"
)

// stuckDisk replaces the store's journal writes with ones that report each
// write on calls and then wait for a value on release before writing.
func stuckDisk(s *Store) (calls chan []byte, release chan struct{}) {
	calls, release = make(chan []byte), make(chan struct{})
	s.appendFile = func(path string, data []byte, sync bool) error {
		calls <- data
		<-release
		return appendLine(path, data, sync)
	}
	return calls, release
}

// While a write of the journal is stuck on the disk (a slow fsync, a
// network file system), the writer's lock for the session in memory is
// free: what a screen reads while a turn writes (Snapshot, ID, NewID,
// Unsaved, Branch, Params) returns at once, and shows the record that is
// being written. A record queued meanwhile waits for the stuck one and is
// written after it, in order. On the old writer, which held one lock across
// the write and its sync, the memory lock was taken.
func TestReadsDoNotWaitForAStuckWrite(t *testing.T) {
	s, _ := newTestStore(t)
	w := NewWriter(s, Params{Model: "m"})
	if _, err := w.Append(userEntry("e1", "hi")); err != nil { // creates the journal
		t.Fatal(err)
	}
	id := w.ID()
	calls, release := stuckDisk(s)
	done := make(chan error, 2)
	go func() {
		_, err := w.Append(Entry{ID: "e2", Kind: KindAssistant, Text: "the reply"})
		done <- err
	}()
	first := <-calls // the append is in its write, and stays there

	if !w.mu.TryLock() {
		close(release)
		t.Fatal("the writer holds its lock for the session in memory across a write to the disk")
	}
	w.mu.Unlock()
	snap := w.Snapshot()
	if got := w.ID(); got != id || len(snap.All) != 2 || snap.Head != "e2" {
		t.Errorf("while the write is stuck: id %q, %d entries, head %q; want %q, 2, e2", got, len(snap.All), snap.Head, id)
	}
	if got := w.NewID(); !isEntryID(got) {
		t.Errorf("NewID %q, want a new entry id", got)
	}
	if n, err := w.Unsaved(); n != 1 || err != nil {
		t.Errorf("unsaved %d (%v), want the record being written", n, err)
	}
	if b, p := w.Branch(), w.Params(); len(b) != 2 || p.Model != "m" {
		t.Errorf("branch %d entries, params %+v", len(b), p)
	}

	// A title set now is queued behind the stuck record: it waits for the
	// disk, which the caller of SetTitle (a command, never the screen)
	// may.
	go func() { done <- w.SetTitle("later") }()
	for {
		if n, _ := w.Unsaved(); n == 2 {
			break
		}
		runtime.Gosched()
	}
	release <- struct{}{}
	second := <-calls
	release <- struct{}{}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(string(first), `"the reply"`) || strings.Contains(string(first), "later") || !strings.Contains(string(second), `"later"`) {
		t.Errorf("writes out of order:\n%s\n%s", first, second)
	}
	if n, err := w.Unsaved(); n != 0 || err != nil {
		t.Errorf("unsaved %d (%v) after the writes", n, err)
	}
	s.appendFile = appendLine
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "later" || len(got.All) != 2 || got.All[1].Text != "the reply" {
		t.Errorf("saved: title %q, entries %+v", got.Title, got.All)
	}
}

// A title set while the journal is being created, after its header took the
// title, is written as a record of its own: it is not lost.
func TestTitleSetWhileTheJournalIsCreated(t *testing.T) {
	s, _ := newTestStore(t)
	calls, release := stuckDisk(s)
	w := NewWriter(s, Params{Model: "m"})
	done := make(chan error, 1)
	go func() {
		_, err := w.Append(userEntry("e1", "hi"))
		done <- err
	}()
	<-calls // the header is written; the entry's write is stuck
	title := make(chan error, 1)
	go func() { title <- w.SetTitle("named meanwhile") }()
	for {
		if n, _ := w.Unsaved(); n == 2 {
			break
		}
		runtime.Gosched()
	}
	release <- struct{}{}
	<-calls
	release <- struct{}{}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := <-title; err != nil {
		t.Fatal(err)
	}
	s.appendFile = appendLine
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "named meanwhile" {
		t.Errorf("title %q, want the one set while the journal was created", got.Title)
	}
}
