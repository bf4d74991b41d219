package ui

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"muse/api/demo"
	"muse/session"
)

// newHeldHarness is newHarness whose demo service holds each reply, its
// text sent, before its end (the stop or a stream error), and each image
// request before it is answered, until the test lets one go on (finish)
// or the client goes away (a cancel, the program stopped). A test that
// needs a turn in flight holds it there by an event, not by a pace it
// hopes is slow enough.
func newHeldHarness(t *testing.T) *harness {
	t.Helper()
	gate := make(chan struct{}, 16)
	done := make(chan struct{})
	demoHandler := demo.NewHandler(demo.Options{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		go func() {
			select {
			case <-done: // the test is over: nothing holds the server's Close
				cancel()
			case <-ctx.Done():
			}
		}()
		if r.Method == http.MethodPost && r.URL.Path == "/v1/images/generations" {
			if !wait(ctx, gate) {
				return
			}
			demoHandler.ServeHTTP(w, r)
			return
		}
		demoHandler.ServeHTTP(&heldWriter{ResponseWriter: w, ctx: ctx, gate: gate}, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(done) }) // runs first: a held request ends
	store, err := session.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &harness{srv: srv, store: store, gate: gate}
}

// finish lets one held reply or image request end (or the next one not
// held yet, when none is).
func (h *harness) finish(t *testing.T) {
	t.Helper()
	select {
	case h.gate <- struct{}{}:
	default:
		t.Fatal("more replies let go than the harness can hold")
	}
}

// wait waits for a token of gate; it reports false if ctx ended first.
func wait(ctx context.Context, gate <-chan struct{}) bool {
	select {
	case <-gate:
		return true
	case <-ctx.Done():
		return false
	}
}

// heldWriter holds a streamed reply before its end: the write of its
// message_delta or error event waits for a token of gate.
type heldWriter struct {
	http.ResponseWriter
	ctx  context.Context
	gate <-chan struct{}
	held bool
}

func (w *heldWriter) Write(b []byte) (int, error) {
	if !w.held && (bytes.HasPrefix(b, []byte("event: message_delta\n")) || bytes.HasPrefix(b, []byte("event: error\n"))) {
		w.held = true
		if !wait(w.ctx, w.gate) {
			return 0, w.ctx.Err()
		}
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController flush the writer held.
func (w *heldWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
