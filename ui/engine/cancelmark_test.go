package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"

	"muse/api"
	"muse/api/demo"
	"muse/session"
)

// A turn cancelled before any of its reply arrived (before the first
// byte, or during a retry's countdown) saves its reply empty and marked
// cancelled, so that the prompt shows, on screen and after a resume, that
// it was; the next request leaves both out, as the API wants.
func TestCancelledBeforeReplyIsMarked(t *testing.T) {
	for _, tc := range []struct {
		name    string
		retries int
		serve   http.HandlerFunc
		on      func(Event) bool
	}{
		{name: "before the first byte", serve: func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() },
			on: func(ev Event) bool { return ev.Kind == ReplyStarted }},
		{name: "during a retry's countdown", retries: 2, serve: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("retry-after", "600")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`)
		}, on: func(ev Event) bool { return ev.Kind == Retrying }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := &summaryServer{reached: make(chan struct{})}
			// The prompt "wait" is answered by the case's handler.
			dh := demo.NewHandler(demo.Options{})
			h := srv.handler(func(w http.ResponseWriter, r *http.Request) { dh.ServeHTTP(w, r) })
			c := client(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var b bytes.Buffer
				if _, err := b.ReadFrom(r.Body); err != nil {
					return
				}
				if bytes.Contains(b.Bytes(), []byte(`"wait"`)) {
					tc.serve(w, r)
					return
				}
				r.Body = io.NopCloser(&b)
				h.ServeHTTP(w, r)
			}))
			c = api.New(c.BaseURL(), api.WithAccessToken(demo.DefaultToken), api.WithMaxRetries(tc.retries))
			w := session.NewWriter(nil, params)
			if _, err := Run(context.Background(), Config{Client: c}, w, Turn{Prompt: "alpha", Params: params}, func(Event) {}, nil); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var ended *Event
			emit := func(ev Event) {
				if tc.on(ev) {
					cancel()
				}
				if ev.Kind == ReplyEnded {
					ended = &ev
				}
			}
			if _, err := Run(ctx, Config{Client: c}, w, Turn{Prompt: "wait", Params: params}, emit, nil); !errors.Is(err, context.Canceled) {
				t.Fatalf("the turn ended with %v", err)
			}
			es := w.Branch()
			last := es[len(es)-1]
			if len(es) != 4 || es[2].Text != "wait" || last.Kind != session.KindAssistant || last.Status != session.StatusCancelled {
				t.Fatalf("the branch after the cancel: %+v", es)
			}
			if ended == nil || ended.Entry.ID != last.ID {
				t.Errorf("ReplyEnded reported %+v, not the reply saved", ended)
			}
			if _, err := Run(context.Background(), Config{Client: c}, w, Turn{Prompt: "gamma", Params: params}, func(Event) {}, nil); err != nil {
				t.Fatal(err)
			}
			msgs := srv.last(t)
			if len(msgs) != 3 || firstText(msgs[0]) != "alpha" || firstText(msgs[2]) != "gamma" {
				t.Errorf("the next request sent %d messages: %+v", len(msgs), msgs)
			}
		})
	}
}
