package api

import (
	"context"
	"io"
	"net/http"
	"sync"
	"time"
)

// idleReader fails a body that sends nothing for d by calling onIdle, which
// cancels the request with ErrIdleTimeout as its cause.
type idleReader struct {
	r       io.Reader
	d       time.Duration
	mu      sync.Mutex
	timer   *time.Timer
	stopped bool
}

func newIdleReader(r io.Reader, d time.Duration, onIdle func()) *idleReader {
	return &idleReader{r: r, d: d, timer: time.AfterFunc(d, onIdle)}
}

func (ir *idleReader) Read(p []byte) (int, error) {
	n, err := ir.r.Read(p)
	if err != nil {
		ir.stop()
	} else if n > 0 {
		ir.mu.Lock()
		if !ir.stopped {
			ir.timer.Reset(ir.d)
		}
		ir.mu.Unlock()
	}
	return n, err
}

// stop disarms the timer for good, once the body is read or closed.
func (ir *idleReader) stop() {
	ir.mu.Lock()
	ir.stopped = true
	ir.timer.Stop()
	ir.mu.Unlock()
}

// idleBody returns resp's body, failed through cancel with ErrIdleTimeout
// when it sends nothing for the idle timeout (never when that is 0), and
// the function that disarms it once the body is read.
func (c *Client) idleBody(resp *http.Response, cancel context.CancelCauseFunc) (io.Reader, func()) {
	if c.idleTimeout <= 0 {
		return resp.Body, func() {}
	}
	ir := newIdleReader(resp.Body, c.idleTimeout, func() { cancel(ErrIdleTimeout) })
	return ir, ir.stop
}
