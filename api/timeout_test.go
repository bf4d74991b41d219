package api

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
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

// within runs f, failing the test if it does not return in a second.
func within(t *testing.T, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Second):
		t.Fatal("hangs on a stalled body")
		return nil
	}
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
		time.Sleep(60 * time.Millisecond) // a transport that does not watch the context
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
	s := newStream(&http.Response{Body: pr, Header: http.Header{}, Request: req}, cancel, 50*time.Millisecond, DefaultMaxReplySize)
	s.Close()
	time.Sleep(100 * time.Millisecond)
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
