package api

import (
	"context"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// shouldRetry applies the retry policy to a failed attempt: retry on a
// network error or a streaming header timeout before any response (the only
// such failures that reach it) and on 408, 409, 429 and 5xx, unless
// x-should-retry says otherwise, while retries are left. It returns the wait.
func (c *Client) shouldRetry(ae *attemptError, attempt int) (bool, time.Duration) {
	if attempt >= c.maxRetries {
		return false, 0
	}
	if ae.header == nil {
		return true, backoff(attempt)
	}
	switch ae.header.Get("x-should-retry") {
	case "true":
		return true, retryWait(ae.header, attempt, time.Now())
	case "false":
		return false, 0
	}
	s := ae.statusCode
	if s == http.StatusRequestTimeout || s == http.StatusConflict || s == http.StatusTooManyRequests || s >= 500 {
		return true, retryWait(ae.header, attempt, time.Now())
	}
	return false, 0
}

// retryWait honours retry-after-ms, then retry-after (seconds or an HTTP
// date), when the server sends a sane value; otherwise it backs off. Values
// are compared with the cap as floats, before any conversion to a Duration,
// so a huge one (1e20, inf) cannot overflow into a negative wait.
func retryWait(h http.Header, attempt int, now time.Time) time.Duration {
	if v := h.Get("retry-after-ms"); v != "" {
		if d, ok := saneWait(v, time.Millisecond); ok {
			return d
		}
	}
	if v := h.Get("retry-after"); v != "" {
		if d, ok := saneWait(v, time.Second); ok {
			return d
		} else if t, err := http.ParseTime(v); err == nil {
			d := max(t.Sub(now), 0)
			if d <= maxRetryAfterHonoured {
				return d
			}
		}
	}
	return backoff(attempt)
}

// saneWait parses a number of units and returns it as a Duration when it is
// finite, not negative, and at most maxRetryAfterHonoured.
func saneWait(v string, unit time.Duration) (time.Duration, bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		return 0, false
	}
	if f > float64(maxRetryAfterHonoured)/float64(unit) {
		return 0, false
	}
	return time.Duration(f * float64(unit)), true
}

// backoff is min(0.5 s·2^n, 8 s) less up to 25% jitter.
func backoff(attempt int) time.Duration {
	d := 8 * time.Second
	if attempt < 5 {
		d = min(500*time.Millisecond<<attempt, d)
	}
	return time.Duration(float64(d) * (1 - 0.25*rand.Float64()))
}

// sleep waits d or until ctx is done.
func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	if c.testSleep != nil {
		c.testSleep(d)
		return context.Cause(ctx)
	}
	if d <= 0 {
		return context.Cause(ctx)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return nil
	}
}
