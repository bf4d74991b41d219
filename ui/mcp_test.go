package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/muesli/termenv"

	"muse/session"
	"muse/ui/mcp"
)

// logoPNG is a PNG of 4×2 blue pixels.
func logoPNG() []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 4, 2))
	for i := range img.Pix {
		if i%4 == 2 || i%4 == 3 {
			img.Pix[i] = 0xff
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// picsServer is an MCP server in this process with one tool, logo, whose
// result is a line of text and a PNG.
func picsServer() mcp.Server {
	return mcp.Server{Name: "pics", Type: "in-process", Where: "test", Connect: func(ctx context.Context) (sdk.Transport, error) {
		s := sdk.NewServer(&sdk.Implementation{Name: "pics", Version: "1"}, nil)
		s.AddTool(&sdk.Tool{Name: "logo", Description: "the logo", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{
					&sdk.TextContent{Text: "here is the logo"},
					&sdk.ImageContent{MIMEType: "image/png", Data: logoPNG()},
				}}, nil
			})
		ct, st := sdk.NewInMemoryTransports()
		if _, err := s.Connect(ctx, st, nil); err != nil {
			return nil, err
		}
		return ct, nil
	}}
}

// mcpModel is the chat screen with the MCP servers of mgr.
func mcpModel(t *testing.T, h *harness, mgr *mcp.Manager, profile termenv.Profile) Model {
	t.Helper()
	t.Cleanup(mgr.Close)
	return h.modelWith(t, nil, func(o *Options) {
		o.MCP, o.Config.MoreTools, o.Profile = mgr, mgr.Tools, profile
	})
}

// /mcp lists the servers with their state and tools; /mcp on starts one,
// /mcp off stops it; a server that cannot start says why, with what it
// wrote on stderr; an unknown name gets the names there are.
func TestMCPCommand(t *testing.T) {
	h := newHarness(t, 0)
	broken := mcp.Server{Name: "broken", Type: mcp.TypeStdio, Where: "test", Command: "sh", Args: []string{"-c", "echo no such database >&2; exit 3"}}
	mgr := mcp.New([]mcp.Server{picsServer(), broken}, mcp.Options{})
	tm := start(t, mcpModel(t, h, mgr, termenv.Ascii), 160, 40)
	send(tm, "/mcp")
	waitFor(t, tm, "pics · in-process · not started")
	send(tm, "/mcp on pics")
	waitFor(t, tm, "MCP server pics is on: its tools are offered from the next request")
	send(tm, "/mcp")
	waitFor(t, tm, "tools: pics__logo")
	send(tm, "/mcp off pics")
	waitFor(t, tm, "MCP server pics is off for this session")
	send(tm, "/mcp on broken")
	waitFor(t, tm, "MCP server broken: exited while starting: exit status 3: no such database")
	send(tm, "/mcp off nope")
	waitFor(t, tm, `no MCP server "nope": the servers are pics, broken`)
	send(tm, "/mcp")
	waitFor(t, tm, "pics · in-process · off")
	final := quit(t, tm)
	st := mgr.Status()
	if st[0].State != mcp.Off || st[1].State != mcp.Failed {
		t.Errorf("states %v %v", st[0].State, st[1].State)
	}
	if !strings.Contains(final.View(), "MCP servers (/mcp on NAME, /mcp off NAME):") {
		t.Errorf("no list of the servers:\n%s", final.View())
	}

	// With no server configured, /mcp says how to add one.
	tm = start(t, h.model(t, nil), 160, 40)
	send(tm, "/mcp")
	waitFor(t, tm, "no MCP server is configured: --mcp-config FILE")
	quit(t, tm)
}

// A call of an MCP tool is approved in a box that names the tool and its
// server; its image is saved as an attachment of the session, and shown
// under the result as a preview, as a generated image is.
func TestMCPToolImageShowsAPreview(t *testing.T) {
	h := newHarness(t, 0)
	mgr := mcp.New([]mcp.Server{picsServer()}, mcp.Options{})
	tm := start(t, mcpModel(t, h, mgr, termenv.TrueColor), 100, 40)
	send(tm, "demo:mcp show me the logo")
	waitFor(t, tm, "run tool pics__logo of MCP server pics?")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	waitFor(t, tm, "The tool returned: here is the logo")
	waitSaved(t, h.store, session.KindAssistant)
	final := quit(t, tm)
	view := final.View()
	if !strings.Contains(view, "+ pics__logo image 1 · ") || !strings.Contains(view, " · 4×2") {
		t.Errorf("the image is not named under its result:\n%s", view)
	}
	if !strings.Contains(view, "pics__logo of MCP server pics · yes · ") || strings.Contains(view, "exit 0") {
		t.Errorf("the result's head should name the server, and no exit code:\n%s", view)
	}
	if !strings.Contains(view, "▀") {
		t.Errorf("the image has no preview:\n%s", view)
	}
	sess, err := h.store.Latest()
	if err != nil {
		t.Fatal(err)
	}
	var img session.Attachment
	for _, e := range sess.Entries {
		if e.Kind == session.KindTool {
			img = e.ToolResults[0].Images[0]
		}
	}
	if data, err := h.store.ReadAttachment(sess.ID, img); err != nil || !bytes.Equal(data, logoPNG()) {
		t.Errorf("the stored image: %v", err)
	}
	if _, err := os.Stat(h.store.AttachmentPath(sess.ID, img)); err != nil {
		t.Error(err)
	}
}

// A server that fails to start in the background, once the screen is up,
// is reported then on the status line, not at the next turn.
func TestMCPBackgroundFailureShowsAtOnce(t *testing.T) {
	h := newHarness(t, 0)
	broken := mcp.Server{Name: "broken", Type: mcp.TypeStdio, Where: "test", Command: "sh", Args: []string{"-c", "echo no such database >&2; exit 3"}}
	mgr := mcp.New([]mcp.Server{broken}, mcp.Options{})
	tm := start(t, mcpModel(t, h, mgr, termenv.Ascii), 160, 40)
	waitFor(t, tm, "Ask anything")
	mgr.StartAll() // as muse does once the first frame is drawn
	waitFor(t, tm, "MCP server broken: exited while starting")
	quit(t, tm)
}

// /tool-choice takes the name of an MCP server's tool, as --tool-choice
// does, once the server offers it.
func TestToolChoiceTakesMCPTools(t *testing.T) {
	h := newHarness(t, 0)
	mgr := mcp.New([]mcp.Server{picsServer()}, mcp.Options{})
	if err := mgr.Start(context.Background(), "pics"); err != nil {
		t.Fatal(err)
	}
	tm := start(t, mcpModel(t, h, mgr, termenv.Ascii), 160, 40)
	send(tm, "/tool-choice pics__logo")
	waitFor(t, tm, "tool_choice pics__logo")
	send(tm, "/tool-choice pics__nope")
	waitFor(t, tm, `no tool named "pics__nope": the tools are pics__logo`)
	if m := quit(t, tm); m.params.ToolChoice != "pics__logo" {
		t.Errorf("tool_choice %q", m.params.ToolChoice)
	}
}

// A tool a server adds once the chat runs (notifications/tools/list_changed)
// that muse leaves out (here, over the size a tool may take) is noted on
// the status line when the list is refreshed, as at the start.
func TestMCPRefreshNotesToolsLeftOut(t *testing.T) {
	h := newHarness(t, 0)
	s := sdk.NewServer(&sdk.Implementation{Name: "grow", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "small", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{}, nil
		})
	grow := mcp.Server{Name: "grow", Type: "in-process", Where: "test", Connect: func(ctx context.Context) (sdk.Transport, error) {
		ct, st := sdk.NewInMemoryTransports()
		if _, err := s.Connect(ctx, st, nil); err != nil {
			return nil, err
		}
		return ct, nil
	}}
	mgr := mcp.New([]mcp.Server{grow}, mcp.Options{})
	tm := start(t, mcpModel(t, h, mgr, termenv.Ascii), 200, 40)
	waitFor(t, tm, "Ask anything")
	mgr.StartAll()           // as muse does once the first frame is drawn
	send(tm, "/mcp on grow") // waits for its start
	waitFor(t, tm, "MCP server grow is on")
	s.AddTool(&sdk.Tool{Name: "huge", Description: strings.Repeat("d", 40<<10), InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{}, nil
		})
	waitFor(t, tm, `MCP server grow: tool "huge" is not offered`)
	quit(t, tm)
}
