package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"
)

// Client talks to the message and image endpoints. It is safe for concurrent use.
type Client struct {
	baseURL       string
	token         string
	apiKey        string
	version       string
	versionHeader string
	userAgent     string
	http          *http.Client
	maxRetries    int
	headerTimeout time.Duration
	idleTimeout   time.Duration
	testSleep     func(time.Duration)
}

// New returns a client for the service at baseURL (for example https://llm.example.com).
func New(baseURL string, opts ...Option) *Client {
	c := &Client{
		baseURL:       strings.TrimRight(baseURL, "/"),
		version:       DefaultVersion,
		versionHeader: DefaultVersionHeader,
		userAgent:     "muse/" + Version,
		http:          http.DefaultClient,
		maxRetries:    DefaultMaxRetries,
		headerTimeout: DefaultHeaderTimeout,
		idleTimeout:   DefaultIdleTimeout,
	}
	for _, o := range opts {
		o(c)
	}
	return c
}

// BaseURL returns the service address the client talks to.
func (c *Client) BaseURL() string { return c.baseURL }

// CreateMessage sends a message request with stream false and returns the whole reply.
func (c *Client) CreateMessage(ctx context.Context, req MessageRequest, opts ...RequestOption) (*Message, error) {
	req.Stream = false
	if err := req.Validate(); err != nil {
		return nil, err
	}
	resp, cancel, err := c.send(ctx, "/v1/messages", req, true, opts)
	if err != nil {
		return nil, err
	}
	defer cancel(nil)
	defer resp.Body.Close()
	var m Message
	if err := decodeJSON(resp, &m); err != nil {
		return nil, fmt.Errorf("read message: %w", err)
	}
	return &m, nil
}

// StreamMessage sends a message request with stream true and returns the
// stream of events. The caller must Close it. If the server answers with a
// plain JSON message instead of events, the stream replays it as events.
func (c *Client) StreamMessage(ctx context.Context, req MessageRequest, opts ...RequestOption) (*Stream, error) {
	req.Stream = true
	if err := req.Validate(); err != nil {
		return nil, err
	}
	resp, cancel, err := c.send(ctx, "/v1/messages", req, true, opts)
	if err != nil {
		return nil, err
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if ct == "application/json" {
		defer cancel(nil)
		defer resp.Body.Close()
		var m Message
		if err := decodeJSON(resp, &m); err != nil {
			return nil, fmt.Errorf("read message: %w", err)
		}
		return replayStream(&m, resp.Header.Get("request-id")), nil
	}
	return newStream(resp, cancel, c.idleTimeout), nil
}

// GenerateImage sends an image request and returns the generated images.
func (c *Client) GenerateImage(ctx context.Context, req ImageRequest, opts ...RequestOption) (*ImageResult, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	resp, cancel, err := c.send(ctx, "/v1/images/generations", req, false, opts)
	if err != nil {
		return nil, err
	}
	defer cancel(nil)
	defer resp.Body.Close()
	var r ImageResult
	if err := decodeJSON(resp, &r); err != nil {
		return nil, fmt.Errorf("read image result: %w", err)
	}
	return &r, nil
}

func decodeJSON(resp *http.Response, v any) error {
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseSize))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("the server sent something that is not the expected JSON (%v): %s", err, snippet(body))
	}
	return nil
}

// send posts body to path, retrying as the retry policy allows, and returns a
// 2xx response. The returned cancel ends the request's context; call it once
// the body is read.
func (c *Client) send(ctx context.Context, path string, body any, messages bool, opts []RequestOption) (*http.Response, context.CancelCauseFunc, error) {
	var cfg callConfig
	for _, o := range opts {
		o(&cfg)
	}
	payload, err := json.Marshal(body)
	if err != nil {
		return nil, nil, fmt.Errorf("encode request: %w", err)
	}
	for attempt := 0; ; attempt++ {
		resp, cancel, err := c.attempt(ctx, path, payload, messages)
		if err == nil {
			return resp, cancel, nil
		}
		if ctx.Err() != nil {
			return nil, nil, context.Cause(ctx)
		}
		ae := err.(*attemptError)
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

// attemptError carries what the retry policy needs to know about a failed attempt.
type attemptError struct {
	err        error
	header     http.Header // nil when no response arrived
	statusCode int
}

func (e *attemptError) Error() string { return e.err.Error() }
func (e *attemptError) Unwrap() error { return e.err }

func (c *Client) attempt(ctx context.Context, path string, payload []byte, messages bool) (*http.Response, context.CancelCauseFunc, error) {
	rctx, cancel := context.WithCancelCause(ctx)
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, c.baseURL+path, bytes.NewReader(payload))
	if err != nil {
		cancel(nil)
		return nil, nil, fmt.Errorf("build request: %w", err)
	}
	c.setHeaders(req, messages)
	var timer *time.Timer
	if c.headerTimeout > 0 {
		timer = time.AfterFunc(c.headerTimeout, func() { cancel(ErrHeaderTimeout) })
	}
	resp, err := c.http.Do(req)
	if timer != nil {
		timer.Stop()
	}
	if err != nil {
		cause := context.Cause(rctx)
		cancel(nil)
		if errors.Is(cause, ErrHeaderTimeout) {
			err = fmt.Errorf("%w after %s: the server at %s may be down or overloaded", ErrHeaderTimeout, c.headerTimeout, c.baseURL)
		} else if ctx.Err() == nil {
			err = fmt.Errorf("connect to %s: %w", c.baseURL, unwrapURLError(err))
		}
		return nil, nil, &attemptError{err: err}
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return resp, cancel, nil
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBodySize))
	resp.Body.Close()
	cancel(nil)
	apiErr := newAPIError(resp.StatusCode, body, resp.Header.Get("request-id"))
	return nil, nil, &attemptError{err: apiErr, header: resp.Header, statusCode: resp.StatusCode}
}

func unwrapURLError(err error) error {
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) {
		if inner := ue.Unwrap(); inner != nil {
			return inner
		}
	}
	return err
}

func (c *Client) setHeaders(req *http.Request, messages bool) {
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", c.userAgent)
	if messages {
		h.Set("Accept", "application/json, text/event-stream")
		if c.versionHeader != "" && c.version != "" {
			h.Set(c.versionHeader, c.version)
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
