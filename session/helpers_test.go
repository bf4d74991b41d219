package session

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"muse/api"
)

// testClock is a clock that advances one second per reading.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

var clockStart = time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)

// newTestStore opens a store in a fresh directory with a test clock.
func newTestStore(t *testing.T) (*Store, *testClock) {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	c := &testClock{t: clockStart}
	s.now = c.now
	return s, c
}

func fullParams() Params {
	return Params{
		Model:         "claude-sonnet-4-5",
		MaxTokens:     8192,
		System:        "You are terse.",
		Temperature:   api.Float(0.7),
		TopP:          api.Float(0.9),
		TopK:          api.Int(40),
		StopSequences: []string{"\n\nHuman:", "END"},
	}
}

func userEntry(id, text string) Entry {
	return Entry{ID: id, Kind: KindUser, Time: clockStart.Add(time.Minute), Text: text}
}

// fullAssistant is an assistant entry with every kind of content.
func fullAssistant(id string) Entry {
	p := fullParams()
	return Entry{
		ID:   id,
		Kind: KindAssistant,
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
		Status:    StatusComplete,
		RequestID: "req_011CQ",
		LatencyMS: 2345,
		Params:    &p,
	}
}

// journalLines returns the lines of the journal of id, without newlines.
func journalLines(t *testing.T, s *Store, id string) []string {
	t.Helper()
	b, err := os.ReadFile(s.path(id))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) == 0 || b[len(b)-1] != '\n' {
		t.Fatalf("journal %s does not end in a newline: %q", id, b)
	}
	return strings.Split(string(b[:len(b)-1]), "\n")
}

// writeJournal replaces the journal of id with lines, joined by newlines,
// plus tail.
func writeJournal(t *testing.T, s *Store, id string, lines []string, tail string) {
	t.Helper()
	data := strings.Join(lines, "\n") + "\n" + tail
	if len(lines) == 0 {
		data = tail
	}
	if err := os.WriteFile(s.path(id), []byte(data), 0o600); err != nil {
		t.Fatal(err)
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

func hasWarning(sess *Session, sub string) bool {
	for _, w := range sess.Warnings {
		if strings.Contains(w, sub) {
			return true
		}
	}
	return false
}

func boolp(v bool) *bool { return &v }

// replay rebuilds a session from the journal in r. id is the session's id as
// named by the journal's file; it wins over the id in the header. Damage that
// leaves a usable session is reported in its Warnings; a journal with neither
// a header nor any readable record is a *damageError. A reply still streaming
// when the journal ends was cut short by a crash: it is marked interrupted,
// or dropped when nothing of it arrived.
func replay(r io.Reader, id string) (*Session, error) {
	sess, _, err := replayStats(r, id, false)
	return sess, err
}

// Branched reports whether the session holds more than one branch.
func (s *Session) Branched() bool {
	parents := make(map[string]bool, len(s.All))
	for _, e := range s.All {
		if parents[e.Parent] {
			return true
		}
		parents[e.Parent] = true
	}
	return false
}

// Flush tries again to write the records that wait.
func (w *Writer) Flush() error {
	w.lock()
	n := w.queued
	w.mu.Unlock()
	return w.commit(n, nil, true)
}

// isEntryID reports whether id is one Writer.NewID makes.
func isEntryID(id string) bool {
	return regexp.MustCompile(`^e[0-9a-hjkmnp-tv-z]{23}$`).MatchString(id)
}
