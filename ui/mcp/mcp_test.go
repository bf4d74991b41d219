package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"muse/ui/internal/waitfor"
)

func TestStdioListAndCall(t *testing.T) {
	t.Setenv("MUSE_ACCESS_TOKEN", "sekrit")
	t.Setenv("WORK_TOKEN", "work-sekrit")
	m := New([]Server{helper(t, "files", "sdk")}, Options{Drop: []string{"WORK_TOKEN"}})
	defer m.Close()
	got := tools(t, m)
	for _, name := range []string{"files__echo", "files__fail", "files__big", "files__image", "files__env", "files__crash", "files__slow"} {
		if got[name] == nil {
			t.Errorf("tool %s not offered; got %v", name, keys(got))
		}
	}
	if out := got["files__echo"](`{"text":"hello"}`); out != "hello" {
		t.Errorf("echo = %q", out)
	}
	if out := got["files__fail"](`{}`); out != "error: the disk is full" {
		t.Errorf("fail = %q", out)
	}
	// The server runs without muse's credentials, with its own variables.
	if out := got["files__env"](`{}`); out != "token= extra=yes secret=" {
		t.Errorf("env = %q", out)
	}
	st := m.Status()
	if len(st) != 1 || st[0].State != Ready || len(st[0].Tools) != 7 {
		t.Errorf("status = %+v", st)
	}
}

func TestHTTPListAndCall(t *testing.T) {
	var auth string
	h := sdk.NewStreamableHTTPHandler(func(r *http.Request) *sdk.Server { auth = r.Header.Get("Authorization"); return testServer() }, nil)
	srv := httptest.NewServer(h)
	defer srv.Close()
	m := New([]Server{{Name: "web", Type: TypeHTTP, URL: srv.URL, Headers: map[string]string{"Authorization": "Bearer t0k"}}}, Options{})
	defer m.Close()
	got := tools(t, m)
	if out := got["web__echo"](`{"text":"over http"}`); out != "over http" {
		t.Errorf("echo = %q", out)
	}
	if auth != "Bearer t0k" {
		t.Errorf("Authorization = %q", auth)
	}
}

func TestInProcessAndResults(t *testing.T) {
	m := New([]Server{inProcess("mem")}, Options{MaxOutput: 300})
	defer m.Close()
	all, _ := m.Tools(context.Background())
	var image, big *func(context.Context, json.RawMessage) string
	_ = image
	_ = big
	for _, tl := range all {
		switch tl.Def.Name {
		case "mem__image":
			o := tl.Call(context.Background(), json.RawMessage(`{}`))
			// The PNG is passed on with its size; bytes that are no PNG
			// are left out, said so, as the API would refuse them.
			if len(o.Images) != 1 || o.Images[0].MediaType != "image/png" || !bytes.Equal(o.Images[0].Data, dotPNG()) || o.Images[0].Width != 3 || o.Images[0].Height != 2 {
				t.Errorf("images = %+v", o.Images)
			}
			for _, want := range []string{"a dot", "[image: image/png, ", "[an image of 16 bytes left out: its bytes are not the image/png image they are said to be]", "[dot.png](file:///tmp/dot.png)"} {
				if !strings.Contains(o.Text, want) {
					t.Errorf("image text lacks %q: %q", want, o.Text)
				}
			}
		case "mem__big":
			o := tl.Call(context.Background(), json.RawMessage(`{"n":1000}`))
			if !strings.HasPrefix(o.Text, strings.Repeat("x", 300)+"\n… 700 more bytes cut (limit 300 bytes)") {
				t.Errorf("big = %q", o.Text)
			}
		}
	}
}

// inProcess is the SDK test server in this process.
func inProcess(name string) Server {
	return Server{Name: name, Connect: func(ctx context.Context) (sdk.Transport, error) {
		ct, st := sdk.NewInMemoryTransports()
		if _, err := testServer().Connect(ctx, st, nil); err != nil {
			return nil, err
		}
		return ct, nil
	}}
}

func TestBadServers(t *testing.T) {
	m := New([]Server{
		helper(t, "garbage", "garbage"),
		helper(t, "gone", "exit"),
		{Name: "nosuch", Type: TypeStdio, Command: "/nonexistent/muse-mcp-server"},
		helper(t, "good", "sdk"),
	}, Options{StartTimeout: 5 * time.Second})
	defer m.Close()
	got, notes := m.Tools(context.Background())
	if len(got) != 7 {
		t.Errorf("got %d tools, want the good server's 7", len(got))
	}
	joined := strings.Join(notes, "\n")
	for _, want := range []string{"MCP server garbage: ", "MCP server gone: ", "boom: no such database", "MCP server nosuch: ", "the chat goes on without its tools"} {
		if !strings.Contains(joined, want) {
			t.Errorf("notes lack %q:\n%s", want, joined)
		}
	}
	// A failure is reported once.
	if _, again := m.Tools(context.Background()); len(again) != 0 {
		t.Errorf("notes again: %q", again)
	}
}

func TestNeverAnswers(t *testing.T) {
	m := New([]Server{helper(t, "mute", "hang")}, Options{StartTimeout: 200 * time.Millisecond})
	defer m.Close()
	got, notes := m.Tools(context.Background())
	if len(got) != 0 || len(notes) != 1 || !strings.Contains(notes[0], "did not answer within 200ms") {
		t.Errorf("tools %d, notes %q", len(got), notes)
	}
}

func TestRawServerTools(t *testing.T) {
	m := New([]Server{helper(t, "raw", "raw")}, Options{})
	defer m.Close()
	got, notes := m.Tools(context.Background())
	var names []string
	for _, tl := range got {
		names = append(names, tl.Def.Name)
		if !toolNameRE(tl.Def.Name) {
			t.Errorf("name %q breaks the API's rule", tl.Def.Name)
		}
	}
	long := "raw__" + strings.Repeat("long", 20)
	want := []string{"raw__has_space_and_dots_", long[:64], long[:62] + "_2"}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("names = %q, want %q", names, want)
	}
	joined := strings.Join(notes, "\n")
	for _, w := range []string{`tool "list" is not offered: its input schema has type array`, `tool "str" is not offered: its input schema is not a JSON object`} {
		if !strings.Contains(joined, w) {
			t.Errorf("notes lack %q:\n%s", w, joined)
		}
	}
	// The server's own name is called.
	if o := got[0].Call(context.Background(), json.RawMessage(`{}`)); !strings.HasPrefix(o.Text, "raw answer") {
		t.Errorf("call = %+v", o)
	}
}

func toolNameRE(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	return clean(s) == s
}

func TestCrashAndCallTimeout(t *testing.T) {
	m := New([]Server{helper(t, "c", "sdk")}, Options{CallTimeout: 100 * time.Millisecond})
	defer m.Close()
	got := tools(t, m)
	if out := got["c__slow"](`{}`); out != "error: the MCP server c did not answer within 100ms" {
		t.Errorf("slow = %q", out)
	}
	if out := got["c__crash"](`{}`); !strings.HasPrefix(out, "error: ") {
		t.Errorf("crash = %q", out)
	}
	st := waitState(t, m, "c", Failed)
	if !strings.Contains(st.Err, "exit status 3") {
		t.Errorf("err = %q", st.Err)
	}
	if out := got["c__echo"](`{"text":"x"}`); out != "error: the MCP server c is not running" {
		t.Errorf("echo after crash = %q", out)
	}
	_, notes := m.Tools(context.Background())
	if len(notes) != 1 || !strings.Contains(notes[0], "MCP server c: stopped: exit status 3") {
		t.Errorf("notes = %q", notes)
	}
}

func TestOnOff(t *testing.T) {
	m := New([]Server{helper(t, "a", "sdk"), helper(t, "b", "sdk")}, Options{}, "b")
	defer m.Close()
	if got := tools(t, m); len(got) != 7 {
		t.Fatalf("got %d tools, want a's 7", len(got))
	}
	if err := m.Start(context.Background(), "b"); err != nil {
		t.Fatal(err)
	}
	if got := tools(t, m); len(got) != 14 {
		t.Errorf("got %d tools after /mcp on b", len(got))
	}
	if err := m.Stop("a"); err != nil {
		t.Fatal(err)
	}
	if got := tools(t, m); len(got) != 7 || got["b__echo"] == nil {
		t.Errorf("after /mcp off a: %v", keys(got))
	}
	if err := m.Stop("zz"); err == nil || !strings.Contains(err.Error(), "the servers are a, b") {
		t.Errorf("unknown = %v", err)
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestStartAllInTheBackground checks StartAll: it returns while the
// servers start (one never answers here), leaves a server turned off
// alone, and the next Tools waits for the start under way instead of
// starting the server again.
func TestStartAllInTheBackground(t *testing.T) {
	m := New([]Server{helper(t, "mute", "hang"), helper(t, "a", "sdk"), helper(t, "off", "sdk")}, Options{StartTimeout: time.Hour}, "off")
	defer m.Close()
	m.StartAll()
	st := m.Status()
	if st[0].State != Starting || st[2].State != Off {
		t.Fatalf("after StartAll: %+v", st)
	}
	waitState(t, m, "a", Ready)
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the hanging server is not waited for
	got, _ := m.Tools(ctx)
	if len(got) != 7 {
		t.Errorf("%d tools, want a's 7", len(got))
	}
	m.mu.Lock()
	starts := m.srv[1].gen
	m.mu.Unlock()
	if starts != 1 {
		t.Errorf("a was started %d times, want once", starts)
	}
}

// TestFailureKeepsStderrApart checks that a server that exits while
// starting is reported with its exit status, and with the lines it wrote
// on standard error apart (Status.Stderr), stack frames left out where
// they are shown.
func TestFailureKeepsStderrApart(t *testing.T) {
	m := New([]Server{{Name: "node", Type: TypeStdio, Command: "sh", Args: []string{"-c",
		`printf 'file.js:1\nError: cannot open the database\n    at open (file.js:1:2)\n    at main (file.js:9:1)\n\nNode.js v20\n' >&2; exit 1`}}}, Options{})
	defer m.Close()
	_, notes := m.Tools(context.Background())
	st := m.Status()[0]
	if st.State != Failed || st.Err != "exited while starting: exit status 1" || !strings.Contains(st.Stderr, "at open (file.js:1:2)") {
		t.Fatalf("status %+v", st)
	}
	want := "MCP server node: exited while starting: exit status 1: file.js:1 · Error: cannot open the database · Node.js v20; the chat goes on without its tools"
	if len(notes) != 1 || notes[0] != want {
		t.Errorf("notes %q, want %q", notes, want)
	}
}

// Notes waits for StartAll and the starts it began, and reports a failure
// then, once: the next turn's Tools does not report it again.
func TestNotes(t *testing.T) {
	m := New([]Server{{Name: "nosuch", Type: TypeStdio, Command: "/nonexistent/muse-mcp-server"}, helper(t, "good", "sdk")},
		Options{StartTimeout: 5 * time.Second})
	defer m.Close()
	got := make(chan []string, 1)
	go func() { n, _ := m.Notes(context.Background()); got <- n }()
	m.StartAll()
	notes := waitfor.Recv(t, got, "the notes after StartAll")
	if len(notes) != 1 || !strings.Contains(notes[0], "MCP server nosuch: ") {
		t.Fatalf("notes %q", notes)
	}
	if _, again := m.Tools(context.Background()); len(again) != 0 {
		t.Errorf("the turn reports it again: %q", again)
	}
	// Without StartAll, it waits only as long as its context.
	idle := New([]Server{helper(t, "good", "sdk")}, Options{})
	defer idle.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if notes, more := idle.Notes(ctx); notes != nil || more {
		t.Errorf("notes %q (more %t) before any start", notes, more)
	}
}

// A server that fails at once is reported at once, while another is still
// starting (it never answers, and its time limit is an hour): Notes says
// more may come, and waits until the Manager is closed.
func TestNotesReportAFailureAsItHappens(t *testing.T) {
	m := New([]Server{helper(t, "slow", "hang"), {Name: "nosuch", Type: TypeStdio, Command: "/nonexistent/muse-mcp-server"}},
		Options{StartTimeout: time.Hour})
	defer m.Close()
	m.StartAll()
	notes, more := m.Notes(context.Background())
	if len(notes) != 1 || !strings.Contains(notes[0], "MCP server nosuch: ") || !more {
		t.Fatalf("notes %q, more %v; want nosuch's failure, with slow still starting", notes, more)
	}
	if st := m.Status()[0]; st.State != Starting {
		t.Fatalf("slow is %s", st.State)
	}
	got := make(chan bool)
	go func() { _, more := m.Notes(context.Background()); got <- more }()
	if err := m.Stop("slow"); err != nil {
		t.Fatal(err)
	}
	m.Close()
	if more := waitfor.Recv(t, got, "Notes to end with the Manager"); more {
		t.Errorf("more after the Manager closed")
	}
}
