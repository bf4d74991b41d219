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
