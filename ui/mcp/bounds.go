package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"muse/api"
	"muse/ui/textfmt"
)

// What a server may make muse read, hold and send. Each bound is counted
// on what arrives, as it arrives, so that a server that sends without end
// costs muse no more than the bound.
const (
	// maxMessage bounds one JSON-RPC message read from a server: a line
	// over stdio, a body or an event over HTTP. It takes a result with
	// images of maxImageBytes, base64 and all.
	maxMessage = 16 << 20
	// maxTools is how many tools of one server are offered: every tool
	// goes out with every request.
	maxTools = 128
	// maxToolSize bounds a tool's description and input schema together,
	// as they are sent with every request; a real one takes a few KiB.
	maxToolSize = 32 << 10
	// maxPages is how many pages of tools/list are read: a list that goes
	// on (a cursor that never ends) is cut there.
	maxPages = 16
	// maxNamed is how many tools left out for their size are named one by
	// one; the others are counted in one note.
	maxNamed = 3
)

// listTools lists the tools of sess, page by page, within the bounds: it
// stops at maxTools tools, at maxPages pages, and at a cursor the server
// sent before; a tool larger than maxToolSize is dropped as its page
// arrives, and named (the first maxNamed of them). What is left out is
// said in the notes.
func listTools(ctx context.Context, sess *sdk.ClientSession) (tools []*sdk.Tool, notes []string, err error) {
	oversized := 0
	defer func() {
		if oversized > maxNamed {
			n := oversized - maxNamed
			notes = append(notes, fmt.Sprintf("%s %s not offered: each is over %s", textfmt.Plural(n, "more tool"), map[bool]string{true: "is", false: "are"}[n == 1], size(maxToolSize)))
		}
	}()
	seen := map[[sha256.Size]byte]bool{}
	params := &sdk.ListToolsParams{}
	for page := 1; ; page++ {
		res, err := sess.ListTools(ctx, params)
		if err != nil {
			return nil, nil, err
		}
		for _, t := range res.Tools {
			if len(tools) == maxTools {
				notes = append(notes, fmt.Sprintf("it lists more than %d tools: the first %d are offered, the rest left out", maxTools, maxTools))
				return tools, notes, nil
			}
			if n := toolSize(t); n > maxToolSize {
				if oversized++; oversized > maxNamed {
					continue
				}
				notes = append(notes, fmt.Sprintf("tool %q is not offered: its description and input schema come to %s, over the %s a tool may take in every request", t.Name, size(n), size(maxToolSize)))
				continue
			}
			tools = append(tools, t)
		}
		next := res.NextCursor
		switch sum := sha256.Sum256([]byte(next)); {
		case next == "":
			return tools, notes, nil
		case seen[sum]:
			notes = append(notes, fmt.Sprintf("its tool list sent a page's cursor again after %d pages: the tools of those pages are offered, the rest left out", page))
			return tools, notes, nil
		case page == maxPages:
			notes = append(notes, fmt.Sprintf("its tool list goes on past %d pages: the tools of those pages are offered, the rest left out", maxPages))
			return tools, notes, nil
		default:
			seen[sum] = true
			params = &sdk.ListToolsParams{Cursor: next}
		}
	}
}

// listPages gathers the items of a list that comes in pages, for the
// prompts and the resources: page fetches the page at a cursor ("" for the
// first) and returns its items and the next cursor. It keeps the items
// keep takes, at most most of them, from at most maxPages pages, and stops
// at the first error, at an empty cursor, or at one sent twice in a row.
func listPages[T any](page func(cursor string) ([]T, string, error), most int, keep func(T) bool) []T {
	var out []T
	cursor := ""
	for range maxPages {
		items, next, err := page(cursor)
		if err != nil {
			return out
		}
		for _, it := range items {
			if keep(it) && len(out) < most {
				out = append(out, it)
			}
		}
		if next == "" || next == cursor {
			break
		}
		cursor = next
	}
	return out
}

// toolSize is how many bytes t's description and input schema take.
func toolSize(t *sdk.Tool) int {
	if t == nil {
		return 0
	}
	n := len(t.Description)
	if t.InputSchema != nil {
		b, _ := json.Marshal(t.InputSchema)
		n += len(b)
	}
	return n
}

// httpClient returns the client that reaches the HTTP server of cfg: base's
// transport (http.DefaultTransport when nil), which sends cfg's headers,
// its credentials, to the host of its URL only, and reads at most
// maxMessage bytes of a response that is not an event stream (whose
// events the SDK bounds); and api.CheckRedirect, muse's one redirect
// policy for credentials: the same host only.
func httpClient(base *http.Client, cfg Server, tasks *taskOnly) *http.Client {
	c := http.Client{}
	if base != nil {
		c = *base
	}
	host := ""
	if u, err := url.Parse(cfg.URL); err == nil {
		host = u.Host
	}
	c.Transport = wireTransport{base: c.Transport, headers: cfg.Headers, host: host, tasks: tasks}
	c.CheckRedirect = api.CheckRedirect
	return &c
}

// wireTransport adds the configured headers to the requests to host, and
// bounds what a response's body may make muse read.
type wireTransport struct {
	base    http.RoundTripper
	headers map[string]string
	host    string
	tasks   *taskOnly // sees each body's lines (taskScan)
}

func (w wireTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(w.headers) > 0 && strings.EqualFold(r.URL.Host, w.host) {
		r = r.Clone(r.Context())
		for k, v := range w.headers {
			r.Header.Set(k, v)
		}
	}
	base := w.base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(r)
	if err == nil && resp.Body != nil && !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		resp.Body = &boundedBody{rc: resp.Body, left: maxMessage}
	}
	if err == nil && resp.Body != nil && w.tasks != nil {
		resp.Body = scanned{&taskScan{r: resp.Body, t: w.tasks}, resp.Body}
	}
	return resp, err
}

// boundedBody reads a body until more than maxMessage bytes came, and then
// fails it, as they are read.
type boundedBody struct {
	rc   io.ReadCloser
	left int
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left == 0 {
		var one [1]byte
		if n, err := b.rc.Read(one[:]); n == 0 {
			return 0, err // the end, where the bound is
		}
		return 0, fmt.Errorf("the server sent a message over %s, which muse does not read", size(maxMessage))
	}
	n, err := b.rc.Read(p[:min(len(p), b.left)])
	b.left -= n
	return n, err
}

func (b *boundedBody) Close() error { return b.rc.Close() }
