package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// everyCall makes each kind of request and returns the errors.
func everyCall(c *Client) []error {
	ctx := context.Background()
	_, err1 := c.CreateMessage(ctx, testRequest())
	_, err2 := c.StreamMessage(ctx, testRequest())
	_, err3 := c.GenerateImage(ctx, NewImageRequest("img", "fox", nil))
	return []error{err1, err2, err3}
}

func TestBadBaseURL(t *testing.T) {
	for _, base := range []string{"http://bad host", "llm.example.com", "localhost:8080", "ftp://example.com", "", "http://user:SECRET@bad host/?key=SECRET", "https:///v1"} {
		t.Run(base, func(t *testing.T) {
			var waits []time.Duration
			c := New(base, WithAccessToken("t"), noSleep(&waits))
			for _, err := range everyCall(c) { // must not panic
				if err == nil || !strings.Contains(err.Error(), "is not an http(s) address") {
					t.Errorf("err = %v", err)
				}
				if !errors.Is(err, ErrInvalidRequest) {
					t.Errorf("not a usage error: %v", err)
				}
				if err != nil && strings.Contains(err.Error(), "SECRET") {
					t.Errorf("credential in error: %v", err)
				}
			}
			if len(waits) != 0 {
				t.Errorf("a bad base URL was retried: %v", waits)
			}
		})
	}
}

func TestBaseURLCredentialsRedacted(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // so the server notices when the client hangs up
		<-r.Context().Done()        // no headers: the request times out
	}))
	defer srv.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	withCreds := func(u string) string { return strings.Replace(u, "http://", "http://user:SECRET@", 1) + "/?key=SECRET" }
	var waits []time.Duration
	var errs []error
	// Nothing listening: a connection error after the retries.
	c := New(withCreds(closed.URL), WithAccessToken("t"), noSleep(&waits))
	errs = append(errs, everyCall(c)...)
	// Header and response timeouts.
	c = New(withCreds(srv.URL), WithAccessToken("t"), WithMaxRetries(0),
		WithHeaderTimeout(50*time.Millisecond), WithResponseTimeout(50*time.Millisecond))
	defer c.Close()
	errs = append(errs, everyCall(c)...)
	// A user name alone may be a token, too.
	c = New(strings.Replace(closed.URL, "http://", "http://SECRET@", 1), WithAccessToken("t"), noSleep(&waits))
	errs = append(errs, everyCall(c)...)
	// So may a user name before an empty password (https://TOKEN:@host).
	c = New(strings.Replace(closed.URL, "http://", "http://SECRET:@", 1), WithAccessToken("t"), noSleep(&waits))
	errs = append(errs, everyCall(c)...)
	for _, err := range errs {
		if err == nil {
			t.Fatal("no error")
		}
		if strings.Contains(err.Error(), "SECRET") {
			t.Errorf("credential in error: %v", err)
		}
		if !strings.Contains(err.Error(), "xxxxx@127.0.0.1") {
			t.Errorf("error does not name the (redacted) server: %v", err)
		}
	}
}

func TestControlCharacterInCredentials(t *testing.T) {
	rec := newRecorder(t, jsonReply(200, okMessage))
	cases := []struct {
		opt  Option
		want string
	}{
		{WithAccessToken("SECRET\nTOKEN"), "the access token contains a control character; check MUSE_ACCESS_TOKEN"},
		{WithAPIKey("SECRET\x7fKEY"), "the API key contains a control character; check MUSE_API_KEY"},
		{WithVersionHeader("bad name"), "not a valid HTTP header name"},
		{WithUserAgent("muse\r\nX: y"), "User-Agent contains a control character"},
	}
	for _, tc := range cases {
		var waits []time.Duration
		c := New(rec.URL, tc.opt, noSleep(&waits))
		for _, err := range everyCall(c) {
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrInvalidRequest) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), "SECRET") {
				t.Errorf("secret in error: %v", err)
			}
		}
		if len(waits) != 0 {
			t.Errorf("%s: retried %v", tc.want, waits)
		}
	}
	if rec.count() != 0 {
		t.Errorf("bad configuration reached the server %d times", rec.count())
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestOnlyNetworkErrorsRetried checks the retry policy on errors of the
// transport: a local failure is not retried, a network one is.
func TestOnlyNetworkErrorsRetried(t *testing.T) {
	cases := []struct {
		err   error
		retry bool
	}{
		{errors.New(`net/http: invalid header field value for "Authorization"`), false},
		{errors.New("x509: certificate signed by unknown authority"), false},
		{io.ErrUnexpectedEOF, true},
		{io.EOF, true},
		{fmt.Errorf("read: %w", syscall.ECONNRESET), true},
		{&timeoutErr{}, true},
	}
	for _, tc := range cases {
		var calls atomic.Int32
		h := &http.Client{Transport: roundTripFunc(func(*http.Request) (*http.Response, error) {
			calls.Add(1)
			return nil, tc.err
		})}
		var waits []time.Duration
		_, err := New("http://127.0.0.1:1", WithHTTPClient(h), noSleep(&waits)).CreateMessage(context.Background(), testRequest())
		if err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") {
			t.Errorf("%v: err = %v", tc.err, err)
		}
		if want := map[bool]int32{false: 1, true: 3}[tc.retry]; calls.Load() != want {
			t.Errorf("%v: %d calls, want %d", tc.err, calls.Load(), want)
		}
	}
}

type timeoutErr struct{}

func (*timeoutErr) Error() string   { return "i/o timeout" }
func (*timeoutErr) Timeout() bool   { return true }
func (*timeoutErr) Temporary() bool { return true }

func TestRedirectToAnotherHostRefused(t *testing.T) {
	var otherHits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		otherHits.Add(1)
		jsonReply(200, okMessage)(w, r)
	}))
	defer other.Close()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	})
	otherHost := strings.TrimPrefix(other.URL, "http://")
	for _, opt := range []Option{WithAPIKey("SECRETKEY"), WithAccessToken("SECRETTOK")} {
		var waits []time.Duration
		c := New(srv.URL, opt, noSleep(&waits))
		for _, err := range everyCall(c) {
			if err == nil || !strings.Contains(err.Error(), "redirected to another host ("+otherHost+")") ||
				!strings.Contains(err.Error(), "will not send credentials") {
				t.Errorf("err = %v", err)
			}
		}
		c.Close()
		if len(waits) != 0 {
			t.Errorf("refused redirect retried: %v", waits)
		}
	}
	if otherHits.Load() != 0 {
		t.Errorf("the other host got %d requests", otherHits.Load())
	}
	if srv.count() != 6 {
		t.Errorf("%d requests, want 6 (no retries)", srv.count())
	}

	// An injected client is used as it is: its redirect policy is the caller's.
	c := New(srv.URL, WithAPIKey("k"), WithHTTPClient(&http.Client{}))
	if _, err := c.CreateMessage(context.Background(), testRequest()); err != nil || otherHits.Load() != 1 {
		t.Errorf("injected client: err %v, %d requests to the other host", err, otherHits.Load())
	}
}

func TestRedirectSameHost(t *testing.T) {
	var hops atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/messages", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("x-api-key") != "k" {
			t.Errorf("key lost on redirect")
		}
		http.Redirect(w, r, "/v2/messages", http.StatusPermanentRedirect)
	})
	mux.HandleFunc("/v2/messages", jsonReply(200, okMessage))
	mux.HandleFunc("/loop/", func(w http.ResponseWriter, r *http.Request) {
		hops.Add(1)
		http.Redirect(w, r, r.URL.Path, http.StatusTemporaryRedirect)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := New(srv.URL, WithAPIKey("k"))
	defer c.Close()
	if m, err := c.CreateMessage(context.Background(), testRequest()); err != nil || m.Text() != "Hi!" {
		t.Errorf("same-host redirect: %v", err)
	}
	via := []*http.Request{httptest.NewRequest("POST", "https://h/a", nil)}
	if err := CheckRedirect(httptest.NewRequest("POST", "http://h/b", nil), via); err == nil || !strings.Contains(err.Error(), "plain http") {
		t.Errorf("https to http: %v", err)
	}
	loop := New(srv.URL+"/loop", WithAPIKey("k"), WithMaxRetries(0))
	defer loop.Close()
	_, err := loop.CreateMessage(context.Background(), testRequest())
	if err == nil || !strings.Contains(err.Error(), "more than 5") || hops.Load() != 6 {
		t.Errorf("redirect loop: %v after %d hops", err, hops.Load())
	}
}

// TestClientCloseReleasesGoroutines checks that no connection outlives a
// finished stream once the client is closed: api starts no goroutine of its
// own, so the transport's connection goroutines are all there is, and each
// lives exactly as long as its connection. Every connection the client
// dialled must be closed, by the client; the test waits on those closes.
func TestClientCloseReleasesGoroutines(t *testing.T) {
	stream := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, sse("message_start", evStart, "message_stop", evStop))
	}
	rec := newRecorder(t, stream, stream, stream, jsonReply(200, okMessage))
	c := New(rec.URL, WithAccessToken("t"))
	tr, ok := c.http.Transport.(*http.Transport)
	if !c.ownHTTP || !ok {
		t.Fatalf("the client has no transport of its own: %T", c.http.Transport)
	}
	var mu sync.Mutex
	var conns []*closeSignal
	dial := tr.DialContext
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		cs := &closeSignal{Conn: conn, closed: make(chan struct{})}
		mu.Lock()
		conns = append(conns, cs)
		mu.Unlock()
		return cs, nil
	}
	for range 3 {
		s, err := c.StreamMessage(context.Background(), testRequest())
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := drain(s); err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	if _, err := c.CreateMessage(context.Background(), testRequest()); err != nil {
		t.Fatal(err)
	}
	c.Close()
	mu.Lock()
	defer mu.Unlock()
	if len(conns) == 0 {
		t.Fatal("the client dialled no connection through the transport")
	}
	for i, cs := range conns {
		await(t, cs.closed, fmt.Sprintf("the close of connection %d of %d", i+1, len(conns)))
	}
}

// closeSignal is a connection that closes closed when it is closed.
type closeSignal struct {
	net.Conn
	once   sync.Once
	closed chan struct{}
}

func (c *closeSignal) Close() error {
	c.once.Do(func() { close(c.closed) })
	return c.Conn.Close()
}
