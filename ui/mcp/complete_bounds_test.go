package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"muse/ui/sanitize"
)

// completeServer is an MCP server in muse's process that answers JSON-RPC
// by hand: each method with the JSON-RPC "result" or "error" member
// replies holds for it (what the SDK's own server would not send), and by
// default one prompt, pick(name).
func completeServer(name string, replies map[string]string) Server {
	return Server{Name: name, Type: "in-process", Connect: func(ctx context.Context) (sdk.Transport, error) {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		go func() {
			defer outW.Close()
			sc := bufio.NewScanner(inR)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				var req struct {
					ID     json.RawMessage `json:"id"`
					Method string          `json:"method"`
				}
				if json.Unmarshal(sc.Bytes(), &req) != nil || req.ID == nil {
					continue
				}
				res, ok := replies[req.Method]
				switch {
				case ok:
				case req.Method == "initialize":
					res = `"result":{"protocolVersion":"2025-06-18","capabilities":{"prompts":{},"resources":{},"completions":{}},"serverInfo":{"name":"c","version":"1"}}`
				case req.Method == "prompts/list":
					res = `"result":{"prompts":[{"name":"pick","arguments":[{"name":"name"}]}]}`
				default:
					res = `"result":{}`
				}
				if _, err := fmt.Fprintf(outW, `{"jsonrpc":"2.0","id":%s,%s}`+"\n", req.ID, res); err != nil {
					return
				}
			}
		}()
		return &sdk.IOTransport{Reader: outR, Writer: inW, MaxLineLength: maxMessage}, nil
	}}
}

// A server's completion/complete answer is bounded before it reaches the
// input and its menu: of 5,000 values, some of a MiB and some that would
// show other than they are, at most maxCompletions values of at most
// maxCompletionLen bytes of plain text are offered, and a note says what
// was left out.
func TestCompletionValuesAreBounded(t *testing.T) {
	values := []string{"ok", strings.Repeat("L", 1<<20), "ad\u200bmin", "\x1b]0;title\x07x", "two words", strings.Repeat("x", maxCompletionLen)}
	for i := range 5000 {
		values = append(values, fmt.Sprintf("v%d", i))
	}
	body, err := json.Marshal(map[string]any{"completion": map[string]any{"values": values, "total": 1 << 30, "hasMore": true}})
	if err != nil {
		t.Fatal(err)
	}
	m := New([]Server{completeServer("c", map[string]string{"completion/complete": `"result":` + string(body)})}, Options{})
	defer m.Close()
	startOne(t, m)
	const head = "/c:pick name="
	ask := m.CompleteArg(head + "v")
	if ask == nil {
		t.Fatal("the completion is not asked")
	}
	got, err := ask()
	if len(got) != maxCompletions {
		t.Fatalf("%d values offered, want %d", len(got), maxCompletions)
	}
	if got[0] != head+"ok " || got[1] != head+strings.Repeat("x", maxCompletionLen)+" " || got[2] != head+"v0 " {
		t.Errorf("offered %q…", got[:3])
	}
	for _, o := range got {
		if len(o) > len(head)+maxCompletionLen+1 || sanitize.Line(o) != o {
			t.Errorf("offered %q", o[:min(len(o), 80)])
		}
	}
	want := "the MCP server c sent completions that are not offered: 4902 past the first 100, 1 over 256 bytes, 3 not one word of plain text"
	if err == nil || err.Error() != want {
		t.Errorf("note %v, want %q", err, want)
	}
}

// A server's error message in a completion's note is cut, however long.
func TestCompletionErrorIsCut(t *testing.T) {
	m := New([]Server{completeServer("c", map[string]string{"completion/complete": `"error":{"code":-32000,"message":"no \u001b[2J` + strings.Repeat("y", 1<<20) + `"}`})}, Options{})
	defer m.Close()
	startOne(t, m)
	ask := m.CompleteArg("/c:pick name=v")
	if ask == nil {
		t.Fatal("the completion is not asked")
	}
	got, err := ask()
	if err == nil || len(got) != 0 {
		t.Fatalf("%q, %v; want an error", got, err)
	}
	if len(err.Error()) > maxCompleteErr+200 || !strings.Contains(err.Error(), "the MCP server c did not complete name") {
		t.Errorf("error of %d bytes: %.200q", len(err.Error()), err)
	}
}

// Prompts, their arguments and resources whose names would go into the
// input other than they show (escapes, invisible characters, spaces, a
// name past maxCompletionLen) are not offered for completion.
func TestCompletionSourcesAreWords(t *testing.T) {
	long := strings.Repeat("p", maxCompletionLen+1)
	m := New([]Server{completeServer("c", map[string]string{
		"prompts/list": `"result":{"prompts":[{"name":"pick","arguments":[{"name":"name"},{"name":"na\u200bme"},{"name":"a=b"}]},` +
			`{"name":"re\u200bview"},{"name":"\u001b]0;t\u0007x"},{"name":"two words"},{"name":"` + long + `"},{"name":"review"}]}`,
		"resources/list": `"result":{"resources":[{"uri":"file:///ok","name":"ok"},{"uri":"file:///a\u202eb"},{"uri":"file:///\ufeffx"},{"uri":"file:///` + strings.Repeat("u", maxURI) + `"}]}`,
	})}, Options{})
	defer m.Close()
	startOne(t, m)
	var got []string
	for _, p := range m.Prompts() {
		got = append(got, p.Command)
		for _, a := range p.Args {
			got = append(got, "  "+a.Name)
		}
	}
	for _, r := range m.Resources() {
		got = append(got, r.Mention)
	}
	want := []string{"/c:pick", "  name", "/c:review", "@c:file:///ok"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("offered %q, want %q", got, want)
	}
}
