package api

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// serverToolStream is a reply with a web search, as Anthropic streams one
// (testdata/servertool.sse, which api/sdkwire's tests read too): the
// server_tool_use block's input in fragments, the search result whole,
// then text whose citations arrive as citations_delta events, a redacted
// thinking block, and a block and a delta of types muse does not know.
var serverToolStream = func() string {
	b, err := os.ReadFile("testdata/servertool.sse")
	if err != nil {
		panic(err)
	}
	return string(b)
}()

// serverToolWant is the message serverToolStream makes, as the SDKs
// assemble it.
const serverToolWant = `{"id":"msg_s","type":"message","role":"assistant","model":"m","content":[
	{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"eclipse 2026"}},
	{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","title":"Eclipses of 2026","url":"https://example.com/e","encrypted_content":"EncA","page_age":"1 week ago"}],"caller":{"type":"direct"}},
	{"type":"text","text":"There are two.","citations":[
		{"type":"web_search_result_location","cited_text":"Two eclipses","url":"https://example.com/e","title":"Eclipses of 2026","encrypted_index":"Ix1"},
		{"type":"web_search_result_location","cited_text":"August","url":"https://example.com/e","title":"Eclipses of 2026","encrypted_index":"Ix2"}]},
	{"type":"redacted_thinking","data":"EncR"},
	{"type":"future_block","note":"a <b> & c","count":2,"keep":true,"text":"t"}],
	"stop_reason":"end_turn","stop_sequence":null,
	"usage":{"input_tokens":5,"output_tokens":9,"service_tier":"standard","server_tool_use":{"web_search_requests":1}}}`

// TestServerToolsAndCitations checks that every delta applies to its
// block: a server tool's input, citations, and the fields of a delta of a
// type muse does not know; and that the blocks go back as they came.
func TestServerToolsAndCitations(t *testing.T) {
	got, _, err := drain(NewStreamFromReader(strings.NewReader(serverToolStream)))
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(out, json.RawMessage(serverToolWant)) {
		t.Errorf("assembled:\n got %s\nwant %s", out, serverToolWant)
	}
	// The blocks no delta touched are sent back byte for byte.
	if want := `{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","title":"Eclipses of 2026","url":"https://example.com/e","encrypted_content":"EncA","page_age":"1 week ago"}],"caller":{"type":"direct"}}`; string(got.Content[1].Raw) != want {
		t.Errorf("result block changed:\n got %s\nwant %s", got.Content[1].Raw, want)
	}
	// Sent back on the next turn, each block is as received.
	param, err := json.Marshal(MessageParam{Role: RoleAssistant, Blocks: got.Content})
	if err != nil {
		t.Fatal(err)
	}
	var sent struct {
		Content json.RawMessage `json:"content"`
	}
	var whole struct {
		Content json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal(param, &sent)
	_ = json.Unmarshal([]byte(serverToolWant), &whole)
	if !jsonEqual(sent.Content, whole.Content) {
		t.Errorf("sent back:\n got %s\nwant %s", sent.Content, whole.Content)
	}
	// A session stores the message as JSON and reads it again.
	var again Message
	if err := json.Unmarshal(out, &again); err != nil {
		t.Fatal(err)
	}
	if out2, _ := json.Marshal(again); string(out2) != string(out) {
		t.Errorf("round trip:\n got %s\nwant %s", out2, out)
	}
}

// TestSnapshotWhileStreaming checks Message in the middle of a block: the
// citations and the fields so far are there, and a later delta does not
// change a snapshot taken before it.
func TestSnapshotWhileStreaming(t *testing.T) {
	var a Accumulator
	evs := []string{
		`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{"n":1}}}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"server_tool_use","id":"s","name":"web_search","input":{}}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"query\":\"q"}}`,
	}
	for _, e := range evs {
		ev, err := parseEvent("", []byte(e))
		if err != nil {
			t.Fatal(err)
		}
		a.Add(ev)
	}
	snap := a.Message()
	if got := string(snap.Content[0].Extra["citations"]); got != `[{"n":1}]` {
		t.Errorf("citations so far %s", got)
	}
	if snap.Content[1].PartialInput != `{"query":"q` {
		t.Errorf("server tool input so far %q", snap.Content[1].PartialInput)
	}
	ev, _ := parseEvent("", []byte(`{"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{"n":2}}}`))
	a.Add(ev)
	a.Finish()
	if got := string(snap.Content[0].Extra["citations"]); got != `[{"n":1}]` {
		t.Errorf("the snapshot changed: %s", got)
	}
	m := a.Message()
	if got := string(m.Content[0].Extra["citations"]); got != `[{"n":1},{"n":2}]` {
		t.Errorf("citations %s", got)
	}
	// Cut short, the server tool's input is flagged and kept as it came.
	if b := m.Content[1]; !b.Truncated || b.PartialInput != `{"query":"q` {
		t.Errorf("cut server tool: truncated %v, partial %q", b.Truncated, b.PartialInput)
	}
}

// TestUnsentUsage checks that counters the server did not send are not
// written, and that those it sent are, zero or not.
func TestUnsentUsage(t *testing.T) {
	got, _, err := drain(NewStreamFromReader(strings.NewReader(sse("message_start", evStart, "message_delta", evDeltaOK, "message_stop", evStop))))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(got.Usage)
	if want := `{"input_tokens":10,"output_tokens":7,"cache_read_input_tokens":3}`; string(out) != want {
		t.Errorf("usage %s, want %s", out, want)
	}
	// Replayed, as a whole reply is, it stays the same.
	replayed, _, _ := drain(NewStreamFromMessage(&got))
	if out2, _ := json.Marshal(replayed.Usage); string(out2) != string(out) {
		t.Errorf("replayed usage %s, want %s", out2, out)
	}
	// A message without usage gets none; a usage made in Go has every counter.
	var m Message
	if err := json.Unmarshal([]byte(`{"id":"x","type":"message","role":"assistant","model":"m","content":[]}`), &m); err != nil {
		t.Fatal(err)
	}
	if out, _ := json.Marshal(m); strings.Contains(string(out), "usage") {
		t.Errorf("invented usage: %s", out)
	}
	if out, _ := json.Marshal(Usage{OutputTokens: 2}); string(out) != `{"input_tokens":0,"output_tokens":2,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}` {
		t.Errorf("Go usage %s", out)
	}
	// A counter sent as null goes back as null.
	var u Usage
	_ = json.Unmarshal([]byte(`{"input_tokens":1,"output_tokens":2,"cache_read_input_tokens":null}`), &u)
	if out, _ := json.Marshal(u); string(out) != `{"input_tokens":1,"output_tokens":2,"cache_read_input_tokens":null}` {
		t.Errorf("null counter %s", out)
	}
}
