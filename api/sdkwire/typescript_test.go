//go:build !race

package sdkwire_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"muse/api"
	"muse/api/pdftest"
	"muse/ui/attach"
)

// tsc returns the TypeScript compiler and the node_modules folder that
// holds it and the official TypeScript SDK (@anthropic-ai/sdk), which
// .ci/ts-sdk installs and names in MUSE_TS_SDK. Without them the test
// fails under CI and skips elsewhere.
func tsc(t *testing.T) (bin, modules string) {
	t.Helper()
	dir := os.Getenv("MUSE_TS_SDK")
	modules = filepath.Join(dir, "node_modules")
	bin = filepath.Join(modules, ".bin", "tsc")
	if _, err := os.Stat(filepath.Join(modules, "@anthropic-ai", "sdk", "package.json")); dir == "" || err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("the TypeScript SDK is missing: source .ci/ts-sdk (MUSE_TS_SDK)")
		}
		t.Skip("the TypeScript SDK is missing: run `. .ci/ts-sdk` to install it (MUSE_TS_SDK)")
	}
	return bin, modules
}

// sentBodies sends each request through api's client, streamed, to a
// server that records the bodies as they arrive on the wire and refuses
// them.
func sentBodies(t *testing.T, reqs []api.MessageRequest) [][]byte {
	t.Helper()
	var mu sync.Mutex
	var bodies [][]byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			t.Error(err)
		}
		mu.Lock()
		bodies = append(bodies, b)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"type":"error","error":{"type":"invalid_request_error","message":"recorded"}}`)
	}))
	defer srv.Close()
	c := api.New(srv.URL, api.WithAPIKey("k"), api.WithMaxRetries(0), api.WithInsecureHTTP(true))
	defer c.Close()
	for i, req := range reqs {
		if s, err := c.StreamMessage(context.Background(), req); err == nil {
			s.Close()
			t.Fatalf("request %d: the recording server's refusal was not an error", i)
		} else if !strings.Contains(err.Error(), "recorded") {
			t.Fatalf("request %d was not sent: %v", i, err)
		}
	}
	if len(bodies) != len(reqs) {
		t.Fatalf("%d bodies recorded, want %d", len(bodies), len(reqs))
	}
	return bodies
}

// typeCheck writes bodies as constants of the TypeScript SDK's
// MessageCreateParams and returns tsc's complaints ("" when there are
// none). An object literal may not hold a property its type lacks, so a
// misspelt or unknown field fails, as does a wrong type or a missing
// required field.
func typeCheck(t *testing.T, bodies [][]byte) string {
	t.Helper()
	bin, modules := tsc(t)
	dir := t.TempDir()
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	var src bytes.Buffer
	src.WriteString("import type { MessageCreateParams } from \"@anthropic-ai/sdk/resources/messages\";\n")
	for i, b := range bodies {
		fmt.Fprintf(&src, "export const body%d: MessageCreateParams = %s;\n", i, b)
	}
	if err := os.WriteFile(filepath.Join(dir, "bodies.ts"), src.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--noEmit", "--strict", "--skipLibCheck", "--target", "es2022",
		"--module", "nodenext", "--moduleResolution", "nodenext", "bodies.ts")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil && len(out) == 0 {
		t.Fatalf("tsc: %v", err)
	}
	return string(out)
}

// toolTurns is a conversation with tools: a system prompt, a tool with a
// schema, adaptive thinking with an effort, and a tool round whose result
// holds text and an image, then a failed one.
func toolTurns() api.MessageRequest {
	temp := 0.5
	return api.MessageRequest{
		Model:     "claude-test",
		MaxTokens: 2048,
		System:    "be brief",
		Tools: []api.Tool{{Name: "read_file", Description: "reads a file",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)}},
		ToolChoice:    &api.ToolChoice{Type: "auto"},
		Thinking:      &api.Thinking{Type: api.ThinkingAdaptive},
		OutputConfig:  &api.OutputConfig{Effort: "high"},
		Metadata:      &api.Metadata{UserID: "u"},
		StopSequences: []string{"\n\nHuman:"},
		Temperature:   &temp,
		Messages: []api.MessageParam{
			api.TextMessage(api.RoleUser, "read a.go"),
			{Role: api.RoleAssistant, Blocks: []api.ContentBlock{
				{Type: api.BlockThinking, Thinking: "it asks for a file", Signature: "c2ln"},
				{Type: api.BlockText, Text: "reading"},
				{Type: api.BlockToolUse, ID: "toolu_1", Name: "read_file", Input: json.RawMessage(`{"path":"a.go"}`)},
			}},
			{Role: api.RoleUser, Blocks: []api.ContentBlock{
				{Type: api.BlockToolResult, ToolUseID: "toolu_1", ResultContent: mustJSON([]any{
					map[string]any{"type": "text", "text": "package a"},
					json.RawMessage(mustMarshal(api.ImageBlock("image/png", pngOf(2, 2)))),
				})},
			}},
			{Role: api.RoleAssistant, Blocks: []api.ContentBlock{
				{Type: api.BlockToolUse, ID: "toolu_2", Name: "read_file", Input: json.RawMessage(`{"path":"b.go"}`)},
			}},
			{Role: api.RoleUser, Blocks: []api.ContentBlock{
				{Type: api.BlockToolResult, ToolUseID: "toolu_2", ResultContent: mustJSON("no such file"), IsError: true},
				{Type: api.BlockText, Text: "then b.go is gone"},
			}},
		},
	}
}

// budgetThinking has a thinking budget (the form older models need), and
// a tool the model may not use.
func budgetThinking() api.MessageRequest {
	r := testRequest()
	r.MaxTokens = 4096
	r.Thinking = &api.Thinking{Type: api.ThinkingEnabled, BudgetTokens: 1024}
	r.Tools = []api.Tool{{Name: "now"}}
	r.ToolChoice = &api.ToolChoice{Type: "none"}
	return r
}

// mediaLimit is a request at the API's media limit: 99 images and a PDF,
// a plain-text document, citations asked for both documents.
func mediaLimit() api.MessageRequest {
	pdf := []byte("%PDF-1.7\n1 0 obj\n<< /Type /Pages /Count 1 >>\nendobj\n")
	blocks := []api.ContentBlock{{Type: api.BlockText, Text: "[an earlier image, left out]"}}
	for range 99 {
		blocks = append(blocks, api.ImageBlock("image/png", pngOf(2, 2)))
	}
	blocks = append(blocks, api.WithCitations(api.DocumentBlock(api.MediaPDF, pdf, "r.pdf")),
		api.WithCitations(api.TextDocumentBlock("a.go", "package a\n</file>")),
		api.TextDocumentBlock("notes.txt", "plain"),
		api.ContentBlock{Type: api.BlockText, Text: "what are these?"})
	return api.MessageRequest{Model: "m", MaxTokens: 10, Messages: []api.MessageParam{{Role: api.RoleUser, Blocks: blocks}}}
}

// longPDF is a prompt with a PDF of 100 pages, the most a request
// carries, as muse sends it.
func longPDF(t *testing.T) api.MessageRequest {
	f, err := attach.FromBytes("book.pdf", pdftest.Paged(100))
	if err != nil {
		t.Fatal(err)
	}
	return api.MessageRequest{Model: "m", MaxTokens: 10, Messages: []api.MessageParam{
		{Role: api.RoleUser, Blocks: []api.ContentBlock{api.DocumentBlock(f.MediaType, f.Data, f.Name), {Type: api.BlockText, Text: "summarize it"}}}}}
}

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func mustJSON(v any) json.RawMessage { return mustMarshal(v) }

// The bodies muse sends, as they arrive on the wire, are what the official
// TypeScript SDK's request type allows: every field known, of the right
// type, every required field there. A body with a misspelt field fails
// the same check, so the check is not vacuous.
func TestTypeScriptSDKAcceptsTheBodies(t *testing.T) {
	reqs := []api.MessageRequest{testRequest(), toolTurns(), budgetThinking(), mediaLimit(), longPDF(t)}
	for i, r := range reqs {
		if err := r.Validate(); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	}
	bodies := sentBodies(t, reqs)
	if out := typeCheck(t, bodies); out != "" {
		t.Fatalf("tsc refuses muse's request bodies:\n%s", out)
	}
	bad := bytes.Replace(bodies[3], []byte(`"title":"a.go"`), []byte(`"titel":"a.go"`), 1)
	if bytes.Equal(bad, bodies[3]) {
		t.Fatal("the media request has no document titled a.go")
	}
	if out := typeCheck(t, [][]byte{bad}); !strings.Contains(out, "titel") {
		t.Fatalf("tsc took a misspelt field: %q", out)
	}
}
