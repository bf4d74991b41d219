package session

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"muse/api"
)

// repeatReader yields b forever.
type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

func TestReplayOversizedLine(t *testing.T) {
	if testing.Short() && os.Getenv("CI") == "" { // CI runs everything
		t.Skip("reads 64 MiB")
	}
	header := `{"v":1,"type":"header","time":"2025-03-01T09:00:00Z","id":"s","created":"2025-03-01T09:00:00Z","params":{}}` + "\n"
	entry := `{"type":"entry","time":"2025-03-01T09:00:01Z","entry":{"id":"e1","kind":"user","time":"2025-03-01T09:00:01Z","text":"ok"}}` + "\n"
	huge := func() io.Reader {
		return io.MultiReader(strings.NewReader(`{"type":"entry","entry":{"id":"big","text":"`), io.LimitReader(repeatReader('a'), maxLine))
	}
	for _, tc := range []struct {
		name    string
		r       io.Reader
		warning string
	}{
		{"middle", io.MultiReader(strings.NewReader(header), huge(), strings.NewReader("\"}}\n"+entry)), "line 2: skipped a record larger than 64 MiB"},
		{"last", io.MultiReader(strings.NewReader(header+entry), huge()), "dropped an unfinished last record"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sess, err := replay(tc.r, "s")
			if err != nil {
				t.Fatal(err)
			}
			if len(sess.Entries) != 1 || sess.Entries[0].ID != "e1" {
				t.Errorf("entries %v, want e1 only", ids(sess.Entries))
			}
			if len(sess.Warnings) != 1 || !strings.HasPrefix(sess.Warnings[0], tc.warning) {
				t.Errorf("warnings %q, want %q", sess.Warnings, tc.warning)
			}
		})
	}
}

func TestEncodeRecordRejectsOversized(t *testing.T) {
	if testing.Short() && os.Getenv("CI") == "" { // CI runs everything
		t.Skip("builds 64 MiB")
	}
	e := Entry{ID: "e1", Kind: KindUser, Text: strings.Repeat("a", maxLine)}
	if _, err := encodeRecord(&record{Type: recEntry, Entry: &e}); err == nil {
		t.Error("a record larger than replay accepts was encoded")
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestReplayReadError(t *testing.T) {
	_, err := replay(io.MultiReader(strings.NewReader("{}\n"), failingReader{}), "s")
	if err == nil || !strings.Contains(err.Error(), "disk on fire") || errors.Is(err, ErrDamaged) {
		t.Errorf("replay error = %v, want the read error, not damage", err)
	}
}

func FuzzReplay(f *testing.F) {
	f.Add([]byte(`{"v":1,"type":"header","id":"s","created":"2025-03-01T09:00:00Z","params":{}}` + "\n" +
		`{"type":"entry","entry":{"id":"e1","kind":"assistant","message":{"content":[{"type":"text","text":"x"},{"type":"weird"}]}}}` + "\n"))
	f.Add([]byte(`{"type":"entry","entry":{"id":"e1"}}` + "\n" + `{"type":"entry","entry":{"id":"e1","kind":"user"}}`))
	f.Add([]byte("garbage\n{\"type\":\"title\",\"title\":\"t\"}\n{\"type\":"))
	f.Add([]byte(""))
	// Entry records as encodeRecord writes them, which replay defers: a
	// reply checkpointed, one checkpoint torn, a retract and a re-add.
	cp := func(id, text string) string {
		return `{"type":"entry","time":"2025-03-01T09:00:01Z","entry":{"id":"` + id + `","kind":"assistant","time":"2025-03-01T09:00:01Z","message":{"id":"","type":"","role":"assistant","model":"m","content":[{"type":"text","text":"` + text + `"}],"usage":{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}},"status":"streaming"}}` + "\n"
	}
	f.Add([]byte(`{"v":1,"type":"header","id":"s","created":"2025-03-01T09:00:00Z","params":{}}` + "\n" +
		cp("e1", "a") + cp("e1", "ab")[:60] + "\n" + cp("e1", "abc") + `{"type":"retract","retract":["e1"]}` + "\n" + cp("e1", "x") + cp("e2", "y")))
	f.Fuzz(func(t *testing.T, data []byte) {
		sess, err := replay(strings.NewReader(string(data)), "s")
		if err != nil {
			if !errors.Is(err, ErrDamaged) {
				t.Fatalf("replay error %v does not wrap ErrDamaged", err)
			}
			return
		}
		if sess.ID != "s" {
			t.Fatalf("id %q, want the file name's", sess.ID)
		}
		seen := map[string]bool{}
		for _, e := range sess.Entries {
			if e.Status == StatusStreaming {
				t.Fatalf("entry %q is still streaming after replay", e.ID)
			}
			if e.ID != "" && seen[e.ID] {
				t.Fatalf("entry id %q appears twice", e.ID)
			}
			seen[e.ID] = true
		}
	})
}

func TestToolEntryRoundTripAndHistory(t *testing.T) {
	st, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sess, _ := st.Create(Params{Model: "m", ThinkingBudget: 2048, ToolChoice: "auto", UserID: "u"})
	call := api.ContentBlock{Type: api.BlockToolUse, ID: "toolu_1", Name: "get_time", Input: json.RawMessage(`{"tz":"UTC"}`)}
	entries := []Entry{
		{ID: "e1", Kind: KindUser, Text: "what time is it?"},
		{ID: "e2", Kind: KindAssistant, Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: "Let me check."}, call}, StopReason: "tool_use"}},
		{ID: "e3", Kind: KindTool, ToolResults: []ToolResult{{ToolUseID: "toolu_1", Name: "get_time", Output: "12:00", Approval: "yes"}}},
		{ID: "e4", Kind: KindAssistant, Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: "It is noon."}}, StopReason: "end_turn"}},
	}
	for _, e := range entries {
		if err := st.Append(sess, e); err != nil {
			t.Fatal(err)
		}
	}
	back, err := st.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Entries[2].ToolResults; len(got) != 1 || got[0].Output != "12:00" || got[0].Approval != "yes" {
		t.Fatalf("tool results after reload: %+v", got)
	}
	if back.Params.ThinkingBudget != 2048 || back.Params.ToolChoice != "auto" || back.Params.UserID != "u" {
		t.Errorf("params after reload: %+v", back.Params)
	}
}
