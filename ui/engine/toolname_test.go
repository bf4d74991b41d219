package engine

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"muse/api"
	"muse/api/demo"
	"muse/session"
)

// A tool of a ToolSource (an MCP server's) whose name breaks the API's
// rule, ^[a-zA-Z0-9_-]{1,64}$, is left out before anything is sent, with
// a note, and the turn goes on with the others; the request check refuses
// such a name in any case.
func TestToolWithABadNameIsLeftOut(t *testing.T) {
	var mu sync.Mutex
	var bodies []string
	inner := demo.NewHandler(demo.Options{})
	c := client(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		r.Body = io.NopCloser(strings.NewReader(string(b)))
		inner.ServeHTTP(w, r)
	}))
	long := strings.Repeat("x", 65) // the demo, like the API's newer rule, takes up to 128
	tool := func(name string) Tool {
		return Tool{Def: api.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)},
			Call: func(context.Context, json.RawMessage) ToolOutput { return ToolOutput{Text: "ok"} }}
	}
	more := func(context.Context) ([]Tool, []string) {
		return []Tool{tool("files.read"), tool("srv__ok"), tool(long), tool("a\x1b[2Jb")}, nil
	}
	var notes []string
	emit := func(ev Event) {
		if ev.Kind == Notice {
			notes = append(notes, ev.Text)
		}
	}
	res, err := Run(context.Background(), Config{Client: c, MoreTools: more}, session.NewWriter(nil, params), Turn{Prompt: "hi", Params: params}, emit, nil)
	if err != nil || res.Message.Text() == "" {
		t.Fatalf("the turn: %v", err)
	}
	want := []string{`tool "files.read" is not offered`, `tool "` + long + `" is not offered`, `tool "ab" is not offered`} // sanitized
	if len(notes) != len(want) {
		t.Fatalf("notes %q", notes)
	}
	for i, w := range want {
		if !strings.HasPrefix(notes[i], w) || !strings.HasSuffix(notes[i], "must be "+api.ToolNameRule) {
			t.Errorf("note %q, want %q…", notes[i], w)
		}
	}
	if len(bodies) != 1 || !strings.Contains(bodies[0], `"name":"srv__ok"`) || strings.Contains(bodies[0], "files.read") || strings.Contains(bodies[0], long) {
		t.Errorf("sent %q", bodies)
	}

	// The request check, whatever builds the request.
	req := api.MessageRequest{Model: "m", MaxTokens: 10, Messages: []api.MessageParam{{Role: "user", Text: "hi"}},
		Tools: []api.Tool{{Name: "ok"}, {Name: "files.read"}}}
	if err := req.Validate(); err == nil || !strings.Contains(err.Error(), `tools[1] is named "files.read": a tool's name must be 1 to 64`) {
		t.Errorf("Validate: %v", err)
	}
}
