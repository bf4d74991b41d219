package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"muse/ui/internal/waitfor"
)

// helperEnv, set in the environment of the test binary, makes it an MCP
// server of that kind (see TestMain) instead of running the tests.
const helperEnv = "MUSE_MCP_TEST_SERVER"

func TestMain(m *testing.M) {
	if kind := os.Getenv(helperEnv); kind != "" {
		serve(kind)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// serve runs the test server of kind on standard input and output.
func serve(kind string) {
	switch kind {
	case "sdk":
		_ = testServer().Run(context.Background(), &sdk.StdioTransport{})
	case "raw":
		rawServer(os.Stdin, os.Stdout)
	case "garbage":
		io.Copy(io.Discard, io.LimitReader(os.Stdin, 1))
		fmt.Println("this is not JSON-RPC")
		fmt.Println(`{"jsonrpc":"2.0","id":1,"result":`)
		io.Copy(io.Discard, os.Stdin)
	case "hang":
		io.Copy(io.Discard, os.Stdin)
	case "exit":
		fmt.Fprintln(os.Stderr, "boom: no such database")
		os.Exit(2)
	}
}

// testServer is an MCP server built with the SDK, with a tool for each
// kind of result.
func testServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	obj := json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"},"n":{"type":"integer"}}}`)
	add := func(name string, h func(args map[string]any) *sdk.CallToolResult) {
		s.AddTool(&sdk.Tool{Name: name, Description: "the " + name + " tool", InputSchema: obj},
			func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				var args map[string]any
				_ = json.Unmarshal(req.Params.Arguments, &args)
				if name == "slow" {
					<-ctx.Done()
					return nil, ctx.Err()
				}
				return h(args), nil
			})
	}
	text := func(s string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
	}
	add("echo", func(a map[string]any) *sdk.CallToolResult { return text(fmt.Sprint(a["text"])) })
	add("fail", func(map[string]any) *sdk.CallToolResult {
		r := text("the disk is full")
		r.IsError = true
		return r
	})
	add("big", func(a map[string]any) *sdk.CallToolResult {
		n, _ := a["n"].(float64)
		return text(strings.Repeat("x", int(n)))
	})
	add("image", func(map[string]any) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{
			&sdk.TextContent{Text: "a dot"},
			&sdk.ImageContent{MIMEType: "image/png", Data: dotPNG()},
			&sdk.ImageContent{MIMEType: "image/png", Data: []byte("not a PNG at all")},
			&sdk.ResourceLink{URI: "file:///tmp/dot.png", Name: "dot.png"},
		}}
	})
	add("env", func(map[string]any) *sdk.CallToolResult {
		return text("token=" + os.Getenv("MUSE_ACCESS_TOKEN") + " extra=" + os.Getenv("EXTRA") + " secret=" + os.Getenv("WORK_TOKEN"))
	})
	add("crash", func(map[string]any) *sdk.CallToolResult { os.Exit(3); return nil })
	add("slow", nil)
	return s
}

// dotPNG is a PNG of 3×2 red pixels.
func dotPNG() []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	for i := range img.Pix {
		img.Pix[i] = 0xff
		if i%4 == 1 || i%4 == 2 {
			img.Pix[i] = 0
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// rawServer answers JSON-RPC by hand, with tools the SDK would refuse to
// serve: a schema that is not an object, names the API refuses.
func rawServer(in io.Reader, out io.Writer) {
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(sc.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		var result string
		switch req.Method {
		case "initialize":
			result = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"1"}}`
		case "tools/list":
			result = `{"tools":[
				{"name":"list","inputSchema":{"type":"array"}},
				{"name":"str","inputSchema":"anything"},
				{"name":"has space/and.dots!","description":"odd name","inputSchema":{"type":"object"}},
				{"name":"` + strings.Repeat("long", 20) + `","inputSchema":{"type":"object"}},
				{"name":"` + strings.Repeat("long", 20) + `x","inputSchema":{"type":"object"}}
			]}`
		case "tools/call":
			result = `{"content":[{"type":"text","text":"raw answer \u001b[31mred\u001b[0m"}]}`
		default:
			result = `{}`
		}
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, strings.Join(strings.Fields(result), " "))
	}
}

// helper is a stdio server running this test binary as a server of kind.
func helper(t testing.TB, name, kind string) Server {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Server{Name: name, Type: TypeStdio, Command: exe, Env: map[string]string{helperEnv: kind, "EXTRA": "yes"}}
}

// tools returns the tools of m, failing t on a note.
func tools(t testing.TB, m *Manager) map[string]func(string) string {
	t.Helper()
	got, notes := m.Tools(context.Background())
	if len(notes) > 0 {
		t.Fatalf("notes: %q", notes)
	}
	out := map[string]func(string) string{}
	for _, tl := range got {
		out[tl.Def.Name] = func(in string) string {
			o := tl.Call(context.Background(), json.RawMessage(in))
			if o.IsError {
				return "error: " + o.Text
			}
			return o.Text
		}
	}
	return out
}

// waitState waits until the server name of m is in state s; the state
// changes in the background after a crash. It looks again at each change
// the Manager announces (changedLocked), and fails t, with the states seen,
// if the watchdog runs out first.
func waitState(t *testing.T, m *Manager, name string, s State) Status {
	t.Helper()
	watchdog := time.NewTimer(waitfor.Scaled(waitfor.Limit))
	defer watchdog.Stop()
	for {
		m.mu.Lock()
		changed := m.changed // taken before the look, so no change is missed
		m.mu.Unlock()
		all := m.Status()
		for _, st := range all {
			if st.Name == name && st.State == s {
				return st
			}
		}
		select {
		case <-changed:
		case <-watchdog.C:
			t.Fatalf("server %s never reached state %v: %+v", name, s, all)
		}
	}
}
