package engine

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"muse/api"
	"muse/session"
)

// pauseServer pauses its first reply inside a web search, and checks that
// the next request continues it: the paused turn sent back as it came,
// last, with no new prompt after it.
func pauseServer(t *testing.T, requests *[]string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		*requests = append(*requests, string(body))
		w.Header().Set("Content-Type", "text/event-stream")
		start := `event: message_start
data: {"type":"message_start","message":{"id":"msg_%d","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":1}}}

`
		if len(*requests) == 1 {
			io.WriteString(w, strings.Replace(start, "%d", "1", 1)+`event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query\":\"eclipse\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"pause_turn"},"usage":{"output_tokens":4}}

event: message_stop
data: {"type":"message_stop"}

`)
			return
		}
		io.WriteString(w, strings.Replace(start, "%d", "2", 1)+`event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[]}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":"Found it."}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":5}}

event: message_stop
data: {"type":"message_stop"}

`)
	}
}

// TestContinuePausedTurn checks that a turn the server paused (pause_turn)
// can be continued as a reply cut at max_tokens can: the paused turn goes
// back as it came, with no prompt after it, and the continuation's blocks
// follow its own.
func TestContinuePausedTurn(t *testing.T) {
	var requests []string
	c := client(t, pauseServer(t, &requests))
	w := session.NewWriter(nil, params)
	res, err := Run(context.Background(), Config{Client: c}, w, Turn{Prompt: "search", Params: params}, func(Event) {}, nil)
	if err != nil || res.Message.StopReason != api.StopPauseTurn || !CanContinue(&res.Message) {
		t.Fatalf("first reply: stop %q, err %v", res.Message.StopReason, err)
	}
	res, err = Run(context.Background(), Config{Client: c}, w, Turn{Continue: true, Params: params}, func(Event) {}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var req struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal([]byte(requests[1]), &req); err != nil {
		t.Fatal(err)
	}
	last := string(req.Messages[len(req.Messages)-1])
	if len(req.Messages) != 2 || !strings.Contains(last, `"role":"assistant"`) ||
		!strings.Contains(last, `{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"eclipse"}}`) {
		t.Errorf("the continuation sent %s", requests[1])
	}
	var types []string
	for _, b := range res.Message.Content {
		types = append(types, b.Type)
	}
	if got := strings.Join(types, ","); got != "server_tool_use,web_search_tool_result,text" || res.Message.StopReason != api.StopEndTurn {
		t.Errorf("joined reply: blocks %s, stop %q", got, res.Message.StopReason)
	}
	if es := w.Branch(); len(es) != 2 || es[1].Message.Text() != "Found it." {
		t.Errorf("the session holds %d entries: %+v", len(es), es)
	}
}
