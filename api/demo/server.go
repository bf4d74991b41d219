// Package demo is an offline, canned, in-process stand-in for the message and
// image generation service described in the interface document. It is used by
// tests and by `muse --demo`.
//
// Replies are deterministic: the same prompt always gives the same markdown,
// and the same image prompt always gives the same PNG. Keywords in the last
// user prompt (demo:think, demo:tool, demo:error, demo:overloaded,
// demo:ratelimit, demo:html, demo:long, demo:hostile, demo:slow, and for
// images demo:url, demo:mixed, demo:two, demo:badb64, demo:huge, demo:404,
// demo:hostile, demo:slow, demo:many, and DashScope's own answers
// demo:dashscope, demo:task, demo:taskfail, demo:dserror) select scenarios
// that exercise the client.
//
// Attachments in the last user message are described truthfully before the
// reply, one sentence each: an image's format, size in pixels and average
// colour; a PDF's page count; a text file's line count and first line. The
// demo refuses the image and document blocks the service refuses, with the
// checks of api's validator.
package demo

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultToken is the Bearer token accepted when Options.Token is empty.
const DefaultToken = "demo-token"

// DefaultAPIKey is the x-api-key value accepted when Options.APIKey is empty.
const DefaultAPIKey = "demo-key"

// Options configure the demo service.
type Options struct {
	// Delay is the pause between streamed words; 0 in tests.
	Delay time.Duration
	// ImageDelay is the pause before answering an image request, to simulate
	// generation time (real services take 10–60 s). Default 0.
	ImageDelay time.Duration
	// PingEvery is how much of a stream's pauses between words pass
	// between two ping events, as the service pings a stream that is slow
	// to go on; 0 means every 5 s of pauses. One ping always follows the
	// first block's start.
	PingEvery time.Duration
	// Token is the accepted Bearer token; "" means DefaultToken.
	Token string
	// APIKey is the accepted x-api-key; "" means DefaultAPIKey.
	APIKey string

	// pause stands in for the timer a delay waits on, so tests see the
	// delays asked for and end them on events; nil means a real timer.
	pause func(ctx context.Context, d time.Duration) bool
}

// Paths served by the handler.
const (
	messagesPath = "/v1/messages"
	imagesPath   = "/v1/images/generations"
	imagePrefix  = "/demo/images/"
)

// handler is the demo service. Its zero value is not usable; see newHandler.
type handler struct {
	opts   Options
	token  string
	apiKey string

	requests atomic.Uint64 // request-id counter
	toolIDs  atomic.Uint64 // tool_use id counter

	rateMu   sync.Mutex
	rateSeen map[string]bool // prompts already refused by demo:ratelimit

	images *imageCache
	tasks  tasks // DashScope's asynchronous image tasks
}

// NewHandler returns the demo service as an http.Handler. Image URLs it
// returns are built from each request's Host, so it works under any listener.
func NewHandler(opts Options) http.Handler {
	h := &handler{
		opts:     opts,
		token:    opts.Token,
		apiKey:   opts.APIKey,
		rateSeen: make(map[string]bool),
		images:   newImageCache(64, 256<<20),
	}
	if h.token == "" {
		h.token = DefaultToken
	}
	if h.apiKey == "" {
		h.apiKey = DefaultAPIKey
	}
	return h
}

// ServeHTTP tags every response with a request-id and routes the request.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("request-id", fmt.Sprintf("req_demo_%d", h.requests.Add(1)))
	path := r.URL.Path
	switch {
	case path == messagesPath:
		if allowMethod(w, r, http.MethodPost) {
			h.messages(w, r)
		}
	case path == countTokensPath:
		if allowMethod(w, r, http.MethodPost) {
			h.countTokens(w, r)
		}
	case path == modelsPath:
		if allowMethod(w, r, http.MethodGet) {
			h.models(w, r)
		}
	case path == imagesPath, path == dashSyncPath:
		if allowMethod(w, r, http.MethodPost) {
			h.generateImages(w, r)
		}
	case strings.HasPrefix(path, tasksPrefix):
		if allowMethod(w, r, http.MethodGet) {
			h.serveTask(w, r)
		}
	case strings.HasPrefix(path, imagePrefix):
		if allowMethod(w, r, http.MethodGet, http.MethodHead) {
			h.serveImage(w, r)
		}
	default:
		writeError(w, http.StatusNotFound, errNotFound, fmt.Sprintf("not found: %s %s", r.Method, path))
	}
}

// allowMethod answers 405 unless r uses one of methods.
func allowMethod(w http.ResponseWriter, r *http.Request, methods ...string) bool {
	for _, m := range methods {
		if r.Method == m {
			return true
		}
	}
	allow := strings.Join(methods, ", ")
	w.Header().Set("Allow", allow)
	writeError(w, http.StatusMethodNotAllowed, errInvalidRequest,
		fmt.Sprintf("method %s not allowed on %s: use %s", r.Method, r.URL.Path, allow))
	return false
}

// Server is a demo service listening on a loopback port.
type Server struct {
	// URL is the base URL of the server, like http://127.0.0.1:41234.
	URL string

	srv       *http.Server
	done      chan struct{}
	closeOnce sync.Once
	closeErr  error
}

// Start runs the demo service on 127.0.0.1 at a free port until Close.
func Start(opts Options) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("demo: listen: %w", err)
	}
	s := &Server{
		URL: "http://" + ln.Addr().String(),
		srv: &http.Server{
			Handler:           NewHandler(opts),
			ReadHeaderTimeout: 10 * time.Second,
		},
		done: make(chan struct{}),
	}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln) // always ErrServerClosed after Close
	}()
	return s, nil
}

// Close stops the server and drops open connections, ending any stream in
// progress. It is safe to call more than once.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.closeErr = s.srv.Close()
		<-s.done
	})
	return s.closeErr
}
