package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/muesli/termenv"

	"muse/ui/mcp"
)

// formServer is an MCP server in this process whose tool ask asks the
// user, by a form, for a name (required) and an age (an integer of 0 to
// 150), and returns what it got.
func formServer(got chan<- *sdk.ElicitResult) mcp.Server {
	return mcp.Server{Name: "form", Type: "in-process", Where: "test", Connect: func(ctx context.Context) (sdk.Transport, error) {
		s := sdk.NewServer(&sdk.Implementation{Name: "form", Version: "1"}, nil)
		s.AddTool(&sdk.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				// The protocol of 2026-07-28 asks by a result that needs
				// input, and a second call with the answer (SEP-2322).
				if len(req.Params.InputResponses) == 0 {
					return &sdk.CallToolResult{RequestState: "asked", InputRequests: sdk.InputRequestMap{"who": &sdk.ElicitParams{Message: "Who are you?\x1b[2J", RequestedSchema: json.RawMessage(
						`{"type":"object","properties":{"name":{"type":"string","title":"Name"},"age":{"type":"integer","minimum":0,"maximum":150,"default":30}},"required":["name"]}`)}}}, nil
				}
				res, _ := req.Params.InputResponses["who"].(*sdk.ElicitResult)
				if res == nil {
					return nil, errors.New("no answer")
				}
				got <- res
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "answer: " + res.Action}}}, nil
			})
		ct, st := sdk.NewInMemoryTransports()
		if _, err := s.Connect(ctx, st, nil); err != nil {
			return nil, err
		}
		return ct, nil
	}}
}

// A server's form opens above the input while its tool runs, without the
// keys: what is typed goes on into the input until ctrl+l gives them to
// the form; an answer that does not fit the schema is refused in the
// form, with why; a good one is sent as typed values converted to the
// schema's types; esc declines the next one. While the form has the keys
// the status, the input and the key line name its keys, not the input's.
func TestElicitationForm(t *testing.T) {
	h := newHarness(t, 0)
	got := make(chan *sdk.ElicitResult, 2)
	mgr := mcp.New([]mcp.Server{formServer(got)}, mcp.Options{Elicit: true})
	tm := start(t, mcpModel(t, h, mgr, termenv.Ascii), 120, 40)
	for _, decline := range []bool{false, true} {
		send(tm, "demo:mcp ask me")
		waitFor(t, tm, "run tool form__ask of MCP server form?")
		tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
		onScreen(t, tm, func(b []byte) bool {
			return bytes.Contains(b, []byte("MCP server form asks: Who are you?")) && bytes.Contains(b, []byte("ctrl+l answers the form"))
		})
		if !decline {
			tm.Type("still mine")
			waitFor(t, tm, "still mine")
		}
		tm.Send(tea.KeyMsg{Type: tea.KeyCtrlL})
		waitFor(t, tm, "ctrl+l back to the input")
		if decline {
			// With the keys, the rest of the screen names the form's:
			// the status, the input (empty) and the key line.
			onScreen(t, tm, func(b []byte) bool {
				for _, want := range []string{"answering MCP server form's form: enter sends, esc declines",
					"the form above has the keys · ctrl+l gives them back", "· esc declines", "tab next field • esc decline"} {
					if !bytes.Contains(b, []byte(want)) {
						return false
					}
				}
				return true
			})
			tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
			if r := <-got; r.Action != "decline" {
				t.Errorf("esc sent %+v", r)
			}
			waitFor(t, tm, "The tool returned: answer: decline")
			break
		}
		tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
		waitFor(t, tm, "Name is required")
		tm.Type("Ann")
		tm.Send(tea.KeyMsg{Type: tea.KeyTab})
		tm.Send(tea.KeyMsg{Type: tea.KeyBackspace})
		tm.Send(tea.KeyMsg{Type: tea.KeyBackspace})
		tm.Type("200")
		tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
		waitFor(t, tm, "does not fit the server's form")
		tm.Send(tea.KeyMsg{Type: tea.KeyBackspace})
		tm.Send(tea.KeyMsg{Type: tea.KeyBackspace})
		tm.Send(tea.KeyMsg{Type: tea.KeyBackspace})
		tm.Type("41")
		tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
		r := <-got
		if r.Action != "accept" || r.Content["name"] != "Ann" || r.Content["age"] != float64(41) {
			t.Errorf("sent %+v", r)
		}
		waitFor(t, tm, "The tool returned: answer: accept")
	}
	quit(t, tm)
}
