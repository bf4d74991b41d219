package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// realMessage is a reply as the real service sends it, with fields muse has
// no Go field for.
const realMessage = `{
  "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
  "type": "message",
  "role": "assistant",
  "model": "claude-sonnet-4-5",
  "content": [
    {"type": "text", "text": "Hi!", "citations": null},
    {"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": {"tz": "UTC"}, "caller": {"type": "direct"}},
    {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "x"}}
  ],
  "stop_reason": "tool_use",
  "stop_sequence": null,
  "stop_details": null,
  "container": {"id": "container_1", "expires_at": "2025-01-01T00:00:00Z"},
  "usage": {
    "input_tokens": 10,
    "cache_creation_input_tokens": 0,
    "cache_read_input_tokens": 2,
    "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
    "output_tokens": 25,
    "server_tool_use": {"web_search_requests": 1},
    "service_tier": "standard"
  }
}`

func TestMessageRoundTripKeepsUnknownFields(t *testing.T) {
	var m Message
	if err := json.Unmarshal([]byte(realMessage), &m); err != nil {
		t.Fatal(err)
	}
	if m.Text() != "Hi!" || m.StopReason != StopToolUse || m.Usage.OutputTokens != 25 || m.Usage.CacheReadInputTokens != 2 {
		t.Errorf("known fields: %+v", m)
	}
	if got := string(m.Usage.Extra["service_tier"]); got != `"standard"` {
		t.Errorf("usage.service_tier = %s", got)
	}
	if got := string(m.Extra["stop_sequence"]); got != "null" {
		t.Errorf("stop_sequence kept as %q, want null", got)
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(out, json.RawMessage(realMessage)) {
		t.Errorf("round trip changed the message:\n got %s\nwant %s", out, realMessage)
	}
	// A pointer marshals the same way, and so does a message inside another value.
	out2, err := json.Marshal(struct{ M *Message }{&m})
	if err != nil || !strings.Contains(string(out2), `"stop_sequence":null`) {
		t.Errorf("nested: %s, %v", out2, err)
	}
}

func TestGoFieldWinsOverExtra(t *testing.T) {
	m := Message{ID: "m", StopSequence: "END", Extra: map[string]json.RawMessage{
		"stop_sequence": json.RawMessage("null"), "id": json.RawMessage(`"other"`), "zeta": json.RawMessage(`[1, 2]`),
	}}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"m","type":"","role":"","model":"","content":null,"stop_sequence":"END",` +
		`"usage":{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0},"zeta":[1,2]}`
	if string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
	b := ContentBlock{Type: BlockThinking, Thinking: "hm", Extra: map[string]json.RawMessage{"signature": json.RawMessage("null")}}
	if out, _ := json.Marshal(b); string(out) != `{"type":"thinking","thinking":"hm","signature":null}` {
		t.Errorf("thinking block: %s", out)
	}
	b.Signature = "c2ln"
	if out, _ := json.Marshal(b); string(out) != `{"type":"thinking","thinking":"hm","signature":"c2ln"}` {
		t.Errorf("thinking block with signature: %s", out)
	}
	m.Extra = map[string]json.RawMessage{"bad": json.RawMessage("{")}
	if _, err := json.Marshal(m); err == nil || !strings.Contains(err.Error(), `"bad"`) {
		t.Errorf("invalid extra: err %v", err)
	}
}

func TestCloneCopiesExtra(t *testing.T) {
	var m Message
	if err := json.Unmarshal([]byte(realMessage), &m); err != nil {
		t.Fatal(err)
	}
	c := m.Clone()
	c.Extra["container"][2] = 'X'
	c.Extra["new"] = json.RawMessage("1")
	c.Usage.Extra["service_tier"] = json.RawMessage(`"priority"`)
	c.Content[0].Extra["citations"] = json.RawMessage("[]")
	if _, ok := m.Extra["new"]; ok || m.Extra["container"][2] == 'X' ||
		string(m.Usage.Extra["service_tier"]) != `"standard"` || string(m.Content[0].Extra["citations"]) != "null" {
		t.Error("the clone shares Extra with the original")
	}
}

// TestStreamKeepsUnknownFields checks that fields of message_start and
// message_delta that muse has no Go field for reach the assembled Message,
// message_delta's overwriting message_start's.
func TestStreamKeepsUnknownFields(t *testing.T) {
	body := sse(
		"message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"container":null,"usage":{"input_tokens":9,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0},"service_tier":"standard","server_tool_use":{"web_search_requests":0}}}}`,
		"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"","citations":[]}}`,
		"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}`,
		"content_block_stop", `{"type":"content_block_stop","index":0}`,
		"message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null,"stop_details":null,"container":{"id":"c1"}},"usage":{"output_tokens":7,"server_tool_use":{"web_search_requests":2}}}`,
		"message_stop", evStop)
	m, _, err := drain(NewStreamFromReader(strings.NewReader(body)))
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"msg_1","type":"message","role":"assistant","model":"m",
		"content":[{"type":"text","text":"Hi","citations":[]}],
		"stop_reason":"end_turn","stop_sequence":null,"stop_details":null,"container":{"id":"c1"},
		"usage":{"input_tokens":9,"output_tokens":7,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,
			"cache_creation":{"ephemeral_5m_input_tokens":0},"service_tier":"standard","server_tool_use":{"web_search_requests":2}}}`
	if !jsonEqual(out, json.RawMessage(want)) {
		t.Errorf("assembled message:\n got %s\nwant %s", out, want)
	}
}

// TestJSONReplyToStreamKeepsUnknownFields checks the replay of a plain JSON
// answer to a streamed request.
func TestJSONReplyToStreamKeepsUnknownFields(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, realMessage)
	})
	c := New(rec.URL, WithAccessToken("t"))
	defer c.Close()
	s, err := c.StreamMessage(context.Background(), testRequest())
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := drain(s)
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(out, json.RawMessage(realMessage)) {
		t.Errorf("replayed message:\n got %s\nwant %s", out, realMessage)
	}
}

// eachField finds the same fields as a full decode, however the values nest
// and whatever their strings hold.
func TestEachFieldMatchesDecode(t *testing.T) {
	for _, obj := range []string{
		`{}`, ` { } `,
		`{"a":1,"b":"x","c":null,"d":true,"e":false}`,
		`{ "a" : [1, {"x":"]}"}, "\"{"] , "b\"q":{"k":[[],{}]}, "c":-1.5e3 }`,
		`{"t":"\u00e9\\","n":{"deep":{"deeper":["}",{"]":"["}]}},"z":0}`,
		"{\n\t\"a\"\t:\n\"v\"\r\n,\"b\":[ ]}",
	} {
		var want map[string]json.RawMessage
		if err := json.Unmarshal([]byte(obj), &want); err != nil {
			t.Fatal(err)
		}
		got := map[string]json.RawMessage{}
		if err := eachField(bytes.TrimSpace([]byte(obj)), func(k string, v []byte) { got[k] = v }); err != nil {
			t.Fatalf("%s: %v", obj, err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: fields %v, want %v", obj, got, want)
		}
		for k, v := range want {
			if !bytes.Equal(bytes.TrimSpace(got[k]), bytes.TrimSpace(v)) {
				t.Errorf("%s: field %q = %s, want %s", obj, k, got[k], v)
			}
		}
	}
}
