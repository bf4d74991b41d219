package session

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"muse/api"
)

// oldJournal writes the journal an older muse left after a server streamed
// a reply far over the size limit: the prompt, then the reply as chunks of
// size bytes of text each (written as they arrived, never finished); or,
// when whole is set, the reply finished and saved as one entry.
func oldJournal(t *testing.T, s *Store, chunks, size int, whole bool) string {
	t.Helper()
	w := NewWriter(s, Params{Model: "m"})
	if _, err := w.Append(userEntry("e1", "hi")); err != nil {
		t.Fatal(err)
	}
	id := w.ID()
	w.Close()
	lines := journalLines(t, s, id)
	text := strings.Repeat("x", size)
	skeleton := Entry{ID: "e2", Parent: "e1", Kind: KindAssistant, Time: clockStart, Status: StatusStreaming, Message: &api.Message{Role: api.RoleAssistant, Model: "m"}}
	if whole {
		e := skeleton
		e.Status = StatusComplete
		e.Message = &api.Message{Role: api.RoleAssistant, Model: "m", StopReason: api.StopEndTurn,
			Content: []api.ContentBlock{{Type: api.BlockText, Text: strings.Repeat(text, chunks)}}}
		lines = append(lines, mustJSON(t, record{Type: recEntry, Time: clockStart.Add(time.Hour), Entry: &e}))
	} else {
		for i := range chunks {
			c := chunk{ID: "e2", Blocks: []blockDelta{{I: 0, Text: text}}}
			if i == 0 {
				c.Entry = &skeleton
				c.Blocks[0].Block = &api.ContentBlock{Type: api.BlockText}
			}
			lines = append(lines, mustJSON(t, record{Type: recChunk, Time: clockStart.Add(time.Hour + time.Duration(i)), Chunk: &c}))
		}
	}
	writeJournal(t, s, id, lines, "")
	return id
}

// A journal that holds a reply far over the size limit, from an older muse
// (5 MiB of chunks never finished, or a finished entry of 5 MiB), loads
// with the reply cut at the limit and a warning that says so; opening it
// compacts the journal to what it holds, and the session goes on: the next
// request is small and valid, and the next open warns no more.
func TestOldHugeReplyIsCutOnLoad(t *testing.T) {
	for _, whole := range []bool{false, true} {
		s, _ := newTestStore(t)
		id := oldJournal(t, s, 4, 5<<18, whole)
		w, err := s.OpenWriter(id)
		if err != nil {
			t.Fatal(err)
		}
		snap := w.Snapshot()
		if !hasWarning(&snap, "e2: "+api.ReplyCutNote(api.DefaultMaxReplySize)) || hasWarning(&snap, "could not compact") {
			t.Errorf("whole %v: warnings %q", whole, snap.Warnings)
		}
		reply := snap.Entries[1]
		if n := len(reply.Message.Text()); n != api.DefaultMaxReplySize || reply.Message.StopReason != api.StopSizeLimit {
			t.Errorf("whole %v: reply of %d bytes, stop %q", whole, n, reply.Message.StopReason)
		}
		fi, err := os.Stat(s.path(id))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > api.DefaultMaxReplySize+4<<10 {
			t.Errorf("whole %v: the journal still holds %d bytes", whole, fi.Size())
		}
		if body := mustJSON(t, snap.Entries); len(body) > api.DefaultMaxReplySize+4<<10 {
			t.Errorf("whole %v: the conversation the next request sends: %d bytes", whole, len(body))
		}
		w.Close()
		again, err := s.Load(id)
		if err != nil || len(again.Warnings) > 0 || len(again.Entries[1].Message.Text()) != api.DefaultMaxReplySize {
			t.Errorf("whole %v: reloaded with warnings %q, err %v", whole, again.Warnings, err)
		}
	}
}

// A reply under the limit is never cut on load, however it was written.
func TestReplyAtTheLimitIsNotCutOnLoad(t *testing.T) {
	s, _ := newTestStore(t)
	id := oldJournal(t, s, 4, 1<<20, false)
	sess, err := s.Load(id)
	if err != nil || len(sess.Warnings) > 0 || len(sess.Entries[1].Message.Text()) != 4<<20 {
		t.Errorf("warnings %q, err %v", sess.Warnings, err)
	}
}

// appendJSONString writes what encoding/json writes, byte for byte, for
// text of every kind: escapes, control characters, invalid UTF-8, U+2028.
func TestAppendJSONString(t *testing.T) {
	pieces := []string{"a", "é", "世", "😀", "\n", "\t", "\r", "\b", "\f", "\x00", "\x1f", "\x7f", `"`, `\`, "/", "<", ">", "&",
		"\u2028", "\u2029", "\xff", "\xe4\xb8", "\xed\xa0\x80", " "}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var b strings.Builder
		for range r.IntN(40) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		var want strings.Builder
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.Encode(s)
		got := string(appendJSONString(nil, s))
		if got+"\n" != want.String() {
			t.Fatalf("%q: got %s, want %s", s, got, want.String())
		}
		if n := jsonStringLen(s); n != len(got) {
			t.Fatalf("%q: length %d, encoded %d", s, n, len(got))
		}
	}
}

// A record with large strings encodes to the line encoding/json writes,
// and in one piece the size of the line: counted, the bytes allocated for
// a reply of 4 MiB stay a small multiple of it.
func TestEncodeRecordLiftsLargeStrings(t *testing.T) {
	text := strings.Repeat("line \"quoted\" ünï\n", 256<<10) // 4.5 MiB
	e := fullAssistant("e2")
	e.Message.Content = append(e.Message.Content, api.ContentBlock{Type: api.BlockText, Text: text},
		api.ContentBlock{Type: api.BlockThinking, Thinking: text[:20<<10]})
	recs := []*record{
		{Type: recEntry, Time: clockStart, Entry: &e},
		{Type: recChunk, Time: clockStart, Chunk: &chunk{ID: "e2", Blocks: []blockDelta{{I: 0, Text: text}, {I: 1, Block: &api.ContentBlock{Type: api.BlockThinking, Thinking: text}}}}},
	}
	for _, rec := range recs {
		got, err := encodeRecord(rec)
		if err != nil {
			t.Fatal(err)
		}
		var want strings.Builder
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.Encode(rec)
		if string(got) != want.String() {
			t.Errorf("%s record: the lifted line differs from encoding/json's", rec.Type)
		}
		if !utf8.Valid(got) {
			t.Errorf("%s record: not UTF-8", rec.Type)
		}
	}
	if e.Message.Content[4].Text != text {
		t.Error("encodeRecord changed the entry")
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	encodeRecord(recs[0])
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 2*uint64(len(text))+1<<20 {
		t.Errorf("%d bytes allocated to encode a reply of %d", n, len(text))
	}
}
