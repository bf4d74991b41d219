package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// listServer is an MCP server in muse's process that answers JSON-RPC by
// hand: its tools/list answers page(n, cursor) for the nth request (from
// 1), the JSON of a ListToolsResult. lists counts those requests; after
// 100 it answers with an error, so that a client without bounds stops.
func listServer(name string, page func(n int, cursor string) string) (Server, *atomic.Int64) {
	lists := &atomic.Int64{}
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
					Params struct {
						Cursor string `json:"cursor"`
					} `json:"params"`
				}
				if json.Unmarshal(sc.Bytes(), &req) != nil || req.ID == nil {
					continue
				}
				result := `{}`
				switch req.Method {
				case "initialize":
					result = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"paged","version":"1"}}`
				case "tools/list":
					if n := lists.Add(1); n <= 100 {
						result = page(int(n), req.Params.Cursor)
					} else {
						result = ""
					}
				}
				var err error
				if result == "" {
					_, err = fmt.Fprintf(outW, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32000,"message":"no more"}}`+"\n", req.ID)
				} else {
					_, err = fmt.Fprintf(outW, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, result)
				}
				if err != nil {
					return
				}
			}
		}()
		return &sdk.IOTransport{Reader: outR, Writer: inW, MaxLineLength: maxMessage}, nil
	}}, lists
}

// toolsJSON writes n tools named prefix0, prefix1…, each with a small
// object schema, as the items of a tools array.
func toolsJSON(prefix string, n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`{"name":"%s%d","inputSchema":{"type":"object"}}`, prefix, i)
	}
	return strings.Join(parts, ",")
}

// startOne starts the one server of m and returns its status.
func startOne(t *testing.T, m *Manager) Status {
	t.Helper()
	if err := m.Start(context.Background(), m.Names()[0]); err != nil {
		t.Fatalf("start: %v", err)
	}
	return m.Status()[0]
}

// A tools/list that sends the same nextCursor forever is read once more,
// not until the start time limit (it took 1–3.2 GB). The tools of the
// pages read are offered, and /mcp (Status.Skipped) says what was left out.
func TestToolListRepeatedCursorIsBounded(t *testing.T) {
	same, lists := listServer("loop", func(n int, _ string) string {
		return fmt.Sprintf(`{"tools":[%s],"nextCursor":"again"}`, toolsJSON(fmt.Sprintf("p%d_", n), 1))
	})
	m := New([]Server{same}, Options{})
	defer m.Close()
	st := startOne(t, m)
	if got := lists.Load(); got != 2 {
		t.Errorf("a repeated cursor: %d tools/list requests, want 2", got)
	}
	if len(st.Tools) != 2 || len(st.Skipped) != 1 || !strings.Contains(st.Skipped[0], "sent a page's cursor again after 2 pages") {
		t.Errorf("a repeated cursor: tools %v, notes %q", st.Tools, st.Skipped)
	}
}

// A tools/list whose cursors never end is read for maxPages pages.
func TestToolListEndlessPagesAreBounded(t *testing.T) {
	endless, lists := listServer("endless", func(n int, _ string) string {
		return fmt.Sprintf(`{"tools":[],"nextCursor":"c%d"}`, n)
	})
	m := New([]Server{endless}, Options{})
	defer m.Close()
	st := startOne(t, m)
	if got := lists.Load(); got != maxPages {
		t.Errorf("endless pages: %d tools/list requests, want %d", got, maxPages)
	}
	if len(st.Skipped) != 1 || !strings.Contains(st.Skipped[0], fmt.Sprintf("goes on past %d pages", maxPages)) {
		t.Errorf("endless pages: notes %q", st.Skipped)
	}
}

// A server that lists 5,000 tools gets maxTools of them offered, and the
// rest named as left out.
func TestToolCountIsBounded(t *testing.T) {
	many, _ := listServer("many", func(int, string) string {
		return `{"tools":[` + toolsJSON("t", 5000) + `]}`
	})
	m := New([]Server{many}, Options{})
	defer m.Close()
	st := startOne(t, m)
	offered, _ := m.Tools(context.Background())
	if len(st.Tools) != maxTools || len(offered) != maxTools {
		t.Errorf("%d tools offered (%d in /mcp), want %d", len(offered), len(st.Tools), maxTools)
	}
	if len(st.Skipped) != 1 || !strings.Contains(st.Skipped[0], "it lists more than 128 tools: the first 128 are offered") {
		t.Errorf("notes %q", st.Skipped)
	}
}

// A tool whose input schema is 10 MB is not offered (it went out with
// every request); the server's other tools are, and /mcp names it, and
// counts those it does not name. The definitions offered stay within
// maxToolSize each.
func TestToolSchemaSizeIsBounded(t *testing.T) {
	huge := `{"name":"huge","description":"d","inputSchema":{"type":"object","description":"` + strings.Repeat("x", 10<<20) + `"}}`
	over := `{"name":"over%d","inputSchema":{"type":"object","description":"` + strings.Repeat("x", maxToolSize) + `"}}`
	overs := make([]string, 10)
	for i := range overs {
		overs[i] = fmt.Sprintf(over, i)
	}
	big, _ := listServer("big", func(int, string) string {
		return `{"tools":[` + toolsJSON("ok", 2) + `,` + huge + `,` + strings.Join(overs, ",") + `]}`
	})
	m := New([]Server{big}, Options{})
	defer m.Close()
	st := startOne(t, m)
	offered, _ := m.Tools(context.Background())
	sent := 0
	for _, tl := range offered {
		sent += len(tl.Def.Description) + len(tl.Def.InputSchema)
	}
	if len(offered) != 2 || sent > 2*maxToolSize {
		t.Errorf("%d tools offered, %d bytes of definitions sent with each request", len(offered), sent)
	}
	if len(st.Skipped) != maxNamed+1 || !strings.Contains(st.Skipped[0], `tool "huge" is not offered: its description and input schema come to 10.0 MiB, over the 32 KiB`) ||
		!strings.Contains(st.Skipped[1], `tool "over0" is not offered`) || st.Skipped[maxNamed] != "8 more tools are not offered: each is over 32 KiB" {
		t.Errorf("notes %q", st.Skipped)
	}
}

// Over HTTP, a tools/list answer that never ends (it was 500 MB, and took
// 3.3 GB) is read only up to maxMessage, counted as it is read: the server
// manages to send little more than that (what the connection's buffers
// hold) before muse drops it, and the server fails with a message.
func TestHTTPMessageIsBoundedAsRead(t *testing.T) {
	const stop = 4 * maxMessage // where the server gives up if muse never does
	var written atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&req) != nil || req.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if req.Method != "tools/list" {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"huge","version":"1"}}}`, req.ID)
			return
		}
		n, _ := fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[`, req.ID)
		written.Add(int64(n))
		chunk := []byte(strings.Repeat(`{"name":"x","inputSchema":{"type":"object"}},`, 1000))
		for written.Load() < stop {
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	m := New([]Server{{Name: "huge", Type: TypeHTTP, URL: srv.URL}}, Options{})
	defer m.Close()
	err := m.Start(context.Background(), "huge")
	if err == nil || !strings.Contains(err.Error(), "over 16 MiB") {
		t.Errorf("start: %v, want the message is over 16 MiB", err)
	}
	srv.CloseClientConnections()
	const slack = 8 << 20 // socket buffers on both sides
	t.Logf("the server sent %.1f MiB", float64(written.Load())/(1<<20))
	if got := written.Load(); got > maxMessage+slack {
		t.Errorf("the server sent %d MiB before muse stopped reading, want at most %d MiB", got>>20, (maxMessage+slack)>>20)
	}
}
