package demo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"muse/api"
)

func TestStreamMatchesMessage(t *testing.T) {
	srv := newTestServer(t, Options{})
	body := chat("Compare channels and mutexes", map[string]any{"system": "You are terse."})
	m := getMessage(t, srv, body)
	events := streamEvents(t, srv, body)

	if got := deltaText(events); got != m.Text() {
		t.Fatalf("streamed text differs:\n%q\nwant\n%q", got, m.Text())
	}
	if n := countDeltas(events, "text_delta"); n != m.Usage.OutputTokens {
		t.Fatalf("%d text deltas, usage says %d", n, m.Usage.OutputTokens)
	}
	for _, e := range events {
		if e.name == "content_block_delta" && len(strings.Fields(e.data.Delta.Text)) != 1 {
			t.Fatalf("delta %q is not one word", e.data.Delta.Text)
		}
	}

	names := make([]string, len(events))
	for i, e := range events {
		names[i] = e.name
	}
	n := len(names)
	want := []string{"message_start", "content_block_start", "ping", "content_block_delta"}
	if strings.Join(names[:4], " ") != strings.Join(want, " ") {
		t.Fatalf("stream starts %v", names[:4])
	}
	if strings.Join(names[n-3:], " ") != "content_block_stop message_delta message_stop" {
		t.Fatalf("stream ends %v", names[n-3:])
	}

	start := events[0].data.Message
	if start.ID != m.ID || start.Model != m.Model || start.Role != api.RoleAssistant || len(start.Content) != 0 ||
		start.Usage.InputTokens != m.Usage.InputTokens || start.Usage.OutputTokens != 1 {
		t.Fatalf("message_start %s", events[0].raw)
	}
	for _, field := range []string{`"content":[]`, `"stop_reason":null`, `"stop_sequence":null`} {
		if !strings.Contains(events[0].raw, field) {
			t.Errorf("message_start lacks %s: %s", field, events[0].raw)
		}
	}
	if events[1].raw != `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}` {
		t.Errorf("content_block_start %s", events[1].raw)
	}
	if events[2].raw != `{"type":"ping"}` {
		t.Errorf("ping %s", events[2].raw)
	}
	if events[n-3].raw != `{"type":"content_block_stop","index":0}` {
		t.Errorf("content_block_stop %s", events[n-3].raw)
	}
	wantDelta := `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":` +
		jsonInt(m.Usage.OutputTokens) + `}}`
	if events[n-2].raw != wantDelta {
		t.Errorf("message_delta %s, want %s", events[n-2].raw, wantDelta)
	}
	if events[n-1].raw != `{"type":"message_stop"}` {
		t.Errorf("message_stop %s", events[n-1].raw)
	}
}

func jsonInt(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestThinkScenario(t *testing.T) {
	srv := newTestServer(t, Options{})
	body := chat("Plan a trip demo:think", nil)
	m := getMessage(t, srv, body)
	if len(m.Content) != 2 || m.Content[0].Type != api.BlockThinking || m.Content[1].Type != api.BlockText {
		t.Fatalf("content %+v", m.Content)
	}
	th := m.Content[0]
	if strings.Count(th.Thinking, "\n") < 2 || th.Signature == "" {
		t.Fatalf("thinking %q signature %q", th.Thinking, th.Signature)
	}
	if _, err := base64.StdEncoding.DecodeString(th.Signature); err != nil {
		t.Fatalf("signature is not base64: %v", err)
	}

	events := streamEvents(t, srv, body)
	var thinking, sig strings.Builder
	var order []string
	for _, e := range events {
		switch e.name {
		case "content_block_start":
			order = append(order, e.data.ContentBlock.Type)
			if *e.data.Index != len(order)-1 {
				t.Fatalf("block %s at index %d", e.data.ContentBlock.Type, *e.data.Index)
			}
		case "content_block_delta":
			switch e.data.Delta.Type {
			case "thinking_delta":
				if *e.data.Index != 0 || sig.Len() > 0 {
					t.Fatalf("thinking delta out of place: %s", e.raw)
				}
				thinking.WriteString(e.data.Delta.Thinking)
			case "signature_delta":
				sig.WriteString(e.data.Delta.Signature)
			case "text_delta":
				if *e.data.Index != 1 {
					t.Fatalf("text delta at %d", *e.data.Index)
				}
			}
		}
	}
	if strings.Join(order, ",") != "thinking,text" {
		t.Fatalf("blocks %v", order)
	}
	if thinking.String() != th.Thinking || sig.String() != th.Signature || countDeltas(events, "signature_delta") != 1 {
		t.Fatalf("streamed thinking %q sig %q", thinking.String(), sig.String())
	}
	if deltaText(events) != m.Text() {
		t.Fatal("streamed text differs")
	}
	if m.Usage.OutputTokens != len(strings.Fields(th.Thinking))+len(strings.Fields(m.Text())) {
		t.Fatalf("usage %+v", m.Usage)
	}

	// A thinking request without the keyword thinks too.
	m = getMessage(t, srv, chat("Plan a trip", map[string]any{"thinking": map[string]any{"type": "enabled", "budget_tokens": 1024}, "max_tokens": 4096}))
	if m.Content[0].Type != api.BlockThinking {
		t.Fatalf("content %+v", m.Content)
	}
}

func TestToolScenario(t *testing.T) {
	srv := newTestServer(t, Options{})

	// No tools offered: get_time with a timezone.
	m := getMessage(t, srv, chat("What time is it? demo:tool", nil))
	if m.StopReason != api.StopToolUse || len(m.Content) != 2 || m.Content[0].Type != api.BlockText {
		t.Fatalf("stop %q content %+v", m.StopReason, m.Content)
	}
	tu := m.Content[1]
	if tu.Type != api.BlockToolUse || tu.Name != "get_time" || !strings.HasPrefix(tu.ID, "toolu_demo_") ||
		string(tu.Input) != `{"timezone":"UTC"}` {
		t.Fatalf("tool_use %+v input %s", tu, tu.Input)
	}

	// The first offered tool, with a sample for each property.
	tools := map[string]any{"tools": []any{
		map[string]any{"name": "weather", "description": "Weather", "input_schema": map[string]any{
			"type": "object",
			"properties": map[string]any{
				"city":  map[string]any{"type": "string"},
				"days":  map[string]any{"type": "integer"},
				"units": map[string]any{"type": "string", "enum": []string{"metric", "imperial"}},
			},
		}},
		map[string]any{"name": "other", "input_schema": map[string]any{}},
	}}
	body := chat("Weather in Paris? demo:tool", tools)
	m = getMessage(t, srv, body)
	tu = m.Content[1]
	var in map[string]any
	if err := json.Unmarshal(tu.Input, &in); err != nil || tu.Name != "weather" ||
		in["city"] != "Paris" || in["days"] != 3.0 || in["units"] != "metric" {
		t.Fatalf("tool_use %s input %s (%v)", tu.Name, tu.Input, err)
	}

	events := streamEvents(t, srv, body)
	var start *event
	var partial []string
	for i, e := range events {
		if e.name == "content_block_start" && e.data.ContentBlock.Type == api.BlockToolUse {
			start = &events[i]
		}
		if e.data.Delta.Type == "input_json_delta" {
			if *e.data.Index != 1 {
				t.Fatalf("input delta at index %d", *e.data.Index)
			}
			partial = append(partial, e.data.Delta.PartialJSON)
		}
	}
	if start == nil || *start.data.Index != 1 || start.data.ContentBlock.Name != "weather" ||
		!strings.Contains(start.raw, `"input":{}`) {
		t.Fatalf("tool block start %+v", start)
	}
	if len(partial) < 3 || strings.Join(partial, "") != string(tu.Input) {
		t.Fatalf("partial_json %q, want %s", partial, tu.Input)
	}
	if md := last(events, "message_delta"); md.data.Delta.StopReason != api.StopToolUse {
		t.Fatalf("stop %q", md.data.Delta.StopReason)
	}

	// tool_choice picks a named tool.
	tools["tool_choice"] = map[string]any{"type": "tool", "name": "other"}
	if m := getMessage(t, srv, chat("demo:tool", tools)); m.Content[1].Name != "other" {
		t.Fatalf("tool %q", m.Content[1].Name)
	}
}

func TestErrorScenario(t *testing.T) {
	srv := newTestServer(t, Options{})
	body := chat("break please demo:error", nil)
	expectError(t, postMessage(t, srv, body), statusOverloaded, errOverloaded)

	events := streamEvents(t, srv, body)
	if n := countDeltas(events, "text_delta"); n != 5 {
		t.Fatalf("%d text deltas before the error, want 5", n)
	}
	e := events[len(events)-1]
	if e.name != "error" || e.raw != `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}` {
		t.Fatalf("last event %s %s", e.name, e.raw)
	}
	if last(events, "message_stop") != nil {
		t.Fatal("message_stop after an error")
	}
}

func TestOverloadedScenario(t *testing.T) {
	srv := newTestServer(t, Options{})
	for _, stream := range []bool{false, true} {
		resp := postMessage(t, srv, chat("demo:overloaded", map[string]any{"stream": stream}))
		if got := resp.Header.Get("retry-after-ms"); got != "50" {
			t.Errorf("retry-after-ms %q", got)
		}
		expectError(t, resp, statusOverloaded, errOverloaded)
	}
}

func TestRateLimitScenario(t *testing.T) {
	srv := newTestServer(t, Options{})
	body := chat("hello demo:ratelimit", nil)
	resp := postMessage(t, srv, body)
	if resp.Header.Get("retry-after") != "1" {
		t.Errorf("retry-after %q", resp.Header.Get("retry-after"))
	}
	expectError(t, resp, http.StatusTooManyRequests, errRateLimit)
	getMessage(t, srv, body) // the retry succeeds
	getMessage(t, srv, body)
	expectError(t, postMessage(t, srv, chat("other demo:ratelimit", nil)), http.StatusTooManyRequests, errRateLimit)
}

func TestHTMLScenario(t *testing.T) {
	srv := newTestServer(t, Options{})
	resp := postMessage(t, srv, chat("demo:html", map[string]any{"stream": true}))
	body := readAll(t, resp.Body)
	if resp.StatusCode != http.StatusBadGateway || resp.Header.Get("Content-Type") != "text/html" ||
		string(body) != "<html><body><h1>502 Bad Gateway</h1></body></html>" {
		t.Fatalf("status %d type %q body %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}

func TestLongScenario(t *testing.T) {
	srv := newTestServer(t, Options{})
	text := getMessage(t, srv, chat("tell me everything demo:long", nil)).Text()
	if n := len(strings.Fields(text)); n < 2800 || n > 3600 {
		t.Fatalf("%d words", n)
	}
	for sub, min := range map[string]int{"\n## ": 5, "\n```go\n": 5, "|---|---|---|": 5, "\n- ": 20, "\n1. ": 5} {
		if n := strings.Count(text, sub); n < min {
			t.Errorf("%d × %q, want ≥ %d", n, sub, min)
		}
	}
}

func TestHostileScenario(t *testing.T) {
	srv := newTestServer(t, Options{})
	body := chat("demo:hostile", nil)
	text := getMessage(t, srv, body).Text()
	for _, want := range []string{"\x1b]52;c;aGVsbG8=\x07", "\x1b[2J", "\x1b]0;", "&#27;[31mred", "\u009b"} {
		if !strings.Contains(text, want) {
			t.Errorf("reply lacks %q", want)
		}
	}
	if got := deltaText(streamEvents(t, srv, body)); got != text {
		t.Fatal("streamed hostile text differs")
	}
}

// TestSlowScenario checks that demo:slow pauses at least 100ms between
// words, as counted in the pauses asked of Options.pause.
func TestSlowScenario(t *testing.T) {
	var p pauses
	srv := newTestServer(t, Options{pause: p.pause})
	events := streamEvents(t, srv, chat("demo:slow", map[string]any{"max_tokens": 3}))
	if d := p.total(); d < 200*time.Millisecond {
		t.Fatalf("3 words after pauses of %v, want ≥ 200ms", p.got)
	}
	if countDeltas(events, "text_delta") != 3 {
		t.Fatal("wrong delta count")
	}
}

// TestStreamCancel checks that a stream stops, sending nothing more, once
// the client goes away during a pause between words.
func TestStreamCancel(t *testing.T) {
	asked := make(chan time.Duration, 1)
	h := NewHandler(Options{Delay: 20 * time.Millisecond, pause: held(asked)})
	done := make(chan struct{})
	var wrote atomic.Bool // the handler wrote after the client went away
	var gone atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(afterSpy{w, &gone, &wrote}, r)
		close(done)
	}))
	defer srv.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	data, err := json.Marshal(chat("a long story demo:long", map[string]any{"stream": true}))
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+messagesPath, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range messageHeaders() {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() && sc.Text() != "event: content_block_delta" {
	}
	// The first pause: the handler waits in it until the client goes away.
	select {
	case d := <-asked:
		if d != 20*time.Millisecond {
			t.Errorf("paused %v between words, want Delay's 20ms", d)
		}
	case <-time.After(hangLimit):
		t.Fatal("the handler did not pause after the first word")
	}
	gone.Store(true)
	cancel()
	select {
	case <-done:
		if wrote.Load() {
			t.Fatal("the handler went on streaming after the client went away")
		}
	case <-time.After(hangLimit):
		t.Fatal("handler still streaming after the client went away")
	}
}

// afterSpy records that a handler wrote once gone was set.
type afterSpy struct {
	http.ResponseWriter
	gone, wrote *atomic.Bool
}

func (w afterSpy) Write(b []byte) (int, error) {
	if w.gone.Load() {
		w.wrote.Store(true)
	}
	return w.ResponseWriter.Write(b)
}

// Flush lets the handler flush each event, as it does on a real connection.
func (w afterSpy) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

// TestSleepEndsWithContext checks the timer Options.pause stands in for:
// it ends when its context does, not when its delay has passed (an hour
// here, which the watchdog turns into a failure that says so).
func TestSleepEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan bool, 1)
	go func() { ended <- sleep(ctx, time.Hour) }()
	cancel()
	select {
	case ok := <-ended:
		if ok {
			t.Fatal("sleep reports its delay passed, though its context ended")
		}
	case <-time.After(hangLimit):
		t.Fatal("sleep waits out its delay after its context ended")
	}
	if !sleep(context.Background(), time.Nanosecond) {
		t.Fatal("sleep reports its context ended, though it did not")
	}
}
