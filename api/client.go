package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Client talks to the message and image endpoints. It is safe for concurrent
// use. Call Close when done with it to release its idle connections.
type Client struct {
	base            *url.URL // nil when the base URL is unusable; see configErr
	baseURL         string   // as given, less trailing slashes; never put in messages
	shown           string   // the base URL as shown in messages: no credentials, no query
	configErr       error    // a configuration mistake that fails every request
	token           string
	apiKey          string
	version         string
	versionHeader   string
	versionOne      bool     // WithVersionHeader chose the one header to send
	insecureHTTP    bool     // a credential may go over plain http to another host
	imageAPI        string   // see WithImageAPI
	imageOwn        bool     // images go to an address of their own (WithImageService)
	imageRaw        string   // that address as given
	imageToken      string   // and its credential; the chat's never goes there
	imageBase       *url.URL // imageRaw parsed, by New
	openAIImage     OpenAIImageOptions
	userAgent       string
	http            *http.Client
	ownHTTP         bool // http was built by New, so Close may release its connections
	maxRetries      int
	headerTimeout   time.Duration
	responseTimeout time.Duration
	idleTimeout     time.Duration
	stallTimeout    time.Duration
	stallSize       int
	requestTimeout  time.Duration
	taskTimeout     time.Duration
	testSleep       func(time.Duration)
}

// New returns a client for the service at baseURL (for example
// https://llm.example.com). The address, the credentials and the headers are
// checked here; a mistake makes every request fail at once with an error that
// names it, wrapping ErrInvalidRequest.
//
// Without WithHTTPClient, the client has a transport of its own and follows
// redirects only to the same host, so credentials never reach another one.
func New(baseURL string, opts ...Option) *Client {
	c := &Client{
		version:         DefaultVersion,
		versionHeader:   DefaultVersionHeader,
		userAgent:       "muse/" + Version,
		maxRetries:      DefaultMaxRetries,
		headerTimeout:   DefaultHeaderTimeout,
		responseTimeout: DefaultResponseTimeout,
		idleTimeout:     DefaultIdleTimeout,
		stallTimeout:    DefaultStallTimeout,
		stallSize:       DefaultStallSize,
		requestTimeout:  DefaultRequestTimeout,
		taskTimeout:     DefaultTaskTimeout,
	}
	for _, o := range opts {
		o(c)
	}
	if c.http == nil {
		c.http = newHTTPClient()
		c.ownHTTP = true
	}
	var err error
	c.base, c.shown, err = parseBaseURL(baseURL)
	c.baseURL = strings.TrimRight(baseURL, "/")
	c.configErr = err
	if c.configErr == nil {
		c.configErr = c.checkConfig()
	}
	if c.configErr == nil {
		c.configErr = c.checkImageConfig()
	}
	return c
}

// Check returns the configuration mistake that fails every request of the
// client, such as an unusable base URL or a credential over plain http to
// another host, or nil.
func (c *Client) Check() error { return c.configErr }

// BaseURL returns the service address the client talks to.
func (c *Client) BaseURL() string { return c.baseURL }

// Close releases the idle connections of the client's own transport. It is a
// no-op for a client given with WithHTTPClient. The client stays usable.
func (c *Client) Close() {
	if c.ownHTTP {
		c.http.CloseIdleConnections()
	}
}

// CreateMessage sends a message request with stream false and returns the
// whole reply, cut at the size limit (see MaxReplySize). It waits up to the
// response timeout (WithResponseTimeout) for the reply to be generated, and
// does not retry a request that timed out.
func (c *Client) CreateMessage(ctx context.Context, req MessageRequest, opts ...RequestOption) (*Message, error) {
	req.Stream = false
	if err := validate(&req, opts); err != nil {
		return nil, err
	}
	resp, cancel, err := c.send(ctx, call{path: "/v1/messages", body: req, messages: true, wait: c.responseTimeout}, opts)
	if err != nil {
		return nil, err
	}
	return c.readMessage(resp, cancel, opts)
}

// readMessage reads a message sent as plain JSON, cut at the size limit, and
// closes the response. Its body is read up to what a reply of the size
// limit can take (see messageBodySize); a larger one is refused, unread.
func (c *Client) readMessage(resp *http.Response, cancel context.CancelCauseFunc, opts []RequestOption) (*Message, error) {
	defer cancel(nil)
	defer resp.Body.Close()
	limit := newCallConfig(opts).maxReply
	var w wholeReply
	if err := c.decodeJSON(resp, cancel, &w, messageBodySize(limit)); err != nil {
		if errors.Is(err, errTooLarge) {
			return nil, fmt.Errorf("read message: the reply is over %s of JSON, more than a reply of the size limit (%s of content) takes: it was not read; check the server, or ask for a shorter answer",
				SizeText(messageBodySize(limit)), SizeText(int64(limit)))
		}
		return nil, fmt.Errorf("read message: %w", err)
	}
	m, _ := CutMessage(w.m, limit)
	return &m, nil
}

// messageBodySize is the most JSON a whole reply of limit bytes of content
// may take: each byte of text written as a \u escape, and room for the rest.
func messageBodySize(limit int) int64 { return 6*int64(limit) + 1<<20 }

// validate checks req, unless opts say its caller did (Checked).
func validate(req *MessageRequest, opts []RequestOption) error {
	if newCallConfig(opts).checked {
		return nil
	}
	return req.Validate()
}

// StreamMessage sends a message request with stream true and returns the
// stream of events. The caller must Close it. If the server answers with a
// plain JSON message instead of events, the stream replays it as events.
// The reply is cut at the size limit (see MaxReplySize).
// It waits up to the header timeout (WithHeaderTimeout) for the response, and
// retries a request that timed out.
func (c *Client) StreamMessage(ctx context.Context, req MessageRequest, opts ...RequestOption) (*Stream, error) {
	req.Stream = true
	if err := validate(&req, opts); err != nil {
		return nil, err
	}
	resp, cancel, err := c.send(ctx, call{path: "/v1/messages", body: req, messages: true, wait: c.headerTimeout, stream: true}, opts)
	if err != nil {
		return nil, err
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if ct == "application/json" {
		m, err := c.readMessage(resp, cancel, opts)
		if err != nil {
			return nil, err
		}
		return replayStream(m, resp.Header.Get("request-id")), nil
	}
	s := newStream(resp, cancel, streamLimits{idle: c.idleTimeout, stall: c.stallTimeout, stallSize: c.stallSize}, newCallConfig(opts).maxReply)
	s.scrub = c.scrub
	return s, nil
}

// GenerateImage sends an image request and returns the generated images. It
// waits up to the response timeout (WithResponseTimeout) for the answer, and
// does not retry a request that timed out. Besides the interface's data[],
// it reads DashScope's answers (see dashscope.go): an asynchronous task is
// polled until it ends, for at most the task timeout (WithTaskTimeout),
// telling OnImageTask's function of its progress. At most MaxImages images
// are kept; Dropped says how many more the server sent.
func (c *Client) GenerateImage(ctx context.Context, req ImageRequest, opts ...RequestOption) (*ImageResult, error) {
	cfg := newCallConfig(opts)
	if !cfg.checked {
		if err := req.Validate(); err != nil {
			return nil, err
		}
	}
	resp, cancel, err := c.send(ctx, c.imageCall(req), opts)
	if err != nil {
		return nil, err
	}
	var body json.RawMessage
	err = c.decodeJSON(resp, cancel, &body, maxResponseSize)
	resp.Body.Close()
	cancel(nil)
	if err != nil {
		return nil, fmt.Errorf("read image result: %w", err)
	}
	w, err := decodeImageWire(body)
	if err != nil {
		return nil, fmt.Errorf("read image result: the server sent something that is not an image result (%v): %s", err, snippet(body))
	}
	r, task, status := w.result()
	if task != "" {
		if r, err = c.pollTask(ctx, task, status, cfg.onImageTask, opts); err != nil {
			return nil, err
		}
	}
	r.keepAtMost(MaxImages)
	return r, nil
}

// decodeJSON reads a 2xx body of at most limit bytes, failing it when it
// stalls for the idle timeout; a longer one is errTooLarge.
func (c *Client) decodeJSON(resp *http.Response, cancel context.CancelCauseFunc, v any, limit int64) error {
	body, err := c.readBody(resp.Request.Context(), resp, cancel, limit+1)
	if err != nil {
		return err
	}
	if int64(len(body)) > limit {
		return fmt.Errorf("%w: over %s", errTooLarge, SizeText(limit))
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("the server sent something that is not the expected JSON (%v): %s", err, snippet(body))
	}
	return nil
}
