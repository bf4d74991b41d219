package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// call describes one API request.
type call struct {
	method   string // "" is POST
	path     string
	body     any
	messages bool          // the message endpoint: version header and x-api-key
	wait     time.Duration // how long to wait for the response headers; 0 is forever
	stream   bool          // a streamed reply: a request that timed out may be retried
	image    bool          // an image request: to the image service, with its credential
	async    bool          // a DashScope asynchronous task: X-DashScope-Async: enable
}

// send posts the call's body, retrying as the retry policy allows, and
// returns a 2xx response. The returned cancel ends the request's context;
// call it once the body is read.
func (c *Client) send(ctx context.Context, cl call, opts []RequestOption) (*http.Response, context.CancelCauseFunc, error) {
	if c.configErr != nil {
		return nil, nil, c.configErr
	}
	cfg := newCallConfig(opts)
	stop := func() {}
	if c.requestTimeout > 0 {
		// One limit for the call as a whole: its attempts, the waits between
		// them, and the reading of the reply, which the context returned
		// with the response bounds too.
		cause := fmt.Errorf("%w: no whole reply within %s, the request timeout", ErrRequestTimeout, c.requestTimeout)
		ctx, stop = context.WithTimeoutCause(ctx, c.requestTimeout, cause)
	}
	resp, cancel, err := c.sendWithin(ctx, cl, cfg)
	if err != nil {
		stop()
		return nil, nil, err
	}
	return resp, func(cause error) { cancel(cause); stop() }, nil
}

// sendWithin is send within ctx, which bounds the whole call.
func (c *Client) sendWithin(ctx context.Context, cl call, cfg callConfig) (*http.Response, context.CancelCauseFunc, error) {
	payload := &body{}
	if cl.body != nil {
		var err error
		if payload, err = encodeBody(cl.body); err != nil {
			return nil, nil, fmt.Errorf("encode request: %w", err)
		}
	}
	for attempt := 0; ; attempt++ {
		resp, cancel, err := c.attempt(ctx, cl, payload)
		if err == nil {
			return resp, cancel, nil
		}
		if ctx.Err() != nil {
			return nil, nil, context.Cause(ctx)
		}
		var ae *attemptError
		if !errors.As(err, &ae) {
			return nil, nil, err // not retryable
		}
		retry, wait := c.shouldRetry(ae, attempt)
		if !retry {
			return nil, nil, ae.err
		}
		if cfg.onRetry != nil {
			cfg.onRetry(RetryInfo{Attempt: attempt + 1, Wait: wait, Err: ae.err})
		}
		if err := c.sleep(ctx, wait); err != nil {
			return nil, nil, err
		}
	}
}

// attemptError is a failed attempt that the retry policy may retry: a
// network error, a header timeout, or an error status.
type attemptError struct {
	err        error
	header     http.Header // nil when no response arrived
	statusCode int
}

func (e *attemptError) Error() string { return e.err.Error() }
func (e *attemptError) Unwrap() error { return e.err }

// attempt makes one request. Its error is an *attemptError when the retry
// policy should look at it, and a plain error when retrying cannot help.
func (c *Client) attempt(ctx context.Context, cl call, payload *body) (*http.Response, context.CancelCauseFunc, error) {
	rctx, cancel := context.WithCancelCause(ctx)
	method, reqBody := http.MethodPost, io.Reader(http.NoBody)
	switch {
	case cl.method != "":
		method, reqBody = cl.method, nil
	case payload.size > 0:
		reqBody = payload.reader() // streamed: see body
	}
	req, err := http.NewRequestWithContext(rctx, method, c.endpointURL(cl.path, cl.image).String(), reqBody)
	if err != nil {
		cancel(nil)
		return nil, nil, fmt.Errorf("build the request to %s: %w", c.shown, unwrapURLError(err))
	}
	if reqBody != nil && payload.size > 0 {
		req.ContentLength = payload.size
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(payload.reader()), nil }
	}
	c.setHeaders(req, cl)
	var timer *time.Timer
	if cl.wait > 0 {
		timer = time.AfterFunc(cl.wait, func() { cancel(ErrHeaderTimeout) })
	}
	resp, err := c.http.Do(req)
	// A timer that already fired has cancelled the request, even if Do won the race.
	timedOut := timer != nil && !timer.Stop()
	if err == nil && timedOut {
		resp.Body.Close()
	}
	if err != nil || timedOut {
		timedOut = timedOut || errors.Is(context.Cause(rctx), ErrHeaderTimeout)
		cancel(nil)
		return nil, nil, c.requestError(ctx, cl, err, timedOut)
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return resp, cancel, nil
	}
	defer cancel(nil)
	defer resp.Body.Close()
	body, rerr := c.readBody(rctx, resp, cancel, maxErrorBodySize)
	apiErr := newAPIError(resp.StatusCode, body, resp.Header.Get("request-id"))
	apiErr.Message = c.scrub(apiErr.Message)
	if resp.StatusCode == http.StatusNotFound {
		apiErr.URL = displayURL(c.endpointURL(cl.path, cl.image))
	}
	err = apiErr
	if errors.Is(rerr, ErrIdleTimeout) {
		err = fmt.Errorf("%w (then %w)", apiErr, rerr)
	}
	return nil, nil, &attemptError{err: err, header: resp.Header, statusCode: resp.StatusCode}
}

// requestError explains a request that got no response.
func (c *Client) requestError(ctx context.Context, cl call, err error, timedOut bool) error {
	switch {
	case timedOut && cl.stream:
		return &attemptError{err: fmt.Errorf("%w after %s: the server at %s may be down or overloaded", ErrHeaderTimeout, cl.wait, c.shown)}
	case timedOut:
		return fmt.Errorf("%w after %s: the server at %s did not answer; not retried, since it may still have generated (and billed) the reply", ErrHeaderTimeout, cl.wait, c.shown)
	case ctx.Err() != nil:
		return context.Cause(ctx)
	}
	inner := unwrapURLError(err)
	if isNetworkError(inner) {
		return &attemptError{err: fmt.Errorf("connect to %s: %w%s", c.shown, inner, connectHint(inner))}
	}
	return fmt.Errorf("request to %s failed: %w", c.shown, inner)
}

// connectHint says what to do about a connection that could not be made,
// when the error tells: nothing listening there, or no such host.
func connectHint(err error) string {
	var dns *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return " (nothing listens there: start the server, or fix the base URL; muse doctor checks it)"
	case errors.As(err, &dns) && dns.IsNotFound:
		return " (no such host: check the base URL, and this machine's network and DNS; muse doctor checks it)"
	}
	return ""
}

// isNetworkError reports whether err is a failure of the network, worth a
// retry, rather than a local mistake (a header Go refuses, a redirect the
// policy refuses, a TLS certificate) that would fail again the same way.
func isNetworkError(err error) bool {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	for _, errno := range []syscall.Errno{syscall.ECONNRESET, syscall.ECONNREFUSED, syscall.ECONNABORTED,
		syscall.EPIPE, syscall.ETIMEDOUT, syscall.EHOSTUNREACH, syscall.ENETUNREACH} {
		if errors.Is(err, errno) {
			return true
		}
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return false // a *url.Error is a net.Error whatever it wraps
	}
	var ne net.Error
	return errors.As(err, &ne)
}

// endpointURL returns the address of path under the base URL (the image
// service's, for an image request that has one), keeping its query. A
// base URL that already ends in /v1, as many providers' docs give it, is
// not doubled: https://host/v1 and https://host both post to
// https://host/v1/messages.
func (c *Client) endpointURL(path string, image bool) *url.URL {
	u := *c.base
	if image && c.imageBase != nil {
		u = *c.imageBase
	}
	path, query, _ := strings.Cut(path, "?")
	if query != "" {
		u.RawQuery = strings.TrimPrefix(u.RawQuery+"&"+query, "&")
	}
	base := strings.TrimRight(u.Path, "/")
	if strings.HasPrefix(path, "/v1/") {
		base = strings.TrimSuffix(base, "/v1")
	}
	u.Path = base + path
	u.RawPath = ""
	return &u
}

// readBody reads at most limit bytes of a body, failing it with
// ErrIdleTimeout when it sends nothing for the idle timeout.
func (c *Client) readBody(rctx context.Context, resp *http.Response, cancel context.CancelCauseFunc, limit int64) ([]byte, error) {
	r, stop := c.idleBody(resp, cancel)
	defer stop()
	body, err := io.ReadAll(io.LimitReader(r, limit))
	if err != nil {
		switch cause := context.Cause(rctx); {
		case errors.Is(cause, ErrIdleTimeout):
			return body, fmt.Errorf("%w for %s in the middle of the response body from %s", ErrIdleTimeout, c.idleTimeout, c.shown)
		case errors.Is(cause, ErrRequestTimeout):
			return body, cause
		}
	}
	return body, err
}

// unwrapURLError drops the *url.Error around a transport error: it repeats
// the address, which may carry credentials.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err
	}
	return err
}

func (c *Client) setHeaders(req *http.Request, cl call) {
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", c.userAgent)
	if cl.async {
		h.Set("X-DashScope-Async", "enable")
	}
	if cl.image && c.imageOwn {
		h.Set("Accept", "application/json")
		if c.imageToken != "" {
			h.Set("Authorization", "Bearer "+c.imageToken)
		}
		return
	}
	messages := cl.messages
	if messages {
		h.Set("Accept", "application/json, text/event-stream")
		switch {
		case c.version == "":
		case c.versionOne && c.versionHeader != "":
			h.Set(c.versionHeader, c.version)
		case !c.versionOne:
			h.Set(DefaultVersionHeader, c.version)
			h.Set(AnthropicVersionHeader, c.version)
		}
	} else {
		h.Set("Accept", "application/json")
	}
	switch {
	case c.token != "":
		h.Set("Authorization", "Bearer "+c.token)
	case c.apiKey != "" && messages:
		h.Set("x-api-key", c.apiKey)
	}
}
