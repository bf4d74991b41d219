package elicitform

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/muesli/termenv"

	"muse/theme"
	"muse/ui/engine"
	"muse/ui/internal/waitfor"
	"muse/ui/mcp"
)

// quickServer is an MCP server in this process, on the protocol of
// 2025-11-25 (where a server sends requests of its own), whose tool t asks
// the user for a note and ends as soon as release is closed, without
// waiting for the answer, which it then sends to got.
func quickServer(release <-chan struct{}, got chan<- *sdk.ElicitResult) mcp.Server {
	return mcp.Server{Name: "ev", Type: "in-process", Where: "test", Connect: func(ctx context.Context) (sdk.Transport, error) {
		s := sdk.NewServer(&sdk.Implementation{Name: "ev", Version: "1"}, &sdk.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
		s.AddTool(&sdk.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				go func() {
					r, err := req.Session.Elicit(context.Background(), &sdk.ElicitParams{Message: "Please confirm",
						RequestedSchema: json.RawMessage(`{"type":"object","properties":{"note":{"type":"string"}},"required":["note"]}`)})
					if err != nil {
						r = &sdk.ElicitResult{Action: "error: " + err.Error()}
					}
					got <- r
				}()
				<-release
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "done"}}}, nil
			})
		ct, st := sdk.NewInMemoryTransports()
		if _, err := s.Connect(ctx, st, nil); err != nil {
			return nil, err
		}
		return ct, nil
	}}
}

// run runs cmd in the background, as the program would, and returns its
// message.
func run(t *testing.T, cmd tea.Cmd, what string) tea.Msg {
	t.Helper()
	if cmd == nil {
		t.Fatalf("no command for %s", what)
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	return waitfor.Recv(t, ch, what)
}

// The second attack review's case, on screen: a server's form, opened
// during muse's call of its tool, leaves the screen when the call ends
// (here the server ends it at once), even after the user gave it the keys
// and typed in it; the status line says why, the server is answered
// cancel, and nothing typed reaches it.
func TestFormClosesWhenItsCallEnds(t *testing.T) {
	th, err := theme.New("", true, theme.WithProfile(termenv.Ascii))
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	got := make(chan *sdk.ElicitResult, 1)
	mgr := mcp.New([]mcp.Server{quickServer(release, got)}, mcp.Options{Elicit: true})
	defer mgr.Close()
	tools, notes := mgr.Tools(context.Background())
	if len(tools) != 1 || len(notes) > 0 {
		t.Fatalf("tools %d, notes %q", len(tools), notes)
	}
	called := make(chan engine.ToolOutput, 1)
	go func() { called <- tools[0].Call(context.Background(), json.RawMessage(`{}`)) }()

	form, cmd, _, _ := Model{}.Route(run(t, Wait(mgr), "the form"), nil, th, 80)
	form, _, _, _ = form.Route(tea.KeyMsg{Type: tea.KeyCtrlL}, nil, th, 80)
	for _, r := range "secret" {
		form, _, _, _ = form.Route(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}, nil, th, 80)
	}
	if v := form.View(); !strings.Contains(v, "MCP server ev asks: Please confirm") || !strings.Contains(v, "secret") {
		t.Fatalf("the form while the call is under way:\n%s", v)
	}

	close(release)
	if o := waitfor.Recv(t, called, "the call's end"); o.Text != "done" || o.IsError {
		t.Fatalf("the call: %+v", o)
	}
	form, _, notice, ok := form.Route(run(t, cmd, "the form's end"), nil, th, 80)
	if !ok || form.Active() || form.View() != "" {
		t.Errorf("after the call ended: taken %v, open %v, drawn:\n%s", ok, form.Active(), form.View())
	}
	if notice != "MCP server ev's form closed unanswered: muse's call to it ended" {
		t.Errorf("notice %q", notice)
	}
	if r := waitfor.Recv(t, got, "the server's answer"); r.Action != "cancel" || r.Content != nil {
		t.Errorf("the server got %+v, want cancel", r)
	}
	if _, _, _, ok := form.Route(tea.KeyMsg{Type: tea.KeyEnter}, nil, th, 80); ok {
		t.Error("enter after the form closed was taken by it")
	}
}
