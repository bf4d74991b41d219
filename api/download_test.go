package api

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// newDownloadClient returns a client with credentials, whose base URL is a port
// nothing listens on: downloads must not depend on it.
func newDownloadClient(opts ...Option) *Client {
	opts = append([]Option{WithAccessToken("tok-SECRET"), WithAPIKey("key-SECRET")}, opts...)
	return New("http://127.0.0.1:1", opts...)
}

// imageServer serves body at /img.png, failing the test if a request carries
// credentials.
func imageServer(t *testing.T, body []byte) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" || r.Header.Get("x-api-key") != "" {
			t.Errorf("credentials sent to the image host: %v", r.Header)
		}
		if !strings.HasPrefix(r.Header.Get("User-Agent"), "muse/") {
			t.Errorf("User-Agent = %q", r.Header.Get("User-Agent"))
		}
		if r.URL.Path != "/img.png" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "image/png")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestDownloadWithProgress(t *testing.T) {
	body := bytes.Repeat([]byte("0123456789abcdef"), 20000) // 320 000 bytes
	srv := imageServer(t, body)
	c := newDownloadClient()
	var calls [][2]int64
	got, err := c.Download(context.Background(), srv.URL+"/img.png?sig=abc", 0, func(done, total int64) {
		calls = append(calls, [2]int64{done, total})
	})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, body) {
		t.Fatalf("got %d bytes, want %d", len(got), len(body))
	}
	if len(calls) == 0 {
		t.Fatal("progress never called")
	}
	last := calls[len(calls)-1]
	if last != [2]int64{int64(len(body)), int64(len(body))} {
		t.Errorf("last progress = %v, want [%d %d]", last, len(body), len(body))
	}
	for i := 1; i < len(calls); i++ {
		if calls[i][0] < calls[i-1][0] {
			t.Errorf("progress went backwards: %v", calls)
		}
	}
}

func TestDownload404(t *testing.T) {
	srv := imageServer(t, []byte("x"))
	_, err := newDownloadClient().Download(context.Background(), srv.URL+"/missing.png?X-Sig=topsecret", 0, nil)
	if err == nil || !strings.Contains(err.Error(), "404 Not Found") {
		t.Fatalf("err = %v, want 404 Not Found", err)
	}
	if strings.Contains(err.Error(), "topsecret") {
		t.Errorf("the signature leaked into the error: %v", err)
	}
}

func TestDownloadOversize(t *testing.T) {
	srv := imageServer(t, bytes.Repeat([]byte("x"), 5000))
	_, err := newDownloadClient().Download(context.Background(), srv.URL+"/img.png", 4096, nil)
	if err == nil || !strings.Contains(err.Error(), "image larger than 4096 bytes") {
		t.Fatalf("err = %v", err)
	}
	if tooLarge(DefaultMaxDownload).Error() != "image larger than 64 MiB" {
		t.Errorf("default limit message = %q", tooLarge(DefaultMaxDownload))
	}
}

func TestDownloadOversizeWithoutLength(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for range 10 {
			w.Write(bytes.Repeat([]byte("y"), 1000))
			w.(http.Flusher).Flush() // chunked: no Content-Length
		}
	}))
	defer srv.Close()
	_, err := newDownloadClient().Download(context.Background(), srv.URL, 4096, nil)
	if err == nil || !strings.Contains(err.Error(), "image larger than") {
		t.Fatalf("err = %v", err)
	}
}

func TestDownloadRefusesOtherSchemes(t *testing.T) {
	c := newDownloadClient(WithHTTPClient(&http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		t.Errorf("a request was made for %s", r.URL)
		return nil, errors.New("no")
	})}))
	for _, u := range []string{"javascript:alert(1)", "file:///etc/passwd", "data:image/png;base64,AAAA", "ftp://127.0.0.1/x.png", "/relative.png", "http:///nohost"} {
		_, err := c.Download(context.Background(), u, 0, nil)
		if err == nil {
			t.Errorf("%s: no error", u)
			continue
		}
		if scheme, _, ok := strings.Cut(u, ":"); ok && !strings.HasPrefix(u, "http") && !strings.Contains(err.Error(), scheme+":") {
			t.Errorf("%s: error %q does not name the scheme", u, err)
		}
	}
}

// TestDownloadURLShownRawAndShort checks that a refused URL is named as it
// was given, escapes included (the front end sanitizes), on one line and cut
// short.
func TestDownloadURLShownRawAndShort(t *testing.T) {
	u := "javascript:\x1b]52;c;AAAA\x07\nb" + strings.Repeat("a", 500)
	_, err := newDownloadClient().Download(context.Background(), u, 0, nil)
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if !strings.Contains(msg, "javascript:\x1b]52;c;AAAA\x07 baaa") {
		t.Errorf("URL not shown as given: %q", msg)
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("line break in %q", msg)
	}
	if len([]rune(msg)) > 2*maxShownURL+80 {
		t.Errorf("message of %d runes: %q", len([]rune(msg)), msg)
	}
}

func TestDownloadFollowsRedirectToAnotherHostWithoutCredentials(t *testing.T) {
	body := []byte("\x89PNG fake")
	target := imageServer(t, body)
	var hops atomic.Int32
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" || r.Header.Get("x-api-key") != "" {
			t.Errorf("credentials sent: %v", r.Header)
		}
		hops.Add(1)
		http.Redirect(w, r, target.URL+"/img.png", http.StatusFound)
	}))
	defer redirector.Close()
	got, err := newDownloadClient().Download(context.Background(), redirector.URL+"/a", 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, body) || hops.Load() != 1 {
		t.Errorf("got %q after %d hops", got, hops.Load())
	}
}

func TestDownloadRedirectLoopStops(t *testing.T) {
	var hops atomic.Int32
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hops.Add(1)
		http.Redirect(w, r, srv.URL+"/again", http.StatusFound)
	}))
	defer srv.Close()
	_, err := newDownloadClient().Download(context.Background(), srv.URL, 0, nil)
	if err == nil || !strings.Contains(err.Error(), "redirected more than 5 times") {
		t.Fatalf("err = %v", err)
	}
	if n := hops.Load(); n != 6 {
		t.Errorf("%d requests, want 6", n)
	}
}

func TestDownloadCancelled(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100000")
		w.Write(make([]byte, 1000))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	result := make(chan error, 1)
	go func() {
		_, err := newDownloadClient().Download(ctx, srv.URL, 0, func(done, total int64) {
			if done > 0 {
				cancel()
			}
		})
		result <- err
	}()
	// The server never sends the rest: only the cancel can end the
	// download. await's watchdog turns a download that ignores it into a
	// failure that says so, instead of go test's timeout; it times nothing.
	if err := await(t, result, "the end of the download after its context was cancelled"); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestDownloadIdleTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100000")
		w.Write(make([]byte, 10))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	_, err := newDownloadClient(WithIdleTimeout(50*time.Millisecond)).Download(context.Background(), srv.URL, 0, nil)
	if !errors.Is(err, ErrIdleTimeout) {
		t.Fatalf("err = %v, want ErrIdleTimeout", err)
	}
}
