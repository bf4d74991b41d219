package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"muse/api"
)

// TestPrintJSONPartial checks -p --json on a stream that fails part way:
// the reply as far as it came, marked partial with its error, and exit 1,
// as plain -p prints the partial text.
func TestPrintJSONPartial(t *testing.T) {
	r := runMain(t, nil, "", "--demo", "-p", "tell me demo:error", "--json")
	var m api.Message
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil {
		t.Fatalf("code %d, stdout %q: %v", r.code, r.stdout, err)
	}
	var mark struct {
		Partial bool   `json:"partial"`
		Error   string `json:"error"`
	}
	_ = json.Unmarshal([]byte(r.stdout), &mark)
	if r.code != ExitFailed || !mark.Partial || !strings.Contains(mark.Error, "overloaded_error") || m.Text() == "" {
		t.Errorf("code %d, partial %v, error %q, text %q", r.code, mark.Partial, mark.Error, m.Text())
	}
	if !strings.Contains(r.stderr, "overloaded_error") {
		t.Errorf("stderr %q", r.stderr)
	}
	plain := runMain(t, nil, "", "--demo", "-p", "tell me demo:error")
	if plain.code != r.code || !strings.HasPrefix(strings.TrimSpace(plain.stdout), strings.TrimSpace(m.Text())[:10]) {
		t.Errorf("plain -p: code %d, stdout %q; --json text %q", plain.code, plain.stdout, m.Text())
	}
}

// TestPrintServerBlockNotes checks that -p shows a web search as short
// notes on standard error, the query and the results' titles and links,
// and keeps its encrypted data and JSON out of both outputs.
func TestPrintServerBlockNotes(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for _, data := range []string{
			`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}`,
			`{"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"EncThinking"}}`,
			`{"type":"content_block_stop","index":0}`,
			`{"type":"content_block_start","index":1,"content_block":{"type":"server_tool_use","id":"s1","name":"web_search","input":{}}}`,
			`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"query\":\"eclipse"}}`,
			`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":" 2026\"}"}}`,
			`{"type":"content_block_stop","index":1}`,
			`{"type":"content_block_start","index":2,"content_block":{"type":"web_search_tool_result","tool_use_id":"s1","content":[{"type":"web_search_result","title":"Eclipses \u001b[2J2026","url":"https://example.com/e","encrypted_content":"EncPage"}]}}`,
			`{"type":"content_block_stop","index":2}`,
			`{"type":"content_block_start","index":3,"content_block":{"type":"text","text":"Two eclipses."}}`,
			`{"type":"content_block_stop","index":3}`,
			`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":5}}`,
			`{"type":"message_stop"}`,
		} {
			io.WriteString(w, "data: "+data+"\n\n")
		}
	}))
	defer srv.Close()
	env := map[string]string{"MUSE_BASE_URL": srv.URL, "MUSE_MODEL": "m", "MUSE_API_KEY": "k"}
	r := runMain(t, env, "", "-p", "search", "--no-save")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "Two eclipses." {
		t.Fatalf("code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"muse: thinking · redacted\n", "muse: web search · eclipse 2026\n", "muse: 1 search result\n",
		"muse: · Eclipses 2026 — https://example.com/e\n"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stdout+r.stderr, "Enc") || strings.ContainsRune(r.stderr, 0x1b) {
		t.Errorf("encrypted data or an escape shown:\n%s%s", r.stdout, r.stderr)
	}
}
