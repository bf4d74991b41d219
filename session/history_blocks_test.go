package session

import (
	"encoding/json"
	"testing"

	"muse/api"
)

// TestHistoryKeepsServerBlocks checks that a reply with a web search and
// cited text goes back on the next turn as it came: the server tool's
// input, the search result and the citations whole, after a trip through
// the journal's JSON.
func TestHistoryKeepsServerBlocks(t *testing.T) {
	const content = `[{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"eclipse"}},` +
		`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","title":"T","url":"https://example.com","encrypted_content":"E"}]},` +
		`{"type":"text","text":"Two.","citations":[{"type":"web_search_result_location","cited_text":"Two","url":"https://example.com","title":"T","encrypted_index":"I"}]}]`
	var msg api.Message
	if err := json.Unmarshal([]byte(`{"id":"m","type":"message","role":"assistant","model":"x","content":`+content+`}`), &msg); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(Entry{Kind: KindAssistant, Message: &msg, Status: StatusComplete})
	if err != nil {
		t.Fatal(err)
	}
	var back Entry
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	h := History([]Entry{{Kind: KindUser, Text: "search"}, back, {Kind: KindUser, Text: "more"}}, nil)
	if len(h) != 2 {
		t.Fatalf("history %+v", h)
	}
	out, err := json.Marshal(h[1])
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	var g, w any
	_ = json.Unmarshal(got.Content, &g)
	_ = json.Unmarshal([]byte(content), &w)
	if mustJSON(t, g) != mustJSON(t, w) {
		t.Errorf("sent back:\n got %s\nwant %s", got.Content, content)
	}

	// Cited text alone is still sent as blocks, with its citations.
	cited := msg
	cited.Content = msg.Content[2:]
	if p := assistantParam(&Entry{Kind: KindAssistant, Message: &cited}); len(p.Blocks) != 1 || len(p.Blocks[0].Extra["citations"]) == 0 {
		t.Errorf("cited text sent as %+v", p)
	}
}
