package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

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
	hist, _ := json.Marshal(engine.History(sess.Entries, read))
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

// A server's instructions go into the system prompt of every request of
// the turn, after the user's own, sanitized; a tool's progress reaches the
// front end as ToolProgress events, none after the call's result.
func TestTurnSendsInstructionsAndProgress(t *testing.T) {
	var systems []string
	demoHandler := demo.NewHandler(demo.Options{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/messages") {
			body, _ := io.ReadAll(r.Body)
			var req struct{ System string }
			_ = json.Unmarshal(body, &req)
			systems = append(systems, req.System)
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		demoHandler.ServeHTTP(w, r)
	}))
	defer srv.Close()
	client := api.New(srv.URL, api.WithAccessToken(demo.DefaultToken), api.WithMaxRetries(0))
	shown := make(chan struct{})
	s := sdk.NewServer(&sdk.Implementation{Name: "steps", Version: "1"}, &sdk.ServerOptions{Instructions: "Call work \x1b[31mfirst\x1b[0m."})
	s.AddTool(&sdk.Tool{Name: "work", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			for i := 1; i <= 2; i++ {
				_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: float64(i), Total: 2, Message: "step\x07"})
			}
			select { // the notes are handled apart from the result: wait for them
			case <-shown:
			case <-ctx.Done():
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "done"}}}, nil
		})
	m := New([]Server{{Name: "steps", Connect: func(ctx context.Context) (sdk.Transport, error) {
		ct, st := sdk.NewInMemoryTransports()
		if _, err := s.Connect(ctx, st, nil); err != nil {
			return nil, err
		}
		return ct, nil
	}}}, Options{})
	defer m.Close()
	params := session.Params{Model: "demo-chat", MaxTokens: 1024, ToolChoice: "steps__work", System: "Be brief."}
	w := session.NewWriter(nil, params)
	var events []string
	emit := func(ev engine.Event) {
		switch ev.Kind {
		case engine.ToolProgress:
			events = append(events, "progress "+ev.Text)
			if strings.HasPrefix(ev.Text, "2/2") {
				close(shown)
			}
		case engine.EntryAdded:
			if ev.Entry.Kind == session.KindTool {
				events = append(events, "result")
			}
		}
	}
	approve := func(context.Context, api.ContentBlock, bool) engine.Approval { return engine.Approval{Run: true} }
	cfg := engine.Config{Client: client, MoreTools: m.Tools, Instructions: m.Instructions, MaxRounds: 1}
	if _, err := engine.Run(context.Background(), cfg, w, engine.Turn{Prompt: "demo:tool", Params: params}, emit, approve); err != nil {
		t.Fatal(err)
	}
	want := "Be brief.\n\nInstructions from the MCP servers whose tools are offered (tools named SERVER__TOOL):\n\n" +
		"<mcp_server_instructions server=\"steps\">\nCall work first.\n</mcp_server_instructions>"
	if len(systems) != 2 || systems[0] != want || systems[1] != want {
		t.Errorf("system prompts %q\nwant %q", systems, want)
	}
	if strings.Join(events, ", ") != "progress 1/2 · step, progress 2/2 · step, result" {
		t.Errorf("events %q", events)
	}
}

// A tool's audio is saved beside the session, once by its hash (the file
// 0600 in a 0700 folder), and linked in the result's text, not sent.
func TestTurnSavesToolAudio(t *testing.T) {
	srv := httptest.NewServer(demo.NewHandler(demo.Options{}))
	defer srv.Close()
	client := api.New(srv.URL, api.WithAccessToken(demo.DefaultToken), api.WithMaxRetries(0))
	wav := append([]byte("RIFF\x24\x00\x00\x00WAVEfmt "), make([]byte, 28)...)
	s := sdk.NewServer(&sdk.Implementation{Name: "sound", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "beep", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "a beep"}, &sdk.AudioContent{MIMEType: "audio/wav", Data: wav}}}, nil
		})
	m := New([]Server{{Name: "sound", Connect: func(ctx context.Context) (sdk.Transport, error) {
		ct, st := sdk.NewInMemoryTransports()
		if _, err := s.Connect(ctx, st, nil); err != nil {
			return nil, err
		}
		return ct, nil
	}}}, Options{})
	defer m.Close()
	store, err := session.Open(filepath.Join(t.TempDir(), "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	params := session.Params{Model: "demo-chat", MaxTokens: 1024, ToolChoice: "sound__beep"}
	w := session.NewWriter(store, params)
	approve := func(context.Context, api.ContentBlock, bool) engine.Approval { return engine.Approval{Run: true} }
	if _, err := engine.Run(context.Background(), engine.Config{Client: client, MoreTools: m.Tools, MaxRounds: 1}, w,
		engine.Turn{Prompt: "demo:tool", Params: params}, func(engine.Event) {}, approve); err != nil {
		t.Fatal(err)
	}
	w.Close()
	sess, err := store.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	var out string
	for _, e := range sess.Entries {
		if e.Kind == session.KindTool {
			out = e.ToolResults[0].Output
		}
	}
	dir := store.AttachmentDir(w.ID())
	sum := sha256.Sum256(wav)
	path := filepath.Join(dir, hex.EncodeToString(sum[:])+".wav")
	if !strings.Contains(out, "[audio 1: audio/wav, 44 bytes, saved beside the session") || !strings.Contains(out, "audio 1 (audio/wav) saved as file://"+path) {
		t.Errorf("output %q", out)
	}
	if data, err := os.ReadFile(path); err != nil || !bytes.Equal(data, wav) {
		t.Fatalf("saved audio: %v", err)
	}
	for p, want := range map[string]os.FileMode{path: 0o600, dir: 0o700} {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != want {
			t.Errorf("%s: %v %v, want %v", p, st.Mode().Perm(), err, want)
		}
	}
}
