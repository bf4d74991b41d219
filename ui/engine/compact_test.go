package engine

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"muse/api"
	"muse/api/demo"
	"muse/session"
)

// A Compact turn sends the whole branch and the compaction prompt with
// its instructions, tools off, and writes the prompt and the summary as a
// new branch from the root; the old branch stays in the session, and the
// next prompt sends only the summary's branch.
func TestCompact(t *testing.T) {
	var mu sync.Mutex
	var bodies []map[string]any
	dh := demo.NewHandler(demo.Options{})
	c := client(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		mu.Lock()
		bodies = append(bodies, m)
		mu.Unlock()
		r.Body = io.NopCloser(strings.NewReader(string(b)))
		dh.ServeHTTP(w, r)
	}))
	w := session.NewWriter(nil, params)
	emit := func(Event) {}
	tools := []Tool{{Def: api.Tool{Name: "get_time", InputSchema: json.RawMessage(`{"type":"object"}`)}, Command: []string{"x"}}}
	for _, p := range []string{"first question", "second question"} {
		if _, err := Run(context.Background(), Config{Client: c}, w, Turn{Prompt: p, Params: params}, emit, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Run(context.Background(), Config{Client: c, Tools: tools}, w, Turn{Compact: true, Prompt: "keep the names", Params: params}, emit, nil); err != nil {
		t.Fatal(err)
	}
	sent := bodies[2]
	msgs := sent["messages"].([]any)
	if tc, _ := json.Marshal(sent["tool_choice"]); len(msgs) != 5 || !strings.Contains(string(tc), "none") {
		t.Fatalf("the compaction request: %d messages, tool_choice %v", len(msgs), sent["tool_choice"])
	}
	last, _ := json.Marshal(msgs[4])
	if !strings.Contains(string(last), "Summarise our conversation") || !strings.Contains(string(last), "keep the names") {
		t.Errorf("last message %s", last)
	}
	snap := w.Snapshot()
	if len(snap.Entries) != 2 || snap.Entries[0].Parent != "" || snap.Entries[0].Text != CompactPrompt("keep the names") || snap.Entries[1].Kind != session.KindAssistant {
		t.Fatalf("the new branch: %+v", snap.Entries)
	}
	if len(snap.All) != 6 {
		t.Errorf("the session holds %d entries, want the old branch's 4 and the new 2", len(snap.All))
	}
	if _, err := Run(context.Background(), Config{Client: c}, w, Turn{Prompt: "go on", Params: params}, emit, nil); err != nil {
		t.Fatal(err)
	}
	if n := len(bodies[3]["messages"].([]any)); n != 3 {
		t.Errorf("the prompt after compaction sent %d messages, want the summary's branch and itself (3)", n)
	}

	// Nothing to compact: refused before any request.
	_, err := Run(context.Background(), Config{Client: c}, session.NewWriter(nil, params), Turn{Compact: true, Params: params}, emit, nil)
	if !errors.Is(err, ErrNotStarted) || !strings.Contains(err.Error(), "nothing to compact") {
		t.Errorf("empty: %v", err)
	}
}
