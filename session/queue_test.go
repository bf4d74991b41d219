package session

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// The queued prompts outlive the process: what SaveQueue kept is back in
// Queue when the session is opened again (after a kill, the writer is
// never closed), with its attachments' bytes; the file is 0600, an older
// save that finishes last does not win, an empty queue removes the file,
// and deleting the session removes it too.
func TestQueueKeptUntilSent(t *testing.T) {
	s, _ := newTestStore(t)
	w := NewWriter(s, Params{Model: "m"})
	if _, err := w.Append(userEntry("e1", "first")); err != nil {
		t.Fatal(err)
	}
	id := w.ID()
	pdf := []byte("%PDF-1.4 a queued file")
	q := []QueuedPrompt{
		{Text: "second"},
		{Text: "third, with a file", Attachments: []Attachment{{Name: "a.pdf", MediaType: "application/pdf"}}, Data: [][]byte{pdf}},
	}
	if err := w.SaveQueue(2, q); err != nil {
		t.Fatal(err)
	}
	if err := w.SaveQueue(1, q[:1]); err != nil { // an older save, finishing last
		t.Fatal(err)
	}
	fi, err := os.Stat(s.queuePath(id))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("queue file: %v, %v", fi, err)
	}
	if raw, _ := os.ReadFile(s.queuePath(id)); bytes.Contains(raw, pdf) {
		t.Errorf("the queue file holds an attachment's bytes: %s", raw)
	}
	// As after a kill -9: the writer never closed, its lock gone.
	w.unlock()
	w2, err := s.OpenWriter(id)
	if err != nil {
		t.Fatal(err)
	}
	got := w2.Snapshot().Queue
	if len(got) != 2 || got[0].Text != "second" || got[1].Text != "third, with a file" ||
		len(got[1].Attachments) != 1 || got[1].Attachments[0].Name != "a.pdf" || !bytes.Equal(got[1].Data[0], pdf) {
		t.Fatalf("queue after reopening: %+v", got)
	}
	// Sent one by one: the file follows, and goes with the last.
	if err := w2.SaveQueue(1, got[1:]); err != nil {
		t.Fatal(err)
	}
	if err := w2.SaveQueue(2, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.queuePath(id)); !os.IsNotExist(err) {
		t.Errorf("the queue file is still there once the queue is empty: %v", err)
	}
	if q := w2.Snapshot().Queue; len(q) != 0 {
		t.Errorf("Queue after it emptied: %+v", q)
	}
	w2.SaveQueue(3, []QueuedPrompt{{Text: "left"}})
	w2.Close()
	if err := s.Delete(id); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.queuePath(id)); !os.IsNotExist(err) {
		t.Errorf("the queue file outlived its session: %v", err)
	}
}

// A damaged queue file is reported, not fatal: the session opens.
func TestDamagedQueueFile(t *testing.T) {
	s, _ := newTestStore(t)
	w := NewWriter(s, Params{Model: "m"})
	w.Append(userEntry("e1", "first"))
	id := w.ID()
	w.Close()
	os.WriteFile(s.queuePath(id), []byte(`{"v":1,"prompts":[{"te`), 0o600)
	w, err := s.OpenWriter(id)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	snap := w.Snapshot()
	if len(snap.Queue) != 0 || len(snap.Warnings) != 1 || !strings.Contains(snap.Warnings[0], "queued prompts") {
		t.Errorf("queue %+v, warnings %q", snap.Queue, snap.Warnings)
	}
}
