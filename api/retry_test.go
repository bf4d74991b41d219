package api

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestRetryAfterHuge checks that values too large for a Duration fall back
// to the backoff instead of overflowing into a negative wait.
func TestRetryAfterHuge(t *testing.T) {
	for _, name := range []string{"retry-after", "retry-after-ms"} {
		for _, v := range []string{"1e20", "inf", "+Inf", "NaN", "-1", "9223372037", "1e300", "1e400", "61"} {
			if name == "retry-after-ms" && v == "61" {
				v = "60001"
			}
			h := http.Header{}
			h.Set(name, v)
			if d := retryWait(h, 1, time.Now()); d < 750*time.Millisecond || d > time.Second {
				t.Errorf("%s: %s -> %v, want the backoff", name, v, d)
			}
		}
	}
	h := http.Header{}
	h.Set("retry-after", "60")
	if d := retryWait(h, 1, time.Now()); d != time.Minute {
		t.Errorf("60 s at the cap: %v", d)
	}
	h = http.Header{}
	h.Set("retry-after-ms", "1.5")
	if d := retryWait(h, 1, time.Now()); d != 1500*time.Microsecond {
		t.Errorf("1.5 ms: %v", d)
	}
}

func TestToolWithoutSchema(t *testing.T) {
	for _, tool := range []Tool{{Name: "f"}, {Name: "f", InputSchema: json.RawMessage("null")}} {
		data, err := json.Marshal(tool)
		if err != nil {
			t.Fatal(err)
		}
		if want := `{"name":"f","input_schema":{"type":"object"}}`; string(data) != want {
			t.Errorf("got %s, want %s", data, want)
		}
	}
	req := testRequest()
	req.Tools = []Tool{{Name: "g", InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`)}}
	data, _ := json.Marshal(req)
	if !strings.Contains(string(data), `"input_schema":{"type":"object","properties":{"x":{"type":"string"}}}`) {
		t.Errorf("schema changed: %s", data)
	}
}

func TestDefaultTimeouts(t *testing.T) {
	c := New("http://h")
	if c.headerTimeout != 90*time.Second || c.responseTimeout != 10*time.Minute || c.idleTimeout != 90*time.Second {
		t.Errorf("timeouts %v %v %v", c.headerTimeout, c.responseTimeout, c.idleTimeout)
	}
}
