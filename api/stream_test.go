package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"
)

// sse joins events into a body, each "event: NAME\ndata: JSON\n\n".
func sse(events ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(events); i += 2 {
		b.WriteString("event: " + events[i] + "\ndata: " + events[i+1] + "\n\n")
	}
	return b.String()
}

const (
	evStart   = `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":10,"output_tokens":1,"cache_read_input_tokens":3}}}`
	evStop    = `{"type":"message_stop"}`
	evDeltaOK = `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":7}}`
)

func TestStreamEveryEventAndDelta(t *testing.T) {
	body := sse(
		"message_start", evStart,
		"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`,
		"ping", `{"type":"ping"}`,
		"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me "}}`,
		"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"think."}}`,
		"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"c2ln"}}`,
		"content_block_stop", `{"type":"content_block_stop","index":0}`,
		"content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}`,
		"content_block_start", `{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_time","input":{}}}`,
		// Deltas of blocks 1 and 2 interleave.
		"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hello"}}`,
		"content_block_delta", `{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"tz\": "}}`,
		"some_future_event", `{"type":"some_future_event","x":1}`,
		"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":", world"}}`,
		"content_block_delta", `{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"\"UTC\"}"}}`,
		"content_block_stop", `{"type":"content_block_stop","index":1}`,
		"content_block_stop", `{"type":"content_block_stop","index":2}`,
		"content_block_start", `{"type":"content_block_start","index":3,"content_block":{"type":"redacted_thinking","data":"abc"}}`,
		"content_block_stop", `{"type":"content_block_stop","index":3}`,
		"message_delta", `{"type":"message_delta","delta":{"stop_reason":"pause_turn","stop_sequence":null},"usage":{"input_tokens":12,"output_tokens":40,"cache_creation_input_tokens":5}}`,
		"message_stop", evStop,
	)
	got, types, err := drain(NewStreamFromReader(strings.NewReader(body)))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.Join(types, ","), "some_future_event") {
		t.Errorf("unknown event surfaced: %v", types)
	}
	if types[2] != EventPing {
		t.Errorf("ping not delivered: %v", types)
	}
	if len(got.Content) != 4 {
		t.Fatalf("got %d blocks", len(got.Content))
	}
	if b := got.Content[0]; b.Type != BlockThinking || b.Thinking != "Let me think." || b.Signature != "c2ln" {
		t.Errorf("thinking block: %+v", b)
	}
	if b := got.Content[1]; b.Text != "Hello, world" {
		t.Errorf("text block: %+v", b)
	}
	if b := got.Content[2]; b.ID != "toolu_1" || b.Name != "get_time" || string(b.Input) != `{"tz": "UTC"}` || b.Truncated {
		t.Errorf("tool block: %+v (input %s)", b, b.Input)
	}
	if b := got.Content[3]; b.Type != "redacted_thinking" || !jsonEqual(b.Raw, json.RawMessage(`{"type":"redacted_thinking","data":"abc"}`)) {
		t.Errorf("unknown block not kept raw: %+v", b)
	}
	if got.StopReason != "pause_turn" {
		t.Errorf("stop reason %q", got.StopReason)
	}
	want := Usage{InputTokens: 12, OutputTokens: 40, CacheCreationInputTokens: 5, CacheReadInputTokens: 3}
	if !reflect.DeepEqual(got.Usage, want) {
		t.Errorf("usage %+v, want %+v (overwritten, not added)", got.Usage, want)
	}
	// An unknown block goes back to the server unchanged.
	out, _ := json.Marshal(got.Content[3])
	if !jsonEqual(out, got.Content[3].Raw) {
		t.Errorf("raw block re-marshalled as %s", out)
	}
}

func TestSSEParsingRules(t *testing.T) {
	body := ": a comment line\n" +
		"event:message_start\n" +
		"data:" + evStart + "\n\n" +
		"event: content_block_start\r\n" +
		`data: {"type":"content_block_start",` + "\r\n" +
		`data: "index":0,"content_block":{"type":"text","text":""}}` + "\r\n\r\n" +
		"event: content_block_delta\r" +
		`data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"multi"}}` + "\r\r" +
		": keep-alive\n\n\n" +
		"id: 7\nretry: 100\n" +
		"data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"-line\"}}\n\n" +
		"event: message_delta\ndata: " + evDeltaOK + "\n\n" +
		"event: message_stop\ndata: " + evStop // no final blank line
	got, _, err := drain(NewStreamFromReader(strings.NewReader(body)))
	if err != nil {
		t.Fatal(err)
	}
	if got.Text() != "multi-line" {
		t.Errorf("text %q", got.Text())
	}
	if got.Usage.OutputTokens != 7 || got.Usage.InputTokens != 10 {
		t.Errorf("usage %+v", got.Usage)
	}
}

func TestStreamErrorEventKeepsPartial(t *testing.T) {
	body := sse(
		"message_start", evStart,
		"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
		"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"partial "}}`,
		"error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
		"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"never"}}`,
	)
	got, _, err := drain(NewStreamFromReader(strings.NewReader(body)))
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v, want *APIError", err)
	}
	if apiErr.Type != "overloaded_error" || apiErr.Message != "Overloaded" || apiErr.Status != 200 || !strings.Contains(apiErr.Error(), "after HTTP 200") {
		t.Errorf("api error %+v", apiErr)
	}
	if got.Text() != "partial " {
		t.Errorf("partial text %q", got.Text())
	}
}

func TestStreamTorn(t *testing.T) {
	body := sse(
		"message_start", evStart,
		"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
		"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"cut "}}`,
	) + "event: content_block_delta\ndata: {\"type\":\"content_block_del"
	got, _, err := drain(NewStreamFromReader(strings.NewReader(body)))
	if err == nil {
		t.Fatal("torn stream gave no error")
	}
	if got.Text() != "cut " {
		t.Errorf("partial text %q", got.Text())
	}
	// A stream that simply stops before message_stop is cut, too.
	_, _, err = drain(NewStreamFromReader(strings.NewReader(sse("message_start", evStart))))
	if !errors.Is(err, ErrStreamCut) {
		t.Errorf("err = %v, want ErrStreamCut", err)
	}
}

func TestStreamTruncatedToolInput(t *testing.T) {
	body := sse(
		"message_start", evStart,
		"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"write","input":{}}}`,
		"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"path\": \"a.txt\", \"body\": \"unfin"}}`,
		"message_delta", `{"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":9}}`,
		"message_stop", evStop,
	)
	got, _, err := drain(NewStreamFromReader(strings.NewReader(body)))
	if err != nil {
		t.Fatal(err)
	}
	b := got.Content[0]
	if !b.Truncated || string(b.Input) != `{"path": "a.txt"}` || !strings.HasSuffix(b.PartialInput, "unfin") {
		t.Errorf("truncated block %+v input %s", b, b.Input)
	}
}

func TestStreamMalformedJSON(t *testing.T) {
	_, _, err := drain(NewStreamFromReader(strings.NewReader(sse("message_start", evStart, "content_block_start", `{"type":`))))
	if err == nil || !strings.Contains(err.Error(), "malformed") {
		t.Errorf("err = %v", err)
	}
}

func TestStreamIdleTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte(sse("message_start", evStart)))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	c := New(srv.URL, WithAccessToken("t"), WithIdleTimeout(100*time.Millisecond))
	s, err := c.StreamMessage(context.Background(), testRequest())
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = drain(s)
	if !errors.Is(err, ErrIdleTimeout) {
		t.Fatalf("err = %v, want ErrIdleTimeout", err)
	}
	if !strings.Contains(err.Error(), "100ms") {
		t.Errorf("error does not say how long: %v", err)
	}
}

func TestStreamCancel(t *testing.T) {
	handlerDone := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(handlerDone)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte(sse("message_start", evStart,
			"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"so far"}}`)))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := New(srv.URL, WithAccessToken("t")).StreamMessage(ctx, testRequest())
	if err != nil {
		t.Fatal(err)
	}
	for s.Next() {
		if s.Current().Type == EventContentBlockDelta {
			cancel()
		}
	}
	if !errors.Is(s.Err(), context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", s.Err())
	}
	if s.Message().Text() != "so far" {
		t.Errorf("partial %q", s.Message().Text())
	}
	await(t, handlerDone, "the end of the server's request after the cancel")
}

func TestRepairJSON(t *testing.T) {
	cases := map[string]string{
		``:                              `{}`,
		`{`:                             `{}`,
		`{"a": 1, "b": "x`:              `{"a": 1}`,
		`{"a": 12`:                      `{}`,
		`{"a": [1, 2, {"b": tr`:         `{"a": [1, 2, {}]}`,
		`{"a": "q\"uo`:                  `{}`,
		`{"a": "q\"uo", "b": {"c": [`:   `{"a": "q\"uo", "b": {"c": []}}`,
		`{"k": true, "list": ["x", "y"`: `{"k": true, "list": ["x", "y"]}`,
		`{"a": null, "b":`:              `{"a": null}`,
		`{"a": 1}`:                      `{"a": 1}`,
	}
	for in, want := range cases {
		if got := string(RepairJSON(in)); got != want {
			t.Errorf("RepairJSON(%q) = %s, want %s", in, got, want)
		}
	}
}
