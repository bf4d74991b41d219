package api

import (
	"net/http"
	"time"
)

// Version is the client version sent in the User-Agent header.
var Version = "0.1.0"

// Default timeouts, retries and limits.
const (
	// DefaultMaxRetries is how often a failed request is retried.
	DefaultMaxRetries = 2
	// DefaultHeaderTimeout is how long a streamed message request waits for
	// the response headers; a streaming server answers them at once.
	DefaultHeaderTimeout = 90 * time.Second
	// DefaultResponseTimeout is how long a request that is not streamed
	// (CreateMessage, GenerateImage) waits for the response headers: the
	// server sends them only once the whole reply is generated.
	DefaultResponseTimeout = 10 * time.Minute
	// DefaultIdleTimeout is how long a response body may send nothing.
	DefaultIdleTimeout = 90 * time.Second
	// DefaultStallTimeout is how long a stream may send no content: only
	// pings, comments and events muse does not know, which a server sends
	// to keep a connection open. A model may think, or a server tool run,
	// for minutes with nothing but pings.
	DefaultStallTimeout = 10 * time.Minute
	// DefaultStallSize is how many bytes a stream may send that add
	// nothing to the reply (pings, comments, empty deltas, events muse does
	// not know), and 16 more for each byte of content (see WithStallSize):
	// about 25,000 pings, hours of a server's keep-alives, read in a few
	// milliseconds. It bounds the work of a stream that sends them as fast
	// as it can, which the stall timeout would let run for its ten minutes.
	DefaultStallSize = 1 << 20
	// DefaultRequestTimeout bounds one call as a whole: every attempt, the
	// waits between them, and the reading of the reply. It is far above
	// what a long reply takes, and ends what nothing else does: a server
	// that stalls before its headers and on every retry, or that sends a
	// little forever.
	DefaultRequestTimeout = 30 * time.Minute
	// DefaultVersionHeader is the name of the interface's version header.
	// Unless WithVersionHeader names one, the version is sent under it and
	// under AnthropicVersionHeader both, so that the interface's services
	// and Anthropic's own API each find the one they require.
	DefaultVersionHeader = "provider-version"
	// AnthropicVersionHeader is the version header of Anthropic's own API.
	AnthropicVersionHeader = "anthropic-version"
	// DefaultMaxReplySize is the size limit of a reply, in bytes of its
	// content (see ContentSize): about a million words, far beyond what any
	// max_tokens produces.
	DefaultMaxReplySize   = 4 << 20
	maxErrorBodySize      = 1 << 20
	maxResponseSize       = 256 << 20
	maxRetryAfterHonoured = 60 * time.Second
)

// Option configures a Client.
type Option func(*Client)

// WithAccessToken sends "Authorization: Bearer <token>" on every request.
func WithAccessToken(token string) Option { return func(c *Client) { c.token = token } }

// WithAPIKey sends "x-api-key: <key>" on the message endpoint when no access token is set.
func WithAPIKey(key string) Option { return func(c *Client) { c.apiKey = key } }

// WithProviderVersion sets the version header's value (default 2023-06-01).
func WithProviderVersion(v string) Option { return func(c *Client) { c.version = v } }

// WithVersionHeader sends the version under this one header only, for a
// service that wants only one. Without it, the version goes under both
// provider-version and anthropic-version; "" sends no version header.
func WithVersionHeader(name string) Option {
	return func(c *Client) { c.versionHeader, c.versionOne = name, true }
}

// WithInsecureHTTP allows a credential to go over plain http:// to a host
// that is not a loopback address. Without it, such a client fails every
// request at once with an error that says how to allow it: a token sent in
// the clear can be read by anyone on the way.
func WithInsecureHTTP(allow bool) Option { return func(c *Client) { c.insecureHTTP = allow } }

// WithHTTPClient sets the HTTP client used for every request. The client is
// used as it is: its CheckRedirect is the caller's, so it decides whether the
// credential headers (x-api-key, Authorization) may follow a redirect to
// another host, and Client.Close leaves its connections alone. Without this
// option, New builds a client that refuses redirects to another host.
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.http = h } }

// WithMaxRetries sets how often a failed request is retried (default 2).
func WithMaxRetries(n int) Option { return func(c *Client) { c.maxRetries = max(n, 0) } }

// WithHeaderTimeout sets how long StreamMessage waits for the response
// headers (default 90 s; 0 disables). A request that times out is retried.
func WithHeaderTimeout(d time.Duration) Option { return func(c *Client) { c.headerTimeout = d } }

// WithResponseTimeout sets how long CreateMessage and GenerateImage wait for
// the response headers, which arrive only once the whole reply is generated
// (default 10 min; 0 disables). A request that times out is not retried: the
// server may have generated, and billed, the reply anyway.
func WithResponseTimeout(d time.Duration) Option { return func(c *Client) { c.responseTimeout = d } }

// WithIdleTimeout sets how long a response body (a stream, a JSON reply or an
// error body) may send nothing before it fails (default 90 s; 0 disables).
func WithIdleTimeout(d time.Duration) Option { return func(c *Client) { c.idleTimeout = d } }

// WithStallTimeout sets how long a stream may send no content before it
// fails with ErrStalled (default DefaultStallTimeout; 0 disables). Pings,
// comments and events muse does not know are not content: they keep a
// connection open, and say nothing of the reply.
func WithStallTimeout(d time.Duration) Option { return func(c *Client) { c.stallTimeout = d } }

// WithStallSize sets how many bytes a stream may send that add nothing to
// the reply before it fails with ErrStalled (default DefaultStallSize; 0
// disables): pings, comments, blank lines, events muse does not know, and
// events that add no content or block. Each byte of content (counted as
// the size limit counts it, see MaxReplySize) and each block lets it send
// 16 more, so keep-alives between parts of a long reply are fine, and a
// megabyte of them between two bytes of text is not.
func WithStallSize(n int) Option { return func(c *Client) { c.stallSize = n } }

// WithRequestTimeout sets how long one call may take as a whole, its
// retries, the waits between them and the reading of its reply included,
// before it fails with ErrRequestTimeout (default DefaultRequestTimeout; 0
// disables). What a stream brought by then is kept.
func WithRequestTimeout(d time.Duration) Option { return func(c *Client) { c.requestTimeout = d } }

// WithTaskTimeout sets how long an asynchronous image task is polled before
// muse gives up (DefaultTaskTimeout).
func WithTaskTimeout(d time.Duration) Option { return func(c *Client) { c.taskTimeout = d } }

// WithUserAgent overrides the User-Agent header (default muse/<version>).
func WithUserAgent(ua string) Option { return func(c *Client) { c.userAgent = ua } }

// RetryInfo describes a retry that is about to happen.
type RetryInfo struct {
	// Attempt is the number of the retry, from 1.
	Attempt int
	// Wait is how long the client waits before it.
	Wait time.Duration
	// Err is what failed.
	Err error
}

// RequestOption configures one call.
type RequestOption func(*callConfig)

type callConfig struct {
	onRetry     func(RetryInfo)
	onImageTask func(ImageTask)
	maxReply    int
	checked     bool
}

// newCallConfig applies opts.
func newCallConfig(opts []RequestOption) callConfig {
	cfg := callConfig{maxReply: DefaultMaxReplySize}
	for _, o := range opts {
		o(&cfg)
	}
	return cfg
}

// OnImageTask calls f with the progress of an asynchronous image task, at
// each poll, so a UI can show it. f runs on the calling goroutine.
func OnImageTask(f func(ImageTask)) RequestOption {
	return func(c *callConfig) { c.onImageTask = f }
}

// OnRetry calls f before each retry, so a UI can show "retrying in 3 s…".
// f runs on the calling goroutine.
func OnRetry(f func(RetryInfo)) RequestOption { return func(c *callConfig) { c.onRetry = f } }

// MaxReplySize sets the size limit of the reply to a message call, in
// bytes of its content (see ContentSize); DefaultMaxReplySize when n is 0 or
// less. A streamed reply that passes it is cut there and ends with the stop
// reason StopSizeLimit, its connection closed; a whole reply is cut the same
// way (see CutMessage).
func MaxReplySize(n int) RequestOption {
	return func(c *callConfig) {
		if n > 0 {
			c.maxReply = n
		}
	}
}

// Checked tells a call that its caller validated the request
// (MessageRequest.Validate, ImageRequest.Validate) and has not changed it
// since, so that the call
// does not check it again: the engine checks each request once, before it
// writes the prompt.
func Checked() RequestOption { return func(c *callConfig) { c.checked = true } }
