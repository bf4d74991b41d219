//go:build linux

package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"muse/api/demo"
)

// compactServer is the demo service that keeps the body of every request;
// a compaction request is answered as its mode says: "hold" waits until
// muse gives it up, "ratelimit" refuses it with a minute to wait before a
// retry, and "" leaves it to the demo.
type compactServer struct {
	srv     *httptest.Server
	mu      sync.Mutex
	bodies  [][]byte
	reached chan struct{} // closed once a compaction request arrived
	once    sync.Once
}

func newCompactServer(t *testing.T, mode string) *compactServer {
	s := &compactServer{reached: make(chan struct{})}
	dh := demo.NewHandler(demo.Options{})
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		s.mu.Lock()
		s.bodies = append(s.bodies, b)
		s.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(b))
		if bytes.Contains(b, []byte("Summarise our conversation")) {
			s.once.Do(func() { close(s.reached) })
			switch mode {
			case "hold":
				<-r.Context().Done()
				return
			case "ratelimit":
				w.Header().Set("retry-after", "60")
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusTooManyRequests)
				_, _ = w.Write([]byte(`{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`))
				return
			}
		}
		dh.ServeHTTP(w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// env points muse at the server.
func (s *compactServer) env() []string {
	return []string{"MUSE_BASE_URL=" + s.srv.URL, "MUSE_ACCESS_TOKEN=" + demo.DefaultToken,
		"MUSE_MODEL=demo-chat", "MUSE_IMAGE_MODEL=demo-image"}
}

// count is how many requests the server received.
func (s *compactServer) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bodies)
}

// lastPrompts is what the messages of the last message request said,
// each as "role: first words".
func (s *compactServer) lastPrompts(t *testing.T) []string {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(s.bodies[len(s.bodies)-1], &req); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range req.Messages {
		var text string
		if json.Unmarshal(m.Content, &text) != nil {
			var blocks []struct{ Text string }
			if err := json.Unmarshal(m.Content, &blocks); err != nil {
				t.Fatal(err)
			}
			for _, b := range blocks {
				text += b.Text
			}
		}
		if f := strings.Fields(text); len(f) > 0 {
			text = f[0]
		}
		out = append(out, m.Role+": "+text)
	}
	return out
}

// A /compact cancelled (esc while the summary is awaited, or during the
// countdown to a retry) or failed (demo:error) leaves the conversation as it was: the screen shows it
// again and says nothing was lost, the next prompt's request carries the
// whole history (as the server receives it), and the saved session holds
// nothing of the compaction.
func TestCompactUndoneKeepsHistory(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, compact, notice string
		mode                  string // the server's (see compactServer)
		wait                  string // what the screen shows when esc is typed
		after                 func(tm *term)
	}{
		{name: "cancelled", compact: "/compact", mode: "hold", wait: "Summarise our conversation", notice: "/compact cancelled · nothing was lost", after: func(tm *term) {}},
		{name: "cancelled during a retry's countdown", compact: "/compact", mode: "ratelimit", wait: "waiting to retry in", notice: "/compact cancelled · nothing was lost", after: func(tm *term) {}},
		{name: "failed", compact: "/compact demo:error", notice: "/compact failed", after: func(tm *term) {
			// The command is back in the input, one key from another try;
			// ctrl+c clears it.
			tm.waitUntil("the /compact back in the input", waitDeadline, func(s string) bool {
				return strings.Contains(inputLine(s), "/compact demo:error")
			})
			tm.typ("\x03")
			tm.waitUntil("the input cleared", waitDeadline, func(s string) bool { return !strings.Contains(inputLine(s), "/compact") })
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rs := newCompactServer(t, tc.mode)
			h := newHome(t, "")
			h.env = append(h.env, rs.env()...)
			tm := start(t, h, cols, rows)
			tm.waitFor("Ask anything")
			tm.typ("alpha\r")
			tm.waitUntil("the reply to alpha", waitDeadline, func(s string) bool {
				return strings.Contains(statusLine(s), "· stop ") && !busy(statusLine(s))
			})
			tm.typ(tc.compact + "\r")
			select {
			case <-rs.reached:
			case <-time.After(waitDeadline):
				t.Fatal("no compaction request reached the server")
			}
			if tc.wait != "" {
				tm.waitFor(tc.wait)
				tm.typ("\x1b")
			}
			tm.waitUntil("the compaction undone", waitDeadline, func(s string) bool {
				return strings.Contains(statusArea(s), tc.notice) && strings.Contains(s, "That should be enough to get started") &&
					!strings.Contains(s, "Summarise our conversation") && !busy(statusLine(s))
			})
			if st := statusArea(tm.screen()); !strings.Contains(st, "nothing was lost") {
				t.Errorf("the status says %q", st)
			}
			tc.after(tm)
			sent := rs.count()
			tm.typ("beta\r")
			tm.waitUntil("the reply to beta", waitDeadline, func(s string) bool {
				return rs.count() > sent && strings.Contains(statusLine(s), "· stop ") && !busy(statusLine(s))
			})
			got := strings.Join(rs.lastPrompts(t), " | ")
			if want := "user: alpha | assistant: In | user: beta"; !strings.HasPrefix(got, "user: alpha | assistant:") || !strings.HasSuffix(got, "user: beta") || strings.Count(got, "|") != 2 {
				t.Errorf("the request after the compaction sent %q, want %q", got, want)
			}
			tm.typ("/quit\r")
			if code := tm.waitExit(); code != 0 {
				t.Errorf("muse exited with status %d", code)
			}
			m := savedRE.FindStringSubmatch(tm.screen())
			if m == nil {
				t.Fatal("muse did not say which session it saved")
			}
			shown := h.run(t, "sessions", "show", m[1])
			if strings.Contains(shown, "Summarise") || !strings.Contains(shown, "alpha") || !strings.Contains(shown, "beta") {
				t.Errorf("the saved session:\n%s", shown)
			}
		})
	}
}
