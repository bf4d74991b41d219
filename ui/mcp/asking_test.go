package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"muse/ui/internal/waitfor"
)

// asker is an MCP server in muse's process that answers JSON-RPC by hand
// (on protocol 2025-11-25, where a server may send requests of its own),
// as a hostile server would: it asks the user for input (elicitation/
// create) whenever the test says (ask), and holds each tool call, prompt
// get and resource read until the test answers it (finish).
type asker struct {
	mu  sync.Mutex
	out io.Writer
	// held carries the ids of the requests held, as they come; answers
	// the results of muse's answers to the server's requests.
	held    chan json.RawMessage
	answers chan string
}

func newAsker(name string) (Server, *asker) {
	a := &asker{held: make(chan json.RawMessage, 4), answers: make(chan string, 4)}
	return Server{Name: name, Type: "in-process", Connect: func(ctx context.Context) (sdk.Transport, error) {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		a.mu.Lock()
		a.out = outW
		a.mu.Unlock()
		go func() {
			defer outW.Close()
			sc := bufio.NewScanner(inR)
			for sc.Scan() {
				var msg struct {
					ID     json.RawMessage `json:"id"`
					Method string          `json:"method"`
					Result json.RawMessage `json:"result"`
				}
				if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.ID == nil {
					continue
				}
				result := ""
				switch msg.Method {
				case "":
					a.answers <- string(msg.Result)
					continue
				case "initialize":
					result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"prompts":{},"resources":{}},"serverInfo":{"name":"asker","version":"1"}}`
				case "tools/list":
					result = `{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`
				case "prompts/list":
					result = `{"prompts":[{"name":"p"}]}`
				case "resources/list":
					result = `{"resources":[{"uri":"file:///r","name":"r"}]}`
				case "tools/call", "prompts/get", "resources/read":
					a.held <- msg.ID
					continue
				}
				if result == "" { // server/discover among them: muse falls back to initialize
					a.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, msg.ID))
					continue
				}
				a.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, msg.ID, result))
			}
		}()
		return &sdk.IOTransport{Reader: outR, Writer: inW, MaxLineLength: maxMessage}, nil
	}}, a
}

func (a *asker) send(line string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	fmt.Fprintln(a.out, line)
}

// ask sends a request for a note, and returns muse's answer.
func (a *asker) ask(t *testing.T, id string, m *Manager) string {
	t.Helper()
	a.send(`{"jsonrpc":"2.0","id":"` + id + `","method":"elicitation/create","params":{"message":"Please confirm","requestedSchema":{"type":"object","properties":{"note":{"type":"string"}},"required":["note"]}}}`)
	watchdog := time.NewTimer(waitfor.Scaled(waitfor.Limit))
	defer watchdog.Stop()
	for {
		select {
		case r := <-a.answers:
			return r
		case e := <-m.Elicitations():
			// The front end: it writes what the user would type.
			if err := e.Accept(map[string]string{"note": "typed in the form"}); err != nil {
				t.Fatal(err)
			}
		case <-watchdog.C:
			t.Fatalf("no answer to %s", id)
		}
	}
}

// finish answers the request held with result.
func (a *asker) finish(t *testing.T, result string) {
	t.Helper()
	select {
	case id := <-a.held:
		a.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, id, result))
	case <-time.After(waitfor.Scaled(waitfor.Limit)):
		t.Fatal("no request held")
	}
}

// The attack review's case: a server that asks for input while muse has
// asked it nothing is declined at once, the user never shown a form, and
// the status line is told, once for all the requests since its last note,
// naming the server.
func TestUnpromptedElicitationDeclined(t *testing.T) {
	srv, a := newAsker("ev")
	m := New([]Server{srv}, Options{Elicit: true})
	defer m.Close()
	tools(t, m) // starts it
	for _, id := range []string{"el1", "el2"} {
		if got := a.ask(t, id, m); got != `{"action":"decline"}` {
			t.Fatalf("answer to %s: %s", id, got)
		}
	}
	notes, more := m.Notes(context.Background())
	want := "MCP server ev asked for input 2 times while muse had asked it nothing: declined"
	if !more || len(notes) != 1 || !strings.HasPrefix(notes[0], want) {
		t.Errorf("notes %q, want %q", notes, want)
	}
}

// While muse's tool call, prompt get or resource read to a server is under
// way, the server's request for input reaches the front end, whose answer
// reaches the server; another server's is declined meanwhile; once the
// request ends, the server's next is declined again.
func TestElicitationOnlyDuringMuseRequest(t *testing.T) {
	srv, a := newAsker("ev")
	other, b := newAsker("other")
	m := New([]Server{srv, other}, Options{Elicit: true})
	defer m.Close()
	call := tools(t, m)["ev__t"]
	for what, run := range map[string]func() error{
		"tool call": func() error { call(`{}`); return nil },
		"prompt get": func() error {
			_, err := m.GetPrompt(context.Background(), Prompt{Server: "ev", Name: "p"}, nil)
			return err
		},
		"resource read": func() error {
			_, err := m.ReadResource(context.Background(), Resource{Server: "ev", URI: "file:///r"})
			return err
		},
	} {
		done := make(chan error, 1)
		go func() { done <- run() }()
		held := <-a.held
		if got := a.ask(t, "in", m); got != `{"action":"accept","content":{"note":"typed in the form"}}` {
			t.Errorf("%s: answer %s", what, got)
		}
		if got := b.ask(t, "other", m); got != `{"action":"decline"}` {
			t.Errorf("%s: the other server's answer %s", what, got)
		}
		a.held <- held
		a.finish(t, map[string]string{
			"tool call":     `{"content":[]}`,
			"prompt get":    `{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}]}`,
			"resource read": `{"contents":[{"uri":"file:///r","text":"hi"}]}`,
		}[what])
		if err := <-done; err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got := a.ask(t, "after", m); got != `{"action":"decline"}` {
			t.Errorf("after the %s: answer %s", what, got)
		}
	}
}

// The second attack review's case: a server asks during muse's tool call,
// then ends the call at once, or the user cancels the turn (and with it
// the call) while the form is open. Either way the form does not outlive
// the call: muse answers the server cancel, closes the form (Done, with
// CallEnded for the status line), and what the user types in it later is
// refused, nothing sent.
func TestFormEndsWithItsCall(t *testing.T) {
	for _, how := range []string{"the server ends the call", "the turn is cancelled"} {
		t.Run(how, func(t *testing.T) {
			srv, a := newAsker("ev")
			m := New([]Server{srv}, Options{Elicit: true})
			defer m.Close()
			got, notes := m.Tools(context.Background())
			if len(got) != 1 || len(notes) > 0 {
				t.Fatalf("tools %d, notes %q", len(got), notes)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan struct{})
			go func() { got[0].Call(ctx, json.RawMessage(`{}`)); close(done) }()
			held := <-a.held
			a.send(`{"jsonrpc":"2.0","id":"el","method":"elicitation/create","params":{"message":"Please confirm","requestedSchema":{"type":"object","properties":{"note":{"type":"string"}},"required":["note"]}}}`)
			watchdog := time.NewTimer(waitfor.Scaled(waitfor.Limit))
			defer watchdog.Stop()
			var e *Elicitation
			select {
			case e = <-m.Elicitations():
			case <-watchdog.C:
				t.Fatal("the form never reached the front end")
			}
			if e.CallEnded() {
				t.Fatal("CallEnded while the call is under way")
			}
			if how == "the turn is cancelled" {
				cancel()
			} else {
				a.held <- held
				a.finish(t, `{"content":[]}`)
			}
			<-done
			select {
			case <-e.Done():
			case <-watchdog.C:
				t.Fatal("the call ended, and the form stayed open")
			}
			if !e.CallEnded() {
				t.Error("the form closed, but not for the call's end")
			}
			select {
			case r := <-a.answers:
				if r != `{"action":"cancel"}` {
					t.Errorf("the server got %s, want cancel", r)
				}
			case <-watchdog.C:
				t.Fatal("the server got no answer")
			}
			err := e.Accept(map[string]string{"note": "typed after the call ended"})
			if err == nil || !strings.Contains(err.Error(), "no longer waits") {
				t.Errorf("typed after the call ended: %v, want refused", err)
			}
		})
	}
}
