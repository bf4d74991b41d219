package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DefaultMaxDownload is the largest image Download accepts when its max is 0.
const DefaultMaxDownload = 64 << 20

// progressInterval is the least time between two progress calls while a
// download runs: at most about 20 a second.
const progressInterval = 50 * time.Millisecond

// maxShownURL bounds the length of a URL in an error message.
const maxShownURL = 120

// Download fetches a generated image from url and returns its bytes.
//
// Only http and https URLs are fetched. The client's credentials are never
// sent (an image URL is usually pre-signed, and may be on another host); the
// User-Agent is. Redirects are followed to any host, at most 5 times. The
// request waits up to the header timeout (WithHeaderTimeout) for the
// response, and fails when the body sends nothing for the idle timeout.
//
// At most max bytes are read (DefaultMaxDownload when max <= 0); a larger
// image is an error. progress, when not nil, is called with the bytes read so
// far and the size announced by the server (-1 when unknown), at most about
// 20 times a second and once more when the body is read. Error messages show
// the URL without its query, which may be a signature.
func (c *Client) Download(ctx context.Context, rawURL string, max int64, progress func(done, total int64)) ([]byte, error) {
	if max <= 0 {
		max = DefaultMaxDownload
	}
	u, shown, err := parseDownloadURL(rawURL)
	if err != nil {
		return nil, err
	}
	if hasControl(c.userAgent) {
		return nil, fmt.Errorf("download %s: the User-Agent contains a control character", shown)
	}
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	req, err := http.NewRequestWithContext(rctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("download %s: %w", shown, unwrapURLError(err))
	}
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set("Accept", "image/png, image/jpeg, image/webp, image/*;q=0.8")

	var timer *time.Timer
	if c.headerTimeout > 0 {
		timer = time.AfterFunc(c.headerTimeout, func() { cancel(ErrHeaderTimeout) })
	}
	resp, err := c.downloadClient().Do(req)
	timedOut := timer != nil && !timer.Stop()
	if err != nil || timedOut {
		if err == nil {
			resp.Body.Close()
		}
		switch {
		case ctx.Err() != nil:
			return nil, fmt.Errorf("download %s: %w", shown, context.Cause(ctx))
		case timedOut || errors.Is(context.Cause(rctx), ErrHeaderTimeout):
			return nil, fmt.Errorf("download %s: %w after %s", shown, ErrHeaderTimeout, c.headerTimeout)
		}
		return nil, fmt.Errorf("download %s: %w", shown, unwrapURLError(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("download %s: %s", shown, statusText(resp.StatusCode))
	}
	if resp.ContentLength > max {
		return nil, fmt.Errorf("download %s: %w", shown, tooLarge(max))
	}
	body, err := c.readDownload(rctx, resp, cancel, max, progress)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return nil, fmt.Errorf("download %s: %w", shown, context.Cause(ctx))
		case errors.Is(context.Cause(rctx), ErrIdleTimeout):
			return nil, fmt.Errorf("download %s: %w for %s in the middle of the image", shown, ErrIdleTimeout, c.idleTimeout)
		}
		return nil, fmt.Errorf("download %s: %w", shown, err)
	}
	return body, nil
}

// readDownload reads at most max bytes of the body, reporting progress and
// failing the body when it stalls for the idle timeout.
func (c *Client) readDownload(rctx context.Context, resp *http.Response, cancel context.CancelCauseFunc, max int64, progress func(done, total int64)) ([]byte, error) {
	r, stop := c.idleBody(resp, cancel)
	defer stop()
	total := resp.ContentLength
	if total < 0 {
		total = -1
	}
	var buf bytes.Buffer
	if total > 0 {
		buf.Grow(int(total))
	}
	report := func(done int64) {}
	if progress != nil {
		var last time.Time
		report = func(done int64) {
			if now := time.Now(); now.Sub(last) >= progressInterval {
				last = now
				progress(done, total)
			}
		}
	}
	chunk := make([]byte, 32<<10)
	for {
		n, err := r.Read(chunk)
		if n > 0 {
			if int64(buf.Len())+int64(n) > max {
				return nil, tooLarge(max)
			}
			buf.Write(chunk[:n])
			report(int64(buf.Len()))
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if rctx.Err() != nil {
				return nil, context.Cause(rctx)
			}
			return nil, err
		}
	}
	if progress != nil {
		progress(int64(buf.Len()), total)
	}
	return buf.Bytes(), nil
}

// downloadClient returns an HTTP client sharing the client's transport (and
// so its connections and proxy settings) but with no cookie jar and a
// redirect policy that follows other hosts: a download carries no credentials.
func (c *Client) downloadClient() *http.Client {
	return &http.Client{Transport: c.http.Transport, Timeout: c.http.Timeout, CheckRedirect: checkDownloadRedirect}
}

// checkDownloadRedirect follows at most maxRedirects redirects, to any host,
// over http or https only.
func checkDownloadRedirect(req *http.Request, via []*http.Request) error {
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return fmt.Errorf("the server redirected to a %s: address", req.URL.Scheme)
	}
	if len(via) > maxRedirects {
		return fmt.Errorf("the server redirected more than %d times", maxRedirects)
	}
	return nil
}

// parseDownloadURL checks that raw is an http(s) address and returns it with
// the form shown in messages: no credentials, no query, one line, short.
func parseDownloadURL(raw string) (*url.URL, string, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil {
		shown := shortURL(redactRawURL(raw))
		return nil, shown, fmt.Errorf("download %s: not a valid URL: %v", shown, unwrapURLError(err))
	}
	shown := shortURL(displayURL(u))
	switch {
	case u.Scheme == "":
		return nil, shown, fmt.Errorf("download %s: not an http or https URL", shown)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, shown, fmt.Errorf("download %s: %s: URLs are not allowed, only http and https", shown, shortURL(u.Scheme))
	case u.Host == "":
		return nil, shown, fmt.Errorf("download %s: the URL has no host", shown)
	}
	return u, shown, nil
}

// shortURL makes s one line (see oneLine) and cuts it to maxShownURL runes.
// Control characters are kept: the front end sanitizes messages.
func shortURL(s string) string {
	s = oneLine(s)
	if r := []rune(s); len(r) > maxShownURL {
		s = string(r[:maxShownURL-1]) + "…"
	}
	return s
}

// statusText formats an HTTP status as "404 Not Found".
func statusText(code int) string {
	if t := http.StatusText(code); t != "" {
		return fmt.Sprintf("%d %s", code, t)
	}
	return fmt.Sprintf("status %d", code)
}

// ErrTooLarge is matched (errors.Is) by the error of an image over its
// size limit, so a caller that set a smaller limit can say why.
var ErrTooLarge = errors.New("image too large")

// tooLargeError is an error over a size limit, which matches ErrTooLarge.
type tooLargeError string

func (e tooLargeError) Error() string        { return string(e) }
func (e tooLargeError) Is(target error) bool { return target == ErrTooLarge }

// tooLarge is the error of a download over max bytes.
func tooLarge(max int64) error {
	if max%(1<<20) == 0 {
		return tooLargeError(fmt.Sprintf("image larger than %d MiB", max>>20))
	}
	return tooLargeError(fmt.Sprintf("image larger than %d bytes", max))
}
