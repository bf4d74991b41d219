package ui

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"muse/api/demo"
	"muse/session"
	"muse/ui/internal/waitfor"
)

// A held turn: the demo service keeps the first reply or image request
// that carries a given word in flight until the test lets it go, so that
// a test acts on a turn under way because it is, not because a pace was
// slow enough. A reply is held with its text sent, before its end (the
// message_delta that says why it stopped, or a stream error); an image
// request before any answer.

// hold is the gate of newHeldHarness.
type hold struct {
	word   []byte
	taken  atomic.Bool    // the one request to hold has reached the gate
	parked chan *heldTurn // the request held, once it waits at the gate
	done   chan struct{}  // the test is over: a held request ends
}

// heldTurn is the request a hold keeps waiting.
type heldTurn struct {
	path    string        // the request's path: a reply or an image
	release chan struct{} // closed by let
	gone    chan struct{} // closed when the client went away while it was held
	waiting atomic.Bool   // at the gate: neither let go nor given up yet
}

// newHeldHarness is newHarness, whose demo service holds the first reply
// or image request that carries word (in its prompt, or its path, as an
// image task's poll does) at its gate until the test lets it go; every
// other request is answered at once.
func newHeldHarness(t *testing.T, word string) (*harness, *hold) {
	t.Helper()
	hd := &hold{word: []byte(word), parked: make(chan *heldTurn, 1), done: make(chan struct{})}
	service := demo.NewHandler(demo.Options{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if !bytes.Contains(body, hd.word) && !strings.Contains(r.URL.Path, string(hd.word)) {
			service.ServeHTTP(w, r)
			return
		}
		switch {
		case r.URL.Path == "/v1/messages":
			w = &heldWriter{ResponseWriter: w, ctx: r.Context(), hold: hd}
		case r.URL.Path == "/v1/images/generations" || strings.HasPrefix(r.URL.Path, "/api/v1/tasks/"):
			if !hd.wait(r.Context(), r.URL.Path) { // held before the answer
				return
			}
		}
		service.ServeHTTP(w, r) // anything else (counting tokens, say) is not held
	}))
	// Cleanups run last first: the held request ends, then the server
	// closes, which waits for it.
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(hd.done) })
	store, err := session.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &harness{srv: srv, store: store}, hd
}

// wait holds the request of path at the gate, if it is the first to come
// there, until the test lets it go; it reports false if the client went
// away first (or the test ended), and the request is to end.
func (hd *hold) wait(ctx context.Context, path string) bool {
	if !hd.taken.CompareAndSwap(false, true) {
		return true // only the first is held
	}
	ht := &heldTurn{path: path, release: make(chan struct{}), gone: make(chan struct{})}
	ht.waiting.Store(true)
	hd.parked <- ht // never blocks: one request is held, and the channel holds one
	defer ht.waiting.Store(false)
	select {
	case <-ht.release:
		return true
	case <-ctx.Done():
		ht.waiting.Store(false)
		close(ht.gone)
	case <-hd.done:
	}
	return false
}

// held waits until the request carrying the word waits at the gate, and
// returns it: the turn is in flight, and stays so until let. It fails t if
// none comes (the hold does not hold, or the request was never made).
func (hd *hold) held(t *testing.T) *heldTurn {
	t.Helper()
	ht := waitfor.Recv(t, hd.parked, "a request carrying "+string(hd.word)+" held at the gate")
	if ht == nil {
		t.Fatal("no request held")
	}
	return ht
}

// let lets the held request go on to its end. It fails t if the request
// no longer waits at the gate: muse gave it up (the turn was cancelled)
// before the test let it go.
func (ht *heldTurn) let(t *testing.T) {
	t.Helper()
	if !ht.waiting.Load() {
		t.Fatalf("the request held at %s no longer waited at the gate when let go: muse gave it up first, or the gate did not hold it", ht.path)
	}
	close(ht.release)
}

// cancelled waits until muse gave up the held request (a cancel reached
// the service while it was held), and fails t if it does not.
func (ht *heldTurn) cancelled(t *testing.T) {
	t.Helper()
	waitfor.Recv(t, ht.gone, "muse to give up the request held at "+ht.path)
}

// heldWriter holds a streamed reply before its end: the write of its
// message_delta or error event waits at the gate.
type heldWriter struct {
	http.ResponseWriter
	ctx  context.Context
	hold *hold
	past bool // the gate is behind
}

func (w *heldWriter) Write(b []byte) (int, error) {
	if !w.past && (bytes.HasPrefix(b, []byte("event: message_delta\n")) || bytes.HasPrefix(b, []byte("event: error\n"))) {
		w.past = true
		if !w.hold.wait(w.ctx, "/v1/messages") {
			return 0, context.Canceled
		}
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController flush the writer held.
func (w *heldWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// shortReplies caps replies at a few words (the demo cuts them at
// max_tokens words), so that a held reply fits on the screen whole: one
// that streams at once past the screen's height shows only its end.
func shortReplies(o *Options) { o.Params.MaxTokens = 8 }
