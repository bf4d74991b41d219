package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"muse/api"
	"muse/api/demo"
	"muse/session"
)

func client(t testing.TB, h http.Handler) *api.Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return api.New(srv.URL, api.WithAccessToken(demo.DefaultToken), api.WithMaxRetries(0))
}

func store(t *testing.T) *session.Store {
	t.Helper()
	s, err := session.Open(filepath.Join(t.TempDir(), "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var params = session.Params{Model: "demo-chat", MaxTokens: 1024}

// A request that fails before any content leaves the prompt and an error
// entry: never an empty reply, on screen or after a reload.
func TestFailureBeforeContentLeavesAnErrorEntry(t *testing.T) {
	c := client(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(529)
		w.Write([]byte(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`))
	}))
	st := store(t)
	w := session.NewWriter(st, params)
	var kinds []Kind
	_, err := Run(context.Background(), Config{Client: c}, w, Turn{Prompt: "hi", Params: params},
		func(ev Event) { kinds = append(kinds, ev.Kind) }, nil)
	var apiErr *api.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 529 {
		t.Fatalf("err %v", err)
	}
	w.Close()
	sess, err := st.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if len(sess.Entries) != 2 || sess.Entries[0].Kind != session.KindUser || sess.Entries[1].Kind != session.KindError {
		t.Fatalf("entries %+v", sess.Entries)
	}
	if len(sess.All) != 2 {
		t.Errorf("the journal holds %d entries, want no empty reply", len(sess.All))
	}
}

// The tool-round limit counts the rounds of one turn, whatever started it:
// a retry starts from zero too.
func TestToolRoundsArePerTurn(t *testing.T) {
	c := client(t, demo.NewHandler(demo.Options{}))
	tools := []Tool{{Def: api.Tool{Name: "get_time", InputSchema: json.RawMessage(`{"type":"object"}`)}, Command: []string{"x"}}}
	ran := 0
	cfg := Config{Client: c, Tools: tools, MaxRounds: 1, RunTool: func(context.Context, []string, []byte) (string, int, error) {
		ran++
		return "12:00", 0, nil
	}}
	w := session.NewWriter(nil, params)
	yes := func(context.Context, api.ContentBlock, bool) Approval { return Approval{Run: true} }
	for _, turn := range []Turn{{Prompt: "demo:tool time?"}, {Retry: true}} {
		turn.Params = params
		res, err := Run(context.Background(), cfg, w, turn, func(Event) {}, yes)
		if err != nil || res.Rounds != 1 {
			t.Fatalf("turn %+v: rounds %d, err %v", turn, res.Rounds, err)
		}
	}
	if ran != 2 {
		t.Errorf("the tool ran %d times, want once a turn", ran)
	}
	// The retry is a sibling branch: the first reply stays in the session.
	snap := w.Snapshot()
	if len(snap.All) <= len(snap.Entries) {
		t.Errorf("retry overwrote the first reply: %d entries in all, %d on the branch", len(snap.All), len(snap.Entries))
	}
}

// A server that answers a stream request with JSON: the text still arrives
// as events.
func TestJSONAnswerToAStreamRequest(t *testing.T) {
	c := client(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"m1","type":"message","role":"assistant","model":"x","content":[{"type":"text","text":"whole answer"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":2}}`))
	}))
	var acc api.Accumulator
	res, err := Run(context.Background(), Config{Client: c}, session.NewWriter(nil, params), Turn{Prompt: "hi", Params: params},
		func(ev Event) {
			if ev.Kind == StreamEvent {
				acc.Add(ev.Stream)
			}
		}, nil)
	if err != nil || res.Message.Text() != "whole answer" || !strings.Contains(acc.Message().Text(), "whole answer") {
		t.Fatalf("text %q / %q, err %v", res.Message.Text(), acc.Message().Text(), err)
	}
}

// Editing an earlier prompt sends the history before it, then the edited
// text, as a new branch; the old branch stays in the session. Regenerating
// a reply makes a sibling.
func TestEditAndRegenerate(t *testing.T) {
	var bodies []api.MessageRequest
	inner := demo.NewHandler(demo.Options{})
	c := client(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req api.MessageRequest
		data, _ := io.ReadAll(r.Body)
		json.Unmarshal(data, &req)
		bodies = append(bodies, req)
		r.Body = io.NopCloser(bytes.NewReader(data))
		inner.ServeHTTP(w, r)
	}))
	w := session.NewWriter(nil, params)
	run := func(turn Turn) {
		t.Helper()
		turn.Params = params
		if _, err := Run(context.Background(), Config{Client: c}, w, turn, func(Event) {}, nil); err != nil {
			t.Fatal(err)
		}
	}
	run(Turn{Prompt: "first question"})
	run(Turn{Prompt: "second question"})
	second := w.Branch()[2]
	run(Turn{Prompt: "second, for rust", Edit: second.ID})
	last := bodies[len(bodies)-1]
	if n := len(last.Messages); n != 3 || last.Messages[0].Text != "first question" || last.Messages[2].Text != "second, for rust" {
		t.Fatalf("the edit sent %d messages: %+v", n, last.Messages)
	}
	snap := w.Snapshot()
	if len(snap.Entries) != 4 || snap.Entries[2].Text != "second, for rust" || len(snap.All) != 6 {
		t.Fatalf("after the edit: %d on the branch, %d in all", len(snap.Entries), len(snap.All))
	}
	if sib, pos := snap.Siblings(snap.Entries[2].ID); len(sib) != 2 || pos != 1 {
		t.Errorf("the edit's siblings %v at %d", sib, pos)
	}
	reply := snap.Entries[3]
	run(Turn{Regenerate: reply.ID})
	snap = w.Snapshot()
	if sib, pos := snap.Siblings(snap.Entries[3].ID); len(snap.Entries) != 4 || len(sib) != 2 || pos != 1 || sib[0] != reply.ID {
		t.Errorf("regenerated: siblings %v at %d, %d on the branch", sib, pos, len(snap.Entries))
	}
	if last := bodies[len(bodies)-1]; len(last.Messages) != 3 || last.Messages[2].Text != "second, for rust" {
		t.Errorf("the regeneration sent %+v", last.Messages)
	}
}

// Cancelling while a tool runs keeps its result, with the real cause, and
// answers the calls after it as cancelled: every call has its result, so the
// next request is valid.
func TestCancelDuringATool(t *testing.T) {
	c := client(t, demo.NewHandler(demo.Options{}))
	tools := []Tool{{Def: api.Tool{Name: "get_time", InputSchema: json.RawMessage(`{"type":"object"}`)}, Command: []string{"sleep", "100"}}}
	ctx, cancel := context.WithCancel(context.Background())
	cfg := Config{Client: c, Tools: tools, RunTool: Commands(0, nil)}
	w := session.NewWriter(nil, params)
	emit := func(ev Event) {
		if ev.Kind == ToolRunning {
			cancel()
		}
	}
	yes := func(context.Context, api.ContentBlock, bool) Approval { return Approval{Run: true} }
	_, err := Run(ctx, cfg, w, Turn{Prompt: "demo:tool time?", Params: params}, emit, yes)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	es := w.Branch()
	last := es[len(es)-1]
	if last.Kind != session.KindTool || len(last.ToolResults) != 1 || !strings.Contains(last.ToolResults[0].Output, "cancelled") {
		t.Fatalf("last entry %+v", last)
	}
	h := History(append(es, session.Entry{Kind: session.KindUser, Text: "next"}), nil)
	if err := (&api.MessageRequest{Model: "m", MaxTokens: 10, Messages: h}).Validate(); err != nil {
		t.Errorf("the history after a cancelled tool is not valid: %v", err)
	}
}

// A stream that stalls after some text: the text is checkpointed anyway,
// so a kill -9 during the silence loses at most about a second of it.
func TestCheckpointWhileTheStreamStalls(t *testing.T) {
	release := make(chan struct{})
	c := client(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fl := w.(http.Flusher)
		io.WriteString(w, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"x\",\"content\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":0}}}\n\n")
		io.WriteString(w, "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n")
		io.WriteString(w, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"said before the silence\"}}\n\n")
		fl.Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	st := store(t)
	w := session.NewWriter(st, params)
	ctx, cancel := context.WithCancel(context.Background())
	// The clock and the ticker are the test's: it moves the clock past
	// CheckpointEvery and ticks once the text has streamed.
	var mu sync.Mutex
	now := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	ticks := make(chan time.Time) // unbuffered: a send returns once the ticker took it
	streamed := make(chan struct{})
	var once sync.Once
	cfg := Config{Client: c, CheckpointEvery: time.Second, Now: clock,
		Ticker: func(time.Duration) (<-chan time.Time, func()) { return ticks, func() {} }}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(ctx, cfg, w, Turn{Prompt: "hi", Params: params}, func(e Event) {
			if e.Kind == StreamEvent && e.Stream.Type == api.EventContentBlockDelta {
				once.Do(func() { close(streamed) })
			}
		}, nil)
	}()
	select { // a watchdog: it times nothing, it only names a hang
	case <-streamed:
	case <-time.After(time.Minute):
		t.Fatal("the text never streamed")
	}
	mu.Lock()
	now = now.Add(2 * time.Second)
	mu.Unlock()
	// The ticker checkpoints on the first tick, and is back for the next
	// only once it has. A turn that ended instead fails the test at once.
	for range 2 {
		select {
		case ticks <- now:
		case <-done:
			t.Fatal("the turn ended while its stream was silent")
		case <-time.After(time.Minute): // a watchdog, as above
			t.Fatal("the ticker was never read")
		}
	}
	// The process "dies" while the stream is silent: read the journal as a
	// new muse would.
	sess, err := st.Load(w.ID())
	if err != nil || len(sess.Entries) != 2 || !strings.Contains(sess.Entries[1].Message.Text(), "silence") {
		t.Errorf("the text streamed before the silence is not in the journal: %v %+v", err, sess.Entries)
	}
	cancel()
	close(release)
	<-done
}
