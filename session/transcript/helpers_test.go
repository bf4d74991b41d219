package transcript

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"muse/api"
	"muse/session"
)

var clockStart = time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)

// newTestStore opens a store in a fresh directory.
func newTestStore(t *testing.T) *session.Store {
	t.Helper()
	s, err := session.Open(filepath.Join(t.TempDir(), "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// saved writes a session with the settings p, the entries and the title
// through a writer and loads it back, created and updated at clockStart.
func saved(t *testing.T, s *session.Store, p session.Params, title string, entries ...session.Entry) *session.Session {
	t.Helper()
	w := session.NewWriter(s, p)
	for _, e := range entries {
		if _, err := w.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	if title != "" {
		if err := w.SetTitle(title); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	got.Created, got.Updated = clockStart, clockStart.Add(10*time.Second)
	return got
}

func fullParams() session.Params {
	return session.Params{
		Model:         "claude-sonnet-4-5",
		MaxTokens:     8192,
		System:        "You are terse.",
		Temperature:   api.Float(0.7),
		TopP:          api.Float(0.9),
		TopK:          api.Int(40),
		StopSequences: []string{"\n\nHuman:", "END"},
	}
}

func userEntry(id, text string) session.Entry {
	return session.Entry{ID: id, Kind: session.KindUser, Time: clockStart.Add(time.Minute), Text: text}
}

// fullAssistant is an assistant entry with every kind of content.
func fullAssistant(id string) session.Entry {
	p := fullParams()
	return session.Entry{
		ID:   id,
		Kind: session.KindAssistant,
		Time: time.Date(2025, 3, 1, 9, 1, 2, 123456789, time.UTC),
		Message: &api.Message{
			ID:    "msg_01XyZ",
			Type:  "message",
			Role:  api.RoleAssistant,
			Model: "claude-sonnet-4-5",
			Content: []api.ContentBlock{
				{Type: api.BlockThinking, Thinking: "The user wants <b> & \"quotes\".", Signature: "EqQBCkYIBRgCKkDsig=="},
				{Type: api.BlockText, Text: "Hello,\nworld — ünïcödé 🎉 <b>&</b>"},
				{Type: api.BlockToolUse, ID: "toolu_01A", Name: "read_file", Input: json.RawMessage(`{"path":"/tmp/x","lines":[1,2]}`)},
				{Type: "server_tool_use", Raw: json.RawMessage(`{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"go"}}`)},
			},
			StopReason: api.StopToolUse,
			Usage:      api.Usage{InputTokens: 120, OutputTokens: 345, CacheCreationInputTokens: 6, CacheReadInputTokens: 7},
		},
		Truncated: map[int]string{4: `{"path":"/tm`},
		Status:    session.StatusComplete,
		RequestID: "req_011CQ",
		LatencyMS: 2345,
		Params:    &p,
	}
}

// mustJSON returns v as JSON.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func reply(text string) session.Entry {
	return session.Entry{Kind: session.KindAssistant, Status: session.StatusComplete, Message: &api.Message{Role: api.RoleAssistant, Model: "m",
		Content: []api.ContentBlock{{Type: api.BlockText, Text: text}}}}
}

// branched writes a session with two questions, then edits the first
// question (a new branch from the start) and regenerates its reply (a
// sibling reply). It returns the writer.
func branched(t *testing.T, s *session.Store) *session.Writer {
	t.Helper()
	w := session.NewWriter(s, session.Params{Model: "m"})
	add := func(e session.Entry) session.Entry {
		t.Helper()
		got, err := w.Append(e)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	add(session.Entry{Kind: session.KindUser, Text: "ask about go"})
	add(reply("go answer"))
	add(session.Entry{Kind: session.KindUser, Text: "second question"})
	add(reply("second answer"))
	// Edit the first question: a sibling of q1, at the root.
	q1b, err := w.AppendAt(session.Entry{Kind: session.KindUser, Text: "ask about rust"}, "")
	if err != nil {
		t.Fatal(err)
	}
	add(reply("rust answer"))
	// Regenerate that reply: a sibling of a1b.
	if _, err := w.AppendAt(reply("rust answer, again"), q1b.ID); err != nil {
		t.Fatal(err)
	}
	return w
}

func texts(es []session.Entry) []string {
	var out []string
	for _, e := range es {
		if e.Message != nil {
			out = append(out, e.Message.Text())
		} else {
			out = append(out, e.Text)
		}
	}
	return out
}
