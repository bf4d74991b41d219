package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muse/api"
	"muse/api/demo"
	"muse/session"
	"muse/ui/engine"
)

// A turn that calls an MCP tool asks first, sends the result back (its
// image as an image block in the tool_result), and saves the round like
// any tool round, the image stored as an attachment rather than in the
// journal: a reloaded session sends the same history.
func TestTurnWithMCPTool(t *testing.T) {
	srv := httptest.NewServer(demo.NewHandler(demo.Options{}))
	defer srv.Close()
	client := api.New(srv.URL, api.WithAccessToken(demo.DefaultToken), api.WithMaxRetries(0))
	m := New([]Server{inProcess("mem")}, Options{})
	defer m.Close()
	store, err := session.Open(filepath.Join(t.TempDir(), "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	params := session.Params{Model: "demo-chat", MaxTokens: 1024, ToolChoice: "mem__image"}
	w := session.NewWriter(store, params)
	var asked []string
	approve := func(_ context.Context, call api.ContentBlock, hasCommand bool) engine.Approval {
		asked = append(asked, call.Name)
		if !hasCommand {
			t.Errorf("an MCP tool asks for a typed result")
		}
		return engine.Approval{Run: true}
	}
	cfg := engine.Config{Client: client, MoreTools: m.Tools, MaxRounds: 1}
	res, err := engine.Run(context.Background(), cfg, w, engine.Turn{Prompt: "draw demo:tool", Params: params}, func(engine.Event) {}, approve)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(asked, ",") != "mem__image" {
		t.Errorf("asked about %q", asked)
	}
	if res.Rounds != 1 {
		t.Errorf("rounds %d", res.Rounds)
	}
	w.Close()
	sess, err := store.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	var tr *session.ToolResult
	for _, e := range sess.Entries {
		if e.Kind == session.KindTool {
			tr = &e.ToolResults[0]
		}
	}
	if tr == nil || !strings.Contains(tr.Output, "a dot") || len(tr.Images) != 1 || len(tr.Content) != 0 || tr.Approval != "yes" {
		t.Fatalf("saved result %+v", tr)
	}
	if a := tr.Images[0]; a.Name != "mem__image image 1" || a.Kind != session.AttachImage || a.MediaType != "image/png" || a.Width != 3 || a.Height != 2 || a.Bytes != int64(len(dotPNG())) {
		t.Errorf("image %+v", a)
	}
	// The journal names the image; its bytes are in the attachments folder.
	journal, err := os.ReadFile(filepath.Join(store.Dir(), w.ID()+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if b64 := base64.StdEncoding.EncodeToString(dotPNG()); strings.Contains(string(journal), b64[:20]) {
		t.Errorf("the journal holds the image's bytes")
	}
	read := func(a session.Attachment) ([]byte, error) { return store.ReadAttachment(w.ID(), a) }
	hist, _ := json.Marshal(session.History(sess.Entries, read))
	want := `"content":[{"type":"text","text":"a dot\n[image: image/png, 77 bytes]\n[an image of 16 bytes left out: its bytes are not the image/png image they are said to be]\n[dot.png](file:///tmp/dot.png)"},` +
		`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + base64.StdEncoding.EncodeToString(dotPNG()) + `"}}]`
	if !strings.Contains(string(hist), want) {
		t.Errorf("history sends %s\nwant %s", hist, want)
	}
}

// A tool the configuration allows runs without asking.
func TestAllowedToolRunsWithoutAsking(t *testing.T) {
	srv := httptest.NewServer(demo.NewHandler(demo.Options{}))
	defer srv.Close()
	client := api.New(srv.URL, api.WithAccessToken(demo.DefaultToken), api.WithMaxRetries(0))
	s := inProcess("mem")
	s.Allow = []string{"echo"}
	m := New([]Server{s}, Options{})
	defer m.Close()
	params := session.Params{Model: "demo-chat", MaxTokens: 1024, ToolChoice: "mem__echo"}
	w := session.NewWriter(nil, params)
	approve := func(context.Context, api.ContentBlock, bool) engine.Approval {
		t.Error("asked about an allowed tool")
		return engine.Approval{Stop: true}
	}
	res, err := engine.Run(context.Background(), engine.Config{Client: client, MoreTools: m.Tools, MaxRounds: 1}, w,
		engine.Turn{Prompt: "demo:tool", Params: params}, func(engine.Event) {}, approve)
	if err != nil || res.Rounds != 1 {
		t.Fatalf("rounds %d, err %v", res.Rounds, err)
	}
}
