package session

import (
	"fmt"
	"os"
	"reflect"
	"strings"
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

func TestCheckpointThenFinal(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(sess, userEntry("e1", "hi")); err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"Hel", "Hello", "Hello, wor"} {
		if err := s.Checkpoint(sess, streaming("e2", text)); err != nil {
			t.Fatal(err)
		}
	}
	if got, st := replyText(t, sess, "e2"); got != "Hello, wor" || st != StatusStreaming || len(sess.Entries) != 2 {
		t.Errorf("in memory: %q %q, %d entries", got, st, len(sess.Entries))
	}
	final := streaming("e2", "Hello, world.")
	final.Status = StatusComplete
	if err := s.Append(sess, final); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, sess) {
		t.Errorf("loaded differs:\n got %s\nwant %s", mustJSON(t, got), mustJSON(t, sess))
	}
	if n := len(journalLines(t, s, sess.ID)); n != 6 {
		t.Errorf("journal has %d lines, want 6: header, prompt, 3 checkpoints, final", n)
	}
	if err := s.Checkpoint(sess, Entry{Kind: KindAssistant}); err == nil {
		t.Error("Checkpoint of an entry without id succeeded")
	}
}

func TestCrashMidReplyComesBackInterrupted(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(sess, userEntry("e1", "tell me")); err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"Once", "Once upon", "Once upon a time"} {
		if err := s.Checkpoint(sess, streaming("e2", text)); err != nil {
			t.Fatal(err)
		}
	}
	// The process dies here: no final record.
	got, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	text, st := replyText(t, got, "e2")
	if text != "Once upon a time" || st != StatusInterrupted {
		t.Errorf("reply %q, status %q; want the last checkpoint, interrupted", text, st)
	}
	if len(got.Warnings) != 0 {
		t.Errorf("warnings %q; an interrupted reply is normal after a crash", got.Warnings)
	}
	if h := History(got.Entries); len(h) != 2 {
		t.Errorf("history of %d messages, want the prompt and the interrupted reply", len(h))
	}
}

func TestTornCheckpoint(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(sess, userEntry("e1", "tell me")); err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"Once", "Once upon a time", "Once upon a time there was"} {
		if err := s.Checkpoint(sess, streaming("e2", text)); err != nil {
			t.Fatal(err)
		}
	}
	lines := journalLines(t, s, sess.ID)
	last := lines[len(lines)-1]
	torn := last[:len(last)-20]
	writeJournal(t, s, sess.ID, lines[:len(lines)-1], torn)

	got, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	text, st := replyText(t, got, "e2")
	if text != "Once upon a time" || st != StatusInterrupted {
		t.Errorf("reply %q, status %q; want the previous checkpoint, interrupted", text, st)
	}
	want := fmt.Sprintf("dropped an unfinished last record (%d bytes)", len(torn))
	if !reflect.DeepEqual(got.Warnings, []string{want}) {
		t.Errorf("warnings %q, want [%q]", got.Warnings, want)
	}

	// The conversation goes on: the torn record is now in the middle.
	if err := s.Append(got, userEntry("e3", "go on")); err != nil {
		t.Fatal(err)
	}
	again, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if text, st := replyText(t, again, "e2"); text != "Once upon a time" || st != StatusInterrupted {
		t.Errorf("after going on: reply %q, status %q", text, st)
	}
	if !reflect.DeepEqual(ids(again.Entries), []string{"e1", "e2", "e3"}) {
		t.Errorf("entries %v", ids(again.Entries))
	}
	if len(again.Warnings) != 1 || !strings.HasPrefix(again.Warnings[0], fmt.Sprintf("line %d: skipped a corrupt record", len(lines))) {
		t.Errorf("warnings %q; want the torn record reported as a corrupt line", again.Warnings)
	}
}

func TestDeferredEntries(t *testing.T) {
	s, sess, lines := damagedSession(t) // header, e1, e2, e3
	e2 := lines[2]
	// e2 checkpointed twice before its final record, one of the checkpoints
	// corrupt; then e3 retracted and added again; then a record of e1 that
	// is corrupt past its start.
	cp := func(text string) string {
		e := streaming("e2", text)
		line, err := encodeRecord(&record{Type: recEntry, Time: clockStart, Entry: &e})
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSuffix(string(line), "\n")
	}
	retract := `{"type":"retract","time":"2025-03-01T09:00:20Z","retract":["e3"]}`
	e1bad := `{"type":"entry","time":"2025-03-01T09:00:30Z","entry":{"id":"e1","kind":"user","text":"x" garbage}}`
	e1mismatch := `{"type":"entry","time":"2025-03-01T09:00:31Z","entry":{"id":"e1","kind":"user"},"entry":{"id":"zz"}}`
	torn := cp("ab")
	torn = torn[:len(torn)-10]
	journal := []string{lines[0], lines[1], cp("a"), torn, cp("abc"), e2, lines[3], retract, lines[3], e1bad, e1mismatch}
	writeJournal(t, s, sess.ID, journal, "")
	got, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ids(got.Entries), []string{"e1", "e2", "e3"}) {
		t.Fatalf("entries %v", ids(got.Entries))
	}
	if !reflect.DeepEqual(got.Entries, sess.Entries) {
		t.Errorf("entries differ:\n got %s\nwant %s", mustJSON(t, got.Entries), mustJSON(t, sess.Entries))
	}
	// The corrupt checkpoint was superseded by a valid one: never decoded.
	// The bad records of e1 are reported, in line order; e1 keeps its value.
	if len(got.Warnings) != 2 || !strings.HasPrefix(got.Warnings[0], "line 10: ") || !strings.HasPrefix(got.Warnings[1], "line 11: ") {
		t.Errorf("warnings %q", got.Warnings)
	}

	// A fresh entry none of whose records decodes goes away.
	writeJournal(t, s, sess.ID, []string{lines[0], strings.Replace(e1bad, `"e1"`, `"e9"`, 1), lines[1]}, "")
	got, err = s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ids(got.Entries), []string{"e1"}) || len(got.Warnings) != 1 {
		t.Errorf("entries %v, warnings %q", ids(got.Entries), got.Warnings)
	}
	if err := os.Remove(s.path(sess.ID)); err != nil {
		t.Fatal(err)
	}
}

func TestManyPendingEntriesDecodeInParallel(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 500 {
		if err := s.Checkpoint(sess, benchEntry(i)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, sess) {
		t.Error("a session of 500 entries did not load as written")
	}
}

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
	h := History(got.Entries)
	if len(h) != 2 || len(h[1].Blocks) != 0 || h[1].Text != "Reading it." {
		t.Errorf("history %s; want the reply's text only", mustJSON(t, h))
	}
}
