package api

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// stallServer answers with status, content type and the start of a body,
// then sends nothing more until the client hangs up.
func stallServer(t *testing.T, status int, ctype, start string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("request-id", "req_stall")
		w.WriteHeader(status)
		io.WriteString(w, start)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv
}

// within runs f and returns its error: the idle timeout must end it, so a
// body that stalls the call for good fails the test (after hangLimit, a
// watchdog that times nothing) instead of hanging it.
func within(t *testing.T, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	return await(t, done, "the end of a call on a stalled body")
}

func TestStalledBodiesTimeOut(t *testing.T) {
	ctx := context.Background()
	opts := []Option{WithAccessToken("t"), WithIdleTimeout(100 * time.Millisecond), WithMaxRetries(0)}
	cases := map[string]struct {
		srv  *httptest.Server
		call func(c *Client) error
	}{
		"CreateMessage": {stallServer(t, 200, "application/json", `{"id":`), func(c *Client) error {
			_, err := c.CreateMessage(ctx, testRequest())
			return err
		}},
		"GenerateImage": {stallServer(t, 200, "application/json", `{"created":`), func(c *Client) error {
			_, err := c.GenerateImage(ctx, NewImageRequest("img", "fox", nil))
			return err
		}},
		"StreamMessage JSON": {stallServer(t, 200, "application/json", `{"id":`), func(c *Client) error {
			_, err := c.StreamMessage(ctx, testRequest())
			return err
		}},
		"error body": {stallServer(t, 500, "application/json", `{"type":"error",`), func(c *Client) error {
			_, err := c.StreamMessage(ctx, testRequest())
			var apiErr *APIError
			if !errors.As(err, &apiErr) || apiErr.Status != 500 || apiErr.RequestID != "req_stall" {
				t.Errorf("error body: %v is not the 500", err)
			}
			return err
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := New(tc.srv.URL, opts...)
			defer c.Close()
			err := within(t, func() error { return tc.call(c) })
			if !errors.Is(err, ErrIdleTimeout) || !strings.Contains(err.Error(), "100ms") {
				t.Errorf("err = %v, want ErrIdleTimeout after 100ms", err)
			}
		})
	}
}

// TestHeaderTimerRace checks that a response that arrives after the header
// timer fired is treated as a timeout: the timer has cancelled its request.
func TestHeaderTimerRace(t *testing.T) {
	slow := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		// A transport whose answer arrives only after the header timer
		// fired (and cancelled the request), and that answers anyway.
		<-r.Context().Done()
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(okMessage)), Request: r}, nil
	})}
	c := New("http://127.0.0.1:1", WithHTTPClient(slow), WithResponseTimeout(10*time.Millisecond), WithMaxRetries(0))
	if _, err := c.CreateMessage(context.Background(), testRequest()); !errors.Is(err, ErrHeaderTimeout) {
		t.Errorf("err = %v, want ErrHeaderTimeout", err)
	}
}

func TestStreamCloseStopsIdleTimer(t *testing.T) {
	causes := make(chan error, 4)
	cancel := func(cause error) { causes <- cause }
	pr, pw := io.Pipe()
	defer pw.Close()
	req := httptest.NewRequest("POST", "http://h/", nil)
	s := newStream(&http.Response{Body: pr, Header: http.Header{}, Request: req}, cancel, streamLimits{idle: time.Hour, stall: time.Hour}, DefaultMaxReplySize)
	s.Close()
	// Stop reports whether it stopped a timer still armed: after Close,
	// neither may be, so neither can fire later. Nothing waits to see.
	if s.idleR.timer.Stop() {
		t.Error("after Close, the idle timer is still armed")
	}
	if s.stall.Stop() {
		t.Error("after Close, the stall timer is still armed")
	}
	close(causes)
	for cause := range causes {
		if cause != nil {
			t.Errorf("after Close, the request was cancelled with %v", cause)
		}
	}
	if s.Next() {
		t.Error("Next true after Close")
	}

	// Next after Close is false even with events left to read.
	s = NewStreamFromReader(strings.NewReader(sse("message_start", evStart, "message_stop", evStop)))
	s.Close()
	if s.Next() {
		t.Errorf("Next true after Close: %s", s.Current().Type)
	}
}

// keepAliveServer answers a stream with message_start and some text, then
// keeps the connection open with comments, pings, unknown events and empty
// deltas until the client hangs up, never ending the reply. It sends them as fast as the client reads:
// the connection's backpressure paces it, not a clock.
func keepAliveServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, sse("message_start", evStart,
			"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"so far"}}`))
		for r.Context().Err() == nil {
			io.WriteString(w, ": keep-alive\n\n"+sse("ping", `{"type":"ping"}`, "future_event", `{"type":"future_event"}`,
				"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":""}}`))
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestKeepAlivesAreNotProgress checks that a stream that sends nothing but
// keep-alives (comments, pings, unknown events, empty deltas) fails at the
// stall timeout, though bytes keep coming, and keeps the text that came.
// The stall size is off: TestNothingForEverIsStalled counts it.
func TestKeepAlivesAreNotProgress(t *testing.T) {
	c := New(keepAliveServer(t).URL, WithAccessToken("t"), WithMaxRetries(0), WithStallTimeout(50*time.Millisecond), WithStallSize(0), WithRequestTimeout(0))
	defer c.Close()
	s, err := c.StreamMessage(context.Background(), testRequest())
	if err != nil {
		t.Fatal(err)
	}
	m, types, err := drain(s)
	if !errors.Is(err, ErrStalled) || !strings.Contains(err.Error(), "50ms") {
		t.Errorf("err = %v, want ErrStalled after 50ms", err)
	}
	if m.Text() != "so far" || len(types) < 4 || types[3] != EventPing {
		t.Errorf("kept %q after events %v", m.Text(), types)
	}
}

// TestRequestTimeoutCoversRetries checks that the request timeout bounds a
// call whose every attempt stalls before its headers, retries and waits
// included, and a stream that sends content forever.
func TestRequestTimeoutCoversRetries(t *testing.T) {
	var attempts atomic.Int32
	stall := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		attempts.Add(1)
		io.Copy(io.Discard, r.Body) // then the server notices the client hang up
		<-r.Context().Done()        // no headers, ever
	}))
	defer stall.Close()
	// Many retries, a header timeout each: without the request timeout the
	// call would go on through all of them.
	c := New(stall.URL, WithAccessToken("t"), WithMaxRetries(1000), WithHeaderTimeout(20*time.Millisecond),
		WithRequestTimeout(150*time.Millisecond), withSleep(func(time.Duration) {}))
	defer c.Close()
	_, err := c.StreamMessage(context.Background(), testRequest())
	if !errors.Is(err, ErrRequestTimeout) || !strings.Contains(err.Error(), "150ms") {
		t.Errorf("err = %v, want ErrRequestTimeout after 150ms", err)
	}
	if n := attempts.Load(); n < 2 || n >= 1000 {
		t.Errorf("%d attempts: the request timeout should cover retries", n)
	}
	// Content forever, stall and idle timeouts off: the request timeout ends it.
	drip := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, sse("message_start", evStart,
			"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`))
		for r.Context().Err() == nil { // as fast as the client reads
			io.WriteString(w, sse("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}}`))
			w.(http.Flusher).Flush()
		}
	}))
	defer drip.Close()
	c = New(drip.URL, WithAccessToken("t"), WithMaxRetries(0), WithStallTimeout(0), WithIdleTimeout(0), WithRequestTimeout(100*time.Millisecond))
	defer c.Close()
	s, err := c.StreamMessage(context.Background(), testRequest())
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := drain(s)
	if !errors.Is(err, ErrRequestTimeout) || !strings.Contains(err.Error(), "partial reply is kept") {
		t.Errorf("err = %v, want ErrRequestTimeout", err)
	}
	if !strings.HasPrefix(m.Text(), "a") {
		t.Errorf("text not kept: %q", m.Text())
	}
	// A whole reply stalled in its body.
	c = New(stallServer(t, 200, "application/json", `{"id":`).URL, WithAccessToken("t"), WithMaxRetries(0),
		WithIdleTimeout(0), WithRequestTimeout(50*time.Millisecond))
	defer c.Close()
	if _, err := c.CreateMessage(context.Background(), testRequest()); !errors.Is(err, ErrRequestTimeout) {
		t.Errorf("CreateMessage: err = %v, want ErrRequestTimeout", err)
	}
}
