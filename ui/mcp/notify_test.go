package mcp

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"muse/ui/engine"
	"muse/ui/internal/waitfor"
)

// A tool a server adds once it runs (it sends
// notifications/tools/list_changed) is offered from the next turn and
// shown by Status; one it removes is no longer offered.
func TestToolListChangedRefreshes(t *testing.T) {
	srv := testServer()
	m := New([]Server{{Name: "a", Connect: func(ctx context.Context) (sdk.Transport, error) {
		ct, st := sdk.NewInMemoryTransports()
		if _, err := srv.Connect(ctx, st, nil); err != nil {
			return nil, err
		}
		return ct, nil
	}}}, Options{})
	defer m.Close()
	if got := tools(t, m); got["a__later"] != nil || got["a__echo"] == nil {
		t.Fatalf("tools before the change: %d", len(got))
	}
	changed := m.changedChan()
	srv.AddTool(&sdk.Tool{Name: "later", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "added later"}}}, nil
		})
	waitfor.Recv(t, changed, "the new tool list") // the list is in: /mcp shows it without a turn
	if st := m.Status()[0]; !slices.Contains(st.Tools, "a__later") {
		t.Errorf("Status tools %q", st.Tools)
	}
	got := tools(t, m)
	if got["a__later"] == nil || got["a__later"]("{}") != "added later" {
		t.Fatalf("the added tool is not offered")
	}
	changed = m.changedChan()
	srv.RemoveTools("later")
	waitfor.Recv(t, changed, "the new tool list")
	if got := tools(t, m); got["a__later"] != nil {
		t.Errorf("a removed tool is still offered")
	}

	// A tool the refreshed list leaves out is noted once, for the status
	// line (Notes), as at the start; not again at the next refresh.
	changed = m.changedChan()
	srv.AddTool(&sdk.Tool{Name: "huge", Description: strings.Repeat("d", maxToolSize), InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return nil, nil })
	waitfor.Recv(t, changed, "the new tool list")
	notes, more := m.Notes(context.Background())
	if len(notes) != 1 || !strings.HasPrefix(notes[0], `MCP server a: tool "huge" is not offered: its description and input schema come to 32.0 KiB`) || !more {
		t.Errorf("notes %q (more %t)", notes, more)
	}
	changed = m.changedChan()
	srv.AddTool(&sdk.Tool{Name: "later", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return nil, nil })
	waitfor.Recv(t, changed, "the new tool list")
	if got := tools(t, m); got["a__later"] == nil || got["a__huge"] != nil {
		t.Errorf("tools after the refresh: %d", len(got))
	}
}

// changedChan returns the channel closed at the next change.
func (m *Manager) changedChan() chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.changed
}

// The everything server on each transport: its instructions go into the
// system prompt (Instructions), and /mcp shows them (Status); a long tool
// reports its progress, which reaches the engine's reporter as it comes;
// roots are declared and answered only when offered.
func TestEverythingInstructionsProgressRoots(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			srv, _ := everything(t, "ev", tr)
			dir := t.TempDir()
			m := New([]Server{srv}, Options{Roots: []string{dir}})
			defer m.Close()
			evTools(t, m)
			got, _ := m.Tools(context.Background())
			in := m.Instructions()
			if !strings.Contains(in, `<mcp_server_instructions server="ev">`) || !strings.Contains(in, "Everything Server") || len(in) > maxInstructions+300 {
				t.Errorf("instructions (%d bytes): %.200q", len(in), in)
			}
			if st := m.Status()[0]; !strings.Contains(st.Instructions, "Everything Server") {
				t.Errorf("Status instructions %.80q", st.Instructions)
			}
			var long, roots *engine.Tool
			for i := range got {
				switch got[i].Def.Name {
				case "ev__trigger-long-running-operation":
					long = &got[i]
				case "ev__get-roots-list":
					roots = &got[i]
				}
			}
			if long == nil || roots == nil {
				t.Fatalf("no long-running or roots tool among %d", len(got))
			}
			var mu sync.Mutex
			var reports []string
			ctx := engine.WithProgress(context.Background(), func(p engine.Progress) {
				mu.Lock()
				reports = append(reports, p.String())
				mu.Unlock()
			})
			out := long.Call(ctx, json.RawMessage(`{"duration":0.3,"steps":3}`))
			if out.IsError || !strings.Contains(out.Text, "Long running operation completed") {
				t.Fatalf("long = %+v", out)
			}
			mu.Lock()
			// The last may come after the result (notifications are handled
			// apart from it), and is then dropped; the others came 0.1 s before.
			if len(reports) < 2 || len(reports) > 3 || !slices.Equal(reports[:2], []string{"1/3", "2/3"}) {
				t.Errorf("progress %q", reports)
			}
			mu.Unlock()
			if out := roots.Call(context.Background(), json.RawMessage(`{}`)); !strings.Contains(out.Text, "file://"+dir) {
				t.Errorf("roots = %+v", out)
			}
		})
	}
}

// Without roots offered (the default), muse declares none, so the server
// offers no tool that needs them.
func TestEverythingNoRootsByDefault(t *testing.T) {
	srv, _ := everything(t, "ev", "stdio")
	m := New([]Server{srv}, Options{})
	defer m.Close()
	got := evTools(t, m)
	if got["ev__get-roots-list"] != nil || got["ev__echo"] == nil {
		t.Errorf("get-roots-list offered without roots")
	}
	// Its structured content is said once: its text is that JSON already.
	if out := got["ev__get-structured-content"](`{"location":"Chicago"}`); strings.Count(out, "temperature") != 1 || strings.Contains(out, "structured content:") {
		t.Errorf("structured = %q", out)
	}
}
