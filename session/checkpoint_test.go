package session

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"muse/api"
)

// streaming returns a checkpoint of the reply id holding text.
func streaming(id, text string) Entry {
	return Entry{ID: id, Kind: KindAssistant, Time: clockStart, Status: StatusStreaming,
		Message: &api.Message{Role: api.RoleAssistant, Model: "m", Content: []api.ContentBlock{{Type: api.BlockText, Text: text}}}}
}

// replyText returns the text of the entry id of sess.
func replyText(t *testing.T, sess *Session, id string) (string, string) {
	t.Helper()
	for _, e := range sess.Entries {
		if e.ID == id {
			if e.Message == nil {
				return "", e.Status
			}
			return e.Message.Text(), e.Status
		}
	}
	t.Fatalf("no entry %s in %v", id, ids(sess.Entries))
	return "", ""
}

// streamReply checkpoints the reply e2 growing word by word, as a stream
// would, then returns the writer and the text.
func streamReply(t *testing.T, w *Writer, words int) string {
	t.Helper()
	var b strings.Builder
	for i := range words {
		fmt.Fprintf(&b, "word%d ", i)
		if err := w.Checkpoint(streaming("e2", b.String())); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

func TestCheckpointThenFinal(t *testing.T) {
	s, _ := newTestStore(t)
	w := NewWriter(s, Params{Model: "m"})
	if _, err := w.Append(userEntry("e1", "hi")); err != nil {
		t.Fatal(err)
	}
	text := streamReply(t, w, 50)
	final := streaming("e2", text)
	final.Status = StatusComplete
	if _, err := w.Append(final); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if r, st := replyText(t, got, "e2"); r != text || st != StatusComplete || len(got.Entries) != 2 || got.Entries[1].Parent != "e1" {
		t.Errorf("reply %q (%s), %d entries; want the final reply after the prompt", r, st, len(got.Entries))
	}
	// The chunks each hold only the new word, so the journal holds the
	// reply about twice: once in chunks, once whole.
	var chunks, size int
	for _, l := range journalLines(t, s, w.ID()) {
		size += len(l)
		if strings.Contains(l, `"type":"chunk"`) {
			chunks++
		}
	}
	if chunks != 50 || size > 2*len(text)+50*200+2000 {
		t.Errorf("%d chunks, %d bytes for a %d-byte reply; want 50 small chunks", chunks, size, len(text))
	}
}

func TestCheckpointWithoutIDIsRefused(t *testing.T) {
	w := NewWriter(nil, Params{})
	if err := w.Checkpoint(Entry{Kind: KindAssistant}); err == nil {
		t.Error("a checkpoint without an id was accepted")
	}
}

// A 30 KB reply streamed over 16 s, checkpointed once a second, leaves a
// journal of at most three times the reply plus 64 KiB (it was 337 KB when
// every checkpoint held the whole reply).
func TestJournalSizeOfAStreamedReply(t *testing.T) {
	s, _ := newTestStore(t)
	w := NewWriter(s, Params{Model: "m"})
	if _, err := w.Append(userEntry("e1", "write a lot")); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for b.Len() < 30000 {
		b.WriteString("lorem ipsum dolor sit amet, consectetur adipiscing elit. ")
	}
	text := b.String()
	for sec := 1; sec <= 16; sec++ {
		if err := w.Checkpoint(streaming("e2", text[:len(text)*sec/16])); err != nil {
			t.Fatal(err)
		}
	}
	final := streaming("e2", text)
	final.Status = StatusComplete
	if _, err := w.Append(final); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(s.path(w.ID()))
	if err != nil {
		t.Fatal(err)
	}
	if limit := int64(3*len(text) + 64<<10); fi.Size() > limit {
		t.Errorf("journal of %d bytes for a %d-byte reply; want at most %d", fi.Size(), len(text), limit)
	}
	t.Logf("journal %d bytes for a %d-byte reply", fi.Size(), len(text))
}

func TestCrashMidReplyComesBackInterrupted(t *testing.T) {
	s, _ := newTestStore(t)
	w := NewWriter(s, Params{Model: "m"})
	if _, err := w.Append(userEntry("e1", "tell me")); err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"Once", "Once upon", "Once upon a time"} {
		if err := w.Checkpoint(streaming("e2", text)); err != nil {
			t.Fatal(err)
		}
	}
	// The process dies here: no final record, no Close.
	got, err := s.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if r, st := replyText(t, got, "e2"); r != "Once upon a time" || st != StatusInterrupted {
		t.Errorf("reply %q, status %q; want the last checkpoint, interrupted", r, st)
	}
	if len(got.Entries) != 2 {
		t.Errorf("%d entries, want the prompt and the interrupted reply", len(got.Entries))
	}
}

func TestTornCheckpoint(t *testing.T) {
	s, _ := newTestStore(t)
	w := NewWriter(s, Params{Model: "m"})
	if _, err := w.Append(userEntry("e1", "tell me")); err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"Once", "Once upon", "Once upon a time"} {
		if err := w.Checkpoint(streaming("e2", text)); err != nil {
			t.Fatal(err)
		}
	}
	w.release()
	lines := journalLines(t, s, w.ID())
	last := lines[len(lines)-1]
	writeJournal(t, s, w.ID(), lines[:len(lines)-1], last[:len(last)/2])
	got, err := s.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if r, st := replyText(t, got, "e2"); r != "Once upon" || st != StatusInterrupted {
		t.Errorf("reply %q, status %q; want the previous checkpoint, interrupted", r, st)
	}
	if len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], "unfinished last record") {
		t.Errorf("warnings %q", got.Warnings)
	}
	// Opening it for writing drops the cut line; the reply stays the
	// chunks it was (compaction never makes a record), and the next prompt
	// follows it.
	w2, err := s.OpenWriter(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w2.Append(Entry{Kind: KindUser, Text: "go on"}); err != nil {
		t.Fatal(err)
	}
	if err := w2.Close(); err != nil {
		t.Fatal(err)
	}
	back, err := s.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(back.Entries); len(got) != 3 || got[0] != "e1" || got[1] != "e2" || len(back.Warnings) != 0 {
		t.Errorf("after folding: entries %v, warnings %q", got, back.Warnings)
	}
	if r, st := replyText(t, back, "e2"); r != "Once upon" || st != StatusInterrupted {
		t.Errorf("reply %q, status %q after the cut line was dropped", r, st)
	}
}

// A request that failed before any content leaves no empty reply, even when
// an empty checkpoint was written.
func TestEmptyCheckpointIsNotShown(t *testing.T) {
	s, _ := newTestStore(t)
	w := NewWriter(s, Params{Model: "m"})
	if _, err := w.Append(userEntry("e1", "hi")); err != nil {
		t.Fatal(err)
	}
	if err := w.Checkpoint(Entry{ID: "e2", Kind: KindAssistant, Message: &api.Message{Model: "m"}}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Entries) != 1 || got.Head != "e1" {
		t.Errorf("entries %v, head %q; want the prompt only", ids(got.Entries), got.Head)
	}
}

// /continue streams more of a reply that was complete: its chunks extend it.
func TestCheckpointExtendsAFinishedReply(t *testing.T) {
	s, _ := newTestStore(t)
	w := NewWriter(s, Params{Model: "m"})
	if _, err := w.Append(userEntry("e1", "hi")); err != nil {
		t.Fatal(err)
	}
	done := streaming("e2", "first part")
	done.Status = StatusComplete
	if _, err := w.Append(done); err != nil {
		t.Fatal(err)
	}
	if err := w.Checkpoint(streaming("e2", "first part, and more")); err != nil {
		t.Fatal(err)
	}
	lines := journalLines(t, s, w.ID())
	if last := lines[len(lines)-1]; !strings.Contains(last, `"text":", and more"`) {
		t.Errorf("last chunk %s; want only the new text", last)
	}
	got, err := s.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if r, st := replyText(t, got, "e2"); r != "first part, and more" || st != StatusInterrupted {
		t.Errorf("reply %q (%s)", r, st)
	}
}

// Records that cannot be written (a full disk) wait and are written, in
// order, with the next save that works; nothing is lost.
func TestWriteFailureKeepsRecordsPending(t *testing.T) {
	s, _ := newTestStore(t)
	full := true
	s.appendFile = func(path string, data []byte, sync bool) error {
		if full {
			return fmt.Errorf("write %s: %w", path, syscall.ENOSPC)
		}
		return appendLine(path, data, sync)
	}
	w := NewWriter(s, Params{Model: "m"})
	if _, err := w.Append(userEntry("e1", "hi")); !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "disk is full") {
		t.Fatalf("append on a full disk: %v", err)
	}
	for _, text := range []string{"word0 ", "word0 word1 ", "word0 word1 word2 "} {
		if err := w.Checkpoint(streaming("e2", text)); err == nil {
			t.Fatal("checkpoint on a full disk succeeded")
		}
	}
	final := streaming("e2", "word0 word1 word2 ")
	final.Status = StatusComplete
	if _, err := w.Append(final); err == nil {
		t.Fatal("append on a full disk succeeded")
	}
	if n, err := w.Unsaved(); n != 5 || err == nil {
		t.Errorf("unsaved %d (%v); want the prompt, 3 chunks and the reply", n, err)
	}
	if err := w.Close(); err == nil || !strings.Contains(err.Error(), "5 changes not saved") {
		t.Errorf("Close with unsaved records: %v", err)
	}
	// Space is freed: the next save writes everything.
	full = false
	w2 := NewWriter(s, Params{Model: "m"})
	if _, err := w2.Append(userEntry("e1", "hi")); err != nil {
		t.Fatal(err)
	}
	w.closed = false
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if r, st := replyText(t, got, "e2"); r != "word0 word1 word2 " || st != StatusComplete || len(got.Warnings) > 0 {
		t.Errorf("after the disk was freed: reply %q (%s), warnings %q", r, st, got.Warnings)
	}
}

// A short write leaves no half record behind: it is taken back.
func TestShortWriteIsTakenBack(t *testing.T) {
	s, _ := newTestStore(t)
	w := NewWriter(s, Params{Model: "m"})
	if _, err := w.Append(userEntry("e1", "hi")); err != nil {
		t.Fatal(err)
	}
	s.appendFile = func(path string, data []byte, sync bool) error {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		fi, _ := f.Stat()
		f.Write(data[:len(data)/2])
		f.Truncate(fi.Size()) // as appendRecord does after a failed write
		return syscall.ENOSPC
	}
	if _, err := w.Append(userEntry("e2", "more")); err == nil {
		t.Fatal("the short write succeeded")
	}
	s.appendFile = appendLine
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(w.ID())
	if err != nil || len(got.Entries) != 2 || len(got.Warnings) != 0 {
		t.Errorf("entries %v, warnings %q, err %v", ids(got.Entries), got.Warnings, err)
	}
}

// A journal mostly made of superseded records is compacted when opened:
// atomically, keeping every entry of every branch and the head.
func TestCompaction(t *testing.T) {
	s, _ := newTestStore(t)
	w := NewWriter(s, Params{Model: "m"})
	if _, err := w.Append(userEntry("e1", "hi")); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 100<<10)
	for i := range 3 { // a reply rewritten three times: two dead copies
		e := streaming("e2", big+strconv.Itoa(i))
		e.Status = StatusComplete
		if _, err := w.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	alt := userEntry("e3", "another branch")
	alt.Parent = "e1"
	if _, err := w.Append(alt); err != nil {
		t.Fatal(err)
	}
	if err := w.SetHead("e2"); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(s.path(w.ID()))
	want, err := s.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	w2, err := s.OpenWriter(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	w2.Close()
	after, _ := os.Stat(s.path(w.ID()))
	if after.Size() >= before.Size()/2 {
		t.Errorf("journal %d bytes before, %d after; want it compacted", before.Size(), after.Size())
	}
	if m := after.Mode().Perm(); m != 0o600 {
		t.Errorf("compacted journal mode %o", m)
	}
	got, err := s.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.All, want.All) || got.Head != "e2" || !reflect.DeepEqual(ids(got.Entries), []string{"e1", "e2"}) {
		t.Errorf("compaction changed the session: head %q, entries %v, all %v", got.Head, ids(got.Entries), ids(got.All))
	}
}

// A reply checkpointed while a tool call streamed loads with the call
// marked cut short, so that it is never sent back (see ui/engine's
// TestInterruptedReplySendsItsTextOnly).
func TestInterruptedReplyIsSafeToResend(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	cp := Entry{ID: "e2", Kind: KindAssistant, Status: StatusStreaming, Message: &api.Message{Content: []api.ContentBlock{
		{Type: api.BlockThinking, Thinking: "let me look"}, // its signature had not arrived
		{Type: api.BlockText, Text: "Reading it."},
		{Type: api.BlockToolUse, ID: "toolu_1", Name: "read_file", Input: []byte(`{}`), PartialInput: `{"path":"/tm`},
	}}}
	if err := s.Append(sess, userEntry("e1", "read /tmp/x")); err != nil {
		t.Fatal(err)
	}
	if err := s.Checkpoint(sess, cp); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	e := got.Entries[1]
	if _, ok := e.Truncated[2]; e.Status != StatusInterrupted || !ok {
		t.Errorf("status %q, truncated %v; want the tool call marked cut short", e.Status, e.Truncated)
	}
}

// A journal with a damaged line or a record of a newer muse is never
// compacted: rewriting it would destroy what could still be recovered.
func TestCompactionKeepsWhatItCannotRead(t *testing.T) {
	s, _ := newTestStore(t)
	w := NewWriter(s, Params{Model: "m"})
	w.Append(userEntry("e1", "hi"))
	w.Checkpoint(streaming("e2", "cut short")) // asks for a compaction
	w.release()
	lines := journalLines(t, s, w.ID())
	damaged := `{"type":"entry","time":"2025-03-01T09:00:09Z","entry":{"id":"e3","parent":"e2","kind":"user","text":"x"`
	newer := `{"type":"bookmark","time":"2025-03-01T09:00:10Z","bookmark":{"at":"e1"}}`
	writeJournal(t, s, w.ID(), append(lines, damaged, newer), "")
	before, _ := os.ReadFile(s.path(w.ID()))
	w2, err := s.OpenWriter(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	w2.Close()
	after, _ := os.ReadFile(s.path(w.ID()))
	if !bytes.Equal(before, after) {
		t.Errorf("a journal with a damaged line and a newer record was rewritten:\n%s", after)
	}
}
