package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"muse/api"
	"muse/session/dirs"
	"muse/ui/sanitize"
)

// debugLogName is the debug log's file name, in muse's state folder.
const debugLogName = "muse.log"

// debugLogPath returns where --debug writes: muse/muse.log under the state
// directory ($XDG_STATE_HOME, else the platform's place).
func debugLogPath(env Env) (string, error) {
	base, err := env.baseDir(dirs.StateBase)
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "muse", debugLogName), nil
}

// debugLog is the log --debug writes: one line for each request (method,
// host, path, status, request id, time taken, attempt) and one for each
// event stream when it ends (events by type, bytes, time taken). It never
// holds a header's value other than the request id and the retry hints,
// a query string, a request or response body, or anything typed.
type debugLog struct {
	file *os.File
	log  *slog.Logger
	now  func() time.Time

	mu   sync.Mutex
	seq  int
	last map[string]lastAttempt // by method, host and path
}

// lastAttempt is how the latest request to an endpoint ended, to number
// the retries that follow a failure.
type lastAttempt struct {
	attempt int
	failed  bool // with a status or error the client retries
}

// openDebugLog opens the debug log when --debug or MUSE_DEBUG asks for it,
// and writes a first line about this run; nil when it is off. When the log
// cannot be opened, one line says so on stderr (unless --quiet) and muse
// goes on without it.
func (a *app) openDebugLog(print bool) *debugLog {
	if !a.debugOn() {
		return nil
	}
	path, err := debugLogPath(a.env)
	if err == nil {
		var dl *debugLog
		if dl, err = newDebugLog(path); err == nil {
			mode := "chat"
			if print {
				mode = "print"
			}
			dl.log.Info("start", "version", versionLine(), "go", runtime.Version(), "os", runtime.GOOS+"/"+runtime.GOARCH, "pid", os.Getpid(), "mode", mode)
			return dl
		}
	}
	if !a.f.quiet {
		fmt.Fprintf(a.env.Stderr, "muse: --debug: no log: %s\n", sanitize.Line(err.Error()))
	}
	return nil
}

// newDebugLog opens the log at path for appending: the file 0600 in a
// folder 0700, never through a symbolic link.
func newDebugLog(path string) (*debugLog, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, err
	}
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file: remove it", path)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(0o600); err != nil && runtime.GOOS != "windows" {
		f.Close()
		return nil, err
	}
	return newDebugLogTo(f, time.Now), nil
}

// newDebugLogTo returns a log that writes to f, timed by now.
func newDebugLogTo(f *os.File, now func() time.Time) *debugLog {
	var w io.Writer = io.Discard
	if f != nil {
		w = f
	}
	return &debugLog{
		file: f, now: now, last: map[string]lastAttempt{},
		log: slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
}

// Close closes the log's file.
func (d *debugLog) Close() error {
	if d.file == nil {
		return nil
	}
	return d.file.Close()
}

// httpClient returns an HTTP client that logs each request through the
// transport next (a clone of the default one when nil). Like the client
// api.New builds, it follows a redirect only to the same host, never from
// https to http (api.CheckRedirect), so credentials go nowhere else.
func (d *debugLog) httpClient() *http.Client {
	var next http.RoundTripper = http.DefaultTransport
	if t, ok := http.DefaultTransport.(*http.Transport); ok {
		next = t.Clone()
	}
	return &http.Client{Transport: &logTransport{next: next, log: d}, CheckRedirect: api.CheckRedirect}
}

// logTransport logs the requests it passes to next.
type logTransport struct {
	next http.RoundTripper
	log  *debugLog
}

// RoundTrip sends req through the wrapped transport and logs it.
func (t *logTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	d := t.log
	key := req.Method + " " + req.URL.Host + req.URL.Path
	d.mu.Lock()
	d.seq++
	n := d.seq
	attempt := 1
	if prev, ok := d.last[key]; ok && prev.failed {
		attempt = prev.attempt + 1
	}
	d.mu.Unlock()

	start := d.now()
	resp, err := t.next.RoundTrip(req)
	took := d.now().Sub(start)
	attrs := []any{"n", n, "method", req.Method, "host", req.URL.Host, "path", req.URL.Path, "attempt", attempt, "ms", took.Milliseconds()}
	if req.ContentLength > 0 {
		attrs = append(attrs, "request_bytes", req.ContentLength)
	}
	failed := err != nil
	if err != nil {
		attrs = append(attrs, "error", err.Error())
		d.log.Warn("request", attrs...)
	} else {
		failed = retryable(resp.StatusCode)
		attrs = append(attrs, "status", resp.StatusCode)
		if id := resp.Header.Get("request-id"); id != "" {
			attrs = append(attrs, "request_id", id)
		}
		for _, h := range []string{"retry-after-ms", "retry-after", "x-should-retry"} {
			if v := resp.Header.Get(h); v != "" {
				attrs = append(attrs, strings.ReplaceAll(h, "-", "_"), v)
			}
		}
		level := slog.LevelInfo
		if resp.StatusCode >= 400 {
			level = slog.LevelWarn
		}
		d.log.Log(req.Context(), level, "request", attrs...)
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			resp.Body = &streamCounter{body: resp.Body, log: d, n: n, start: start, counts: map[string]int{}}
		}
	}
	d.mu.Lock()
	d.last[key] = lastAttempt{attempt: attempt, failed: failed}
	d.mu.Unlock()
	return resp, err
}

// retryable reports whether the client tries a request again after status.
func retryable(status int) bool {
	return status == http.StatusRequestTimeout || status == http.StatusConflict ||
		status == http.StatusTooManyRequests || status >= 500
}

// knownEvents are the event types counted by name; others count as
// "other", so that nothing the server invents reaches the log.
var knownEvents = []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop",
	"message_delta", "message_stop", "ping", "error"}

// streamCounter passes an event stream through, counting its events by
// type from the "event:" lines, and logs the counts when the stream ends
// or is closed.
type streamCounter struct {
	body  io.ReadCloser
	log   *debugLog
	n     int
	start time.Time

	mu     sync.Mutex // guards what follows: Close may come from another goroutine
	line   []byte     // the start of the current line, up to maxEventLine bytes
	skip   bool       // the current line is longer than that and not counted
	bytes  int64
	counts map[string]int
	total  int
	once   sync.Once
}

// maxEventLine bounds the part of a line kept to read an event's type.
const maxEventLine = 64

// Read reads from the stream and counts the events in what it read.
func (s *streamCounter) Read(p []byte) (int, error) {
	n, err := s.body.Read(p)
	s.mu.Lock()
	s.bytes += int64(n)
	for _, c := range p[:n] {
		if c == '\n' || c == '\r' {
			s.endLine()
			continue
		}
		if !s.skip {
			if len(s.line) < maxEventLine {
				s.line = append(s.line, c)
			} else {
				s.skip = true
			}
		}
	}
	if err != nil {
		s.endLine()
	}
	s.mu.Unlock()
	if err != nil {
		s.report(err)
	}
	return n, err
}

// endLine counts the line just read when it names an event.
func (s *streamCounter) endLine() {
	line := string(s.line)
	s.line, s.skip = s.line[:0], false
	name, ok := strings.CutPrefix(line, "event:")
	if !ok {
		return
	}
	name = strings.TrimSpace(name)
	s.total++
	for _, k := range knownEvents {
		if name == k {
			s.counts[k]++
			return
		}
	}
	s.counts["other"]++
}

// Close closes the stream and logs its counts, once.
func (s *streamCounter) Close() error {
	err := s.body.Close()
	s.report(nil)
	return err
}

// report logs the stream's counts, once: how it ended (end, closed early,
// or the read error), its events by type, bytes and time.
func (s *streamCounter) report(readErr error) {
	s.once.Do(func() {
		how := "closed"
		s.mu.Lock()
		stopped := s.counts["message_stop"] > 0
		s.mu.Unlock()
		switch {
		case readErr == io.EOF, readErr == nil && stopped:
			how = "end" // closed once the message stopped: the stream's end
		case readErr != nil:
			how = readErr.Error()
		}
		s.mu.Lock()
		attrs := []any{"n", s.n, "ended", how, "events", s.total}
		for _, k := range append(knownEvents[:len(knownEvents):len(knownEvents)], "other") {
			if c := s.counts[k]; c > 0 {
				attrs = append(attrs, k, c)
			}
		}
		attrs = append(attrs, "bytes", s.bytes, "ms", s.log.now().Sub(s.start).Milliseconds())
		s.mu.Unlock()
		s.log.log.Info("stream", attrs...)
	})
}
