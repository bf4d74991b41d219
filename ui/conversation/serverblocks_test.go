package conversation

import (
	"encoding/json"
	"strings"
	"testing"

	"muse/api"
	"muse/session"
)

// TestServerBlocksDrawnShort checks that redacted thinking, a web search
// and its results are drawn as short labelled lines, sanitized, and never
// as their JSON with its encrypted data.
func TestServerBlocksDrawnShort(t *testing.T) {
	var m api.Message
	err := json.Unmarshal([]byte(`{"id":"m","type":"message","role":"assistant","model":"x","stop_reason":"pause_turn","content":[
		{"type":"redacted_thinking","data":"EncryptedThinking"},
		{"type":"server_tool_use","id":"s1","name":"web_search","input":{"query":"eclipse \u001b[31m2026"}},
		{"type":"web_search_tool_result","tool_use_id":"s1","content":[
			{"type":"web_search_result","title":"Eclipses \u001b]0;pwned\u0007of 2026","url":"https://example.com/e","encrypted_content":"EncryptedPage"},
			{"type":"web_search_result","title":"Viewing safely","url":"https://example.org/safe","encrypted_content":"EncryptedPage"}]},
		{"type":"server_tool_use","id":"s2","name":"web_search","input":{"query":"more"}},
		{"type":"web_search_tool_result","tool_use_id":"s2","content":{"type":"web_search_tool_result_error","error_code":"max_uses_exceeded"}},
		{"type":"server_tool_use","id":"s3","name":"code_execution","input":{"code":"print(1)"}}]}`), &m)
	if err != nil {
		t.Fatal(err)
	}
	c := testConversation(t, 0).SetSize(100, 40)
	c = c.Add(session.Entry{ID: "a", Kind: session.KindAssistant, Status: session.StatusComplete, Message: &m})
	v := c.View()
	for _, want := range []string{"thinking · redacted", "web search · eclipse 2026", "2 search results",
		"· Eclipses of 2026 — https://example.com/e", "· Viewing safely — https://example.org/safe",
		"web search failed · max_uses_exceeded", `server tool · code_execution · {"code":"print(1)"}`,
		"the server paused this turn · /continue"} {
		if !strings.Contains(v, want) {
			t.Errorf("%q not drawn:\n%s", want, v)
		}
	}
	for _, never := range []string{"Encrypted", "encrypted_content", "\x1b[31m", "\x1b]0", "pwned\a", `"type"`} {
		if strings.Contains(v, never) {
			t.Errorf("%q drawn:\n%s", never, v)
		}
	}
	// While a call streams, its query shows once its input is complete JSON.
	lines, _ := ServerBlockLines(api.ContentBlock{Type: "server_tool_use", Raw: json.RawMessage(`{"type":"server_tool_use","name":"web_search","input":{}}`), PartialInput: `{"query":"ecl`})
	if lines[0] != "web search" {
		t.Errorf("streaming call drawn %q", lines)
	}
}
