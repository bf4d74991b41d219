package api

import (
	"io"
	"time"
)

// withSleep replaces the retry wait, for tests.
func withSleep(f func(d time.Duration)) Option { return func(c *Client) { c.testSleep = f } }

// NewStreamFromReader parses server-sent events from r, as a response body
// would arrive, with the size limit DefaultMaxReplySize: recorded streams
// fed to the parser.
func NewStreamFromReader(r io.Reader) *Stream {
	rc, ok := r.(io.ReadCloser)
	if !ok {
		rc = io.NopCloser(r)
	}
	limit := DefaultMaxReplySize
	return &Stream{body: rc, dec: newSSEDecoder(r, limit+eventSlack), acc: Accumulator{limit: limit}}
}

// hangLimit is how long a test waits for an event that comes at once when
// the code works: it turns a hang into a failure that says what did not
// happen, instead of go test's timeout. It is a watchdog, so generous; no
// test measures it.
const hangLimit = time.Minute

// await waits for ch to be closed or to deliver, failing the test with
// what did not happen if it has not within hangLimit.
func await[T any](t interface {
	Helper()
	Fatalf(string, ...any)
}, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(hangLimit):
		t.Fatalf("%s did not happen within %v", what, hangLimit)
		var zero T
		return zero
	}
}
