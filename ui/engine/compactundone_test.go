package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"muse/api"
	"muse/api/demo"
	"muse/session"
)

// summaryServer is the demo service, except for the compaction request,
// which the handler of the case answers; it keeps every request's body.
type summaryServer struct {
	mu      sync.Mutex
	bodies  [][]byte
	reached chan struct{} // closed once the compaction request arrived
	once    sync.Once
}

func (s *summaryServer) handler(compact http.HandlerFunc) http.Handler {
	dh := demo.NewHandler(demo.Options{})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		s.mu.Lock()
		s.bodies = append(s.bodies, b)
		s.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(b))
		if bytes.Contains(b, []byte("Summarise our conversation")) {
			s.once.Do(func() { close(s.reached) })
			compact(w, r)
			return
		}
		dh.ServeHTTP(w, r)
	})
}

// last returns the messages of the last request the server received.
func (s *summaryServer) last(t *testing.T) []api.MessageParam {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var req struct {
		Messages []api.MessageParam `json:"messages"`
	}
	if err := json.Unmarshal(s.bodies[len(s.bodies)-1], &req); err != nil {
		t.Fatal(err)
	}
	return req.Messages
}

// sse writes one server-sent event and flushes it.
func sse(w http.ResponseWriter, event, data string) {
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, data)
	w.(http.Flusher).Flush()
}

// summaryStart streams the start of a summary: its message and the first
// words of its text.
func summaryStart(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	sse(w, "message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"demo-chat","content":[],"usage":{"input_tokens":9,"output_tokens":0}}}`)
	sse(w, "content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	sse(w, "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"We talked about"}}`)
}

// A /compact that does not end with a full summary, at whatever moment it
// ends (cancelled before its first byte, mid-summary or during a retry's
// countdown; failed; cut at max_tokens), writes nothing: the session, in
// memory and on disk, holds the branch compacted as its active one, the
// error says nothing was lost, and the next prompt's request, which the
// server accepts, carries the whole history before it.
func TestCompactUndone(t *testing.T) {
	hang := func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }
	cases := []struct {
		name    string
		compact http.HandlerFunc
		retries int
		// cancelOn, when set, cancels the turn at the event it matches.
		cancelOn func(Event) bool
		cancel   bool // cancel once the compaction request arrived
		want     string
	}{
		{name: "cancelled before the first byte", compact: hang, cancel: true, want: "/compact cancelled"},
		{name: "cancelled mid-summary", compact: func(w http.ResponseWriter, r *http.Request) {
			summaryStart(w)
			<-r.Context().Done()
		}, cancelOn: func(ev Event) bool { return ev.Kind == StreamEvent && ev.Stream.Type == api.EventContentBlockDelta },
			want: "/compact cancelled"},
		{name: "cancelled during a retry's countdown", retries: 2, compact: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("retry-after", "600")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`)
		}, cancelOn: func(ev Event) bool { return ev.Kind == Retrying }, want: "/compact cancelled"},
		{name: "failed", compact: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"type":"error","error":{"type":"invalid_request_error","message":"no summary today"}}`)
		}, want: "no summary today"},
		{name: "failed mid-summary", compact: func(w http.ResponseWriter, r *http.Request) {
			summaryStart(w)
			sse(w, "error", `{"type":"error","error":{"type":"overloaded_error","message":"went away"}}`)
		}, want: "went away"},
		{name: "cut at max_tokens", compact: func(w http.ResponseWriter, r *http.Request) {
			summaryStart(w)
			sse(w, "content_block_stop", `{"type":"content_block_stop","index":0}`)
			sse(w, "message_delta", `{"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":3}}`)
			sse(w, "message_stop", `{"type":"message_stop"}`)
		}, want: "cut at max_tokens"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := &summaryServer{reached: make(chan struct{})}
			h := srv.handler(tc.compact)
			c := client(t, h)
			if tc.retries > 0 {
				c = api.New(c.BaseURL(), api.WithAccessToken(demo.DefaultToken), api.WithMaxRetries(tc.retries))
			}
			st := store(t)
			w := session.NewWriter(st, params)
			emit := func(Event) {}
			for _, p := range []string{"alpha", "beta"} {
				if _, err := Run(context.Background(), Config{Client: c}, w, Turn{Prompt: p, Params: params}, emit, nil); err != nil {
					t.Fatal(err)
				}
			}
			before := w.Snapshot()

			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancel {
				go func() {
					<-srv.reached
					cancel()
				}()
			}
			var events []Event
			compactEmit := func(ev Event) {
				events = append(events, ev)
				if tc.cancelOn != nil && tc.cancelOn(ev) {
					cancel()
				}
			}
			res, err := Run(ctx, Config{Client: c}, w, Turn{Compact: true, Params: params}, compactEmit, nil)
			if !errors.Is(err, ErrCompactUndone) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "nothing was lost") {
				t.Fatalf("the compaction ended with %v, want %q and that nothing was lost", err, tc.want)
			}
			if strings.HasPrefix(tc.want, "/compact cancelled") != errors.Is(err, context.Canceled) {
				t.Errorf("cancelled: %v", err)
			}
			if res.Undone == nil || len(res.Undone.Entries) != 4 || res.Undone.Head != before.Head {
				t.Fatalf("Undone is %+v, want the branch compacted", res.Undone)
			}
			after := w.Snapshot()
			if len(after.All) != len(before.All) || after.Head != before.Head || len(after.Entries) != 4 {
				t.Fatalf("the compaction wrote: %d entries (was %d), head %s (was %s)", len(after.All), len(before.All), after.Head, before.Head)
			}
			for _, ev := range events {
				if ev.Kind == EntryAdded && ev.Entry.Kind == session.KindError {
					t.Errorf("an error entry was reported, which nothing shows: %+v", ev.Entry)
				}
			}

			// The next prompt sends the whole history, and the server takes it.
			if _, err := Run(context.Background(), Config{Client: c}, w, Turn{Prompt: "gamma", Params: params}, emit, nil); err != nil {
				t.Fatal(err)
			}
			msgs := srv.last(t)
			var texts []string
			for _, m := range msgs {
				texts = append(texts, m.Role+":"+firstText(m))
			}
			if len(msgs) != 5 || firstText(msgs[0]) != "alpha" || firstText(msgs[2]) != "beta" || firstText(msgs[4]) != "gamma" {
				t.Errorf("the prompt after the compaction sent %q, want alpha, its reply, beta, its reply and gamma", texts)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			// On disk too: a resume goes on from the branch compacted.
			saved, err := st.Load(w.ID())
			if err != nil {
				t.Fatal(err)
			}
			if len(saved.All) != 6 || len(saved.Entries) != 6 || saved.Entries[0].Text != "alpha" {
				t.Errorf("saved: %d entries, the active branch %d from %q", len(saved.All), len(saved.Entries), saved.Entries[0].Text)
			}
		})
	}
}

// firstText is the text of m: its text, or that of its first text block.
func firstText(m api.MessageParam) string {
	if m.Text != "" {
		return m.Text
	}
	for _, b := range m.Blocks {
		if b.Type == api.BlockText {
			return b.Text
		}
	}
	return ""
}
