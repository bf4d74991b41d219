package session

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"muse/api"
)

func TestFastDecodeSelfCheck(t *testing.T) {
	if !fastDecodeOK() {
		t.Fatal("the fast decoder disagrees with encoding/json on its own samples; Load is slow until it is fixed")
	}
}

// fastSeeds are entry records as encodeRecord writes them.
func fastSeeds(t testing.TB) [][]byte {
	entries := []Entry{
		userEntry("e1", "plain"),
		userEntry("e2", "quotes \" and \\ and \n newlines \t\u2028 <b>&</b> ünïcödé 🎉 \x00 \x7f"),
		benchEntry(1),
		{ID: "e5", Kind: KindError, Time: clockStart, Error: &ErrorInfo{Status: 529, Type: "overloaded_error", Message: "Overloaded", Hint: "try again"}, RequestID: "req_2"},
		{ID: "e6", Kind: KindNotice, Time: clockStart, Text: "model changed"},
		{ID: "e7", Kind: KindAssistant, Status: StatusStreaming, Message: &api.Message{Content: []api.ContentBlock{}}},
		{ID: "e8", Kind: KindAssistant, Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockThinking, Thinking: "hmm"}, {Type: api.BlockText}}}},
		fullAssistant("e9"), // declined: tool_use, params, truncated
	}
	var out [][]byte
	for i := range entries {
		line, err := encodeRecord(&record{Type: recEntry, Time: clockStart.Add(time.Duration(i) * time.Millisecond), Entry: &entries[i]})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, line[:len(line)-1])
	}
	for _, s := range fastDecodeSamples {
		out = append(out, []byte(s))
	}
	return out
}

// checkFastDecode fails when decodeEntryRecord accepts data but decodes it
// differently from encoding/json.
func checkFastDecode(t *testing.T, data []byte) bool {
	t.Helper()
	e, ok := decodeEntryRecord(data)
	if !ok {
		return false
	}
	var rec record
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatalf("fast decoder accepted %q, which encoding/json rejects: %v", data, err)
	}
	if rec.Type != recEntry || !reflect.DeepEqual(e, rec.Entry) {
		t.Fatalf("fast decoder differs on %q:\n fast %#v\n json %#v", data, e, rec.Entry)
	}
	return true
}

func TestFastDecodeMatchesJSON(t *testing.T) {
	accepted := 0
	for _, data := range fastSeeds(t) {
		if checkFastDecode(t, data) {
			accepted++
		}
	}
	if accepted < 10 {
		t.Errorf("fast decoder accepted only %d of the common records", accepted)
	}
	for _, s := range []string{
		`{"type":"entry","time":"2025-03-01T09:00:01Z","entry":{"id":"e1","kind":"user","text":"x"}} `,
		`{"type":"entry","entry":{"id":"e1","ID":"e2"}}`,
		`{"type":"entry","entry":{"id":"e1","id":"e2"}}`,
		`{"type":"entry","entry":{"id":"e1","text":null}}`,
		`{"type":"entry","entry":{"id":"e1","latency_ms":1.0}}`,
		`{"type":"entry","entry":{"id":"e1","latency_ms":01}}`,
		`{"type":"entry","entry":{"id":"e1","text":"\ud83c\udf89"}}`,
		`{"type":"entry","entry":{"id":"e1","text":"` + "\xff" + `"}}`,
		`{"type":"entry","entry":{"id":"e1","message":{"content":[{"type":"tool_use","id":"t","name":"n","input":{}}]}}}`,
		`{"type":"entry","entry":{"id":"e1","message":{"content":[{"type":"text","text":"x","thinking":"y"}]}}}`,
		`{"type":"title","entry":{"id":"e1"}}`,
		`{"type":"entry","time":"yesterday","entry":{"id":"e1"}}`,
		`{"type":"entry","entry":{"id":"e1"}`,
	} {
		if _, ok := decodeEntryRecord([]byte(s)); ok {
			t.Errorf("fast decoder accepted %s; it should leave it to encoding/json", s)
		}
	}
	if !checkFastDecode(t, []byte(`{"type":"entry","entry":{"text":"x"}}`)) {
		t.Error("a minimal record was declined")
	}
}

func FuzzFastDecode(f *testing.F) {
	for _, data := range fastSeeds(f) {
		f.Add(data)
	}
	f.Add([]byte(`{"type":"entry","entry":{"id":"e1","text":"\u0041\/\b\f\r","latency_ms":-0}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastDecode(t, data)
	})
}

func TestReplayUsesFastDecoderResults(t *testing.T) {
	// A journal mixing records the fast decoder takes and declines loads the
	// same as the entries appended.
	s, _ := newTestStore(t)
	sess, err := s.Create(fullParams())
	if err != nil {
		t.Fatal(err)
	}
	var seeds []Entry
	for i, text := range []string{"one", "two \"q\" \\", strings.Repeat("long ", 1000)} {
		seeds = append(seeds, userEntry("u"+string(rune('a'+i)), text), benchEntry(2*i+1), fullAssistant("f"+string(rune('a'+i))))
	}
	for _, e := range seeds {
		if err := s.Append(sess, e); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, sess) {
		t.Errorf("loaded session differs:\n got %s\nwant %s", mustJSON(t, got), mustJSON(t, sess))
	}
}
