package mcp

import (
	"strings"
	"testing"
)

// The everything server on each of its transports: its tools are offered
// and stay callable after the start (the legacy SSE transport's stream
// outlives the start's context); over streamable HTTP muse opens the GET
// stream for the server's own messages, and Close ends the session with a
// DELETE every time, before it returns.
func TestEverythingTransports(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			srv, log := everything(t, "ev", tr)
			m := New([]Server{srv}, Options{})
			got := evTools(t, m)
			for _, name := range []string{"ev__echo", "ev__get-sum", "ev__trigger-long-running-operation"} {
				if got[name] == nil {
					t.Fatalf("no tool %s among %d", name, len(got))
				}
			}
			for _, in := range []string{"one", "two"} {
				if out := got["ev__echo"](`{"message":"` + in + `"}`); !strings.Contains(out, "Echo: "+in) {
					t.Fatalf("echo %s = %q", in, out)
				}
			}
			if st := m.Status()[0]; st.State != Ready {
				t.Fatalf("state %s: %s", st.State, st.Err)
			}
			if tr == "streamableHttp" {
				log.wait(t, "Establishing new SSE stream for session")
			}
			m.Close()
			if tr == "streamableHttp" {
				log.stop() // what it wrote before it answered the DELETE is read
				if n := log.count("Received session termination request"); n != 1 {
					t.Errorf("%d DELETEs when Close returned, want 1", n)
				}
			}
		})
	}
}
