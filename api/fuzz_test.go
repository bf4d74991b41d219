package api

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzSSE feeds arbitrary bodies to the stream parser: it must never panic,
// must end, and must keep the assembled message consistent.
func FuzzSSE(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(conformanceDir, "*.txt"))
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(sse("message_start", evStart,
		"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"n","input":{}}}`,
		"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\": [1, \"b"}}`,
		"message_stop", evStop)))
	f.Add([]byte("data:{\"type\":\"error\",\"error\":{\"type\":\"x\",\"message\":\"\\u001b]0;t\\u0007\"}}\r\r"))
	f.Add([]byte(": c\r\nevent: ping\r\ndata: {}\r\n\r\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		s := NewStreamFromReader(strings.NewReader(string(body)))
		n := 0
		for s.Next() {
			n++
			if n > len(body)+1 {
				t.Fatalf("more events (%d) than bytes", n)
			}
		}
		m := s.Message()
		if s.Err() == nil && n > 0 && s.Current().Type != EventMessageStop {
			t.Fatalf("clean end without message_stop, last %q", s.Current().Type)
		}
		for _, b := range m.Content {
			if b.Type == BlockToolUse && b.Truncated && len(b.Input) > 0 && !json.Valid(b.Input) {
				t.Fatalf("repaired input not valid: %q", b.Input)
			}
		}
		if _, err := json.Marshal(m.Content); err != nil {
			t.Fatalf("content does not marshal: %v", err)
		}
		if s.Next() {
			t.Fatal("Next true after the end")
		}
	})
}

// errorBodySeeds are bodies an error response may carry: Anthropic's shape,
// proxies' HTML pages, plain text, and broken or hostile variants.
var errorBodySeeds = []string{
	`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
	`{"type":"error","error":{"type":"invalid_request_error","message":"line one\nline two\r\n\tand \u2028 three"},"request_id":"req_1"}`,
	`{"type":"error","error":{"type":"x","message":"\u001b]0;t\u0007 \ud800 lone surrogate"}}`,
	`{"type":"error","error":{"type":"api_error"}}`,
	`{"type":"error","error":null}`,
	`{"error":"just a string"}`,
	`null`,
	`[1,2]`,
	`{"type":"about:blank","title":"Forbidden","status":403}`,
	"<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n",
	"<!DOCTYPE html><html><head><script>var a='<title>x</title>';</script><style>h1{}</style></head><body><!-- <h1>no</h1> --><H1 class=\"e\">Error&nbsp;1020 &#10; Access&#x2028;denied</H1></body></html>",
	"<html><title>unclosed",
	"<html><title",
	"<h1><h1><h1></h1>",
	"<?xml version=\"1.0\"?><Error><Code>AccessDenied</Code></Error>",
	"upstream connect error or disconnect/reset before headers. reset reason: overflow",
	"text\r\nwith\x0blines\x0c\x85and\xe2\x80\xa8more",
	"bad utf8 \xff\xfe\xc3 at the end \xe2\x82",
	"",
	"   \n\t  ",
}

// FuzzErrorBody feeds any body and status to the error-body parsing: it must
// not panic, and the message must be one line of valid UTF-8, both for a
// response and for a stream's error event.
func FuzzErrorBody(f *testing.F) {
	for i, s := range errorBodySeeds {
		f.Add([]byte(s), []int{0, 400, 429, 502, 503, 529, -1, 1 << 30}[i%8])
	}
	f.Add([]byte(strings.Repeat("é", 150)+"\n"+strings.Repeat("<b>", 100)), 500)
	f.Add([]byte("<html><title>"+strings.Repeat("\u2028x", 300)+"</title></html>"), 504)
	f.Fuzz(func(t *testing.T, body []byte, status int) {
		e := newAPIError(status, body, "req_1")
		checkOneLine(t, "message", e.Message)
		if e.Status != status && status != 0 {
			t.Errorf("status %d, want %d", e.Status, status)
		}
		if e.RequestID != "req_1" {
			t.Errorf("request id %q", e.RequestID)
		}
		_ = e.Error()
		_ = e.Hint()
		// An "error" event whose JSON names another type is that type.
		ev, err := parseEvent(EventError, body)
		switch {
		case err != nil:
			t.Errorf("error event: %v", err)
		case ev.Type == EventError && ev.Error == nil:
			t.Errorf("error event without error: %+v", ev)
		case ev.Error != nil:
			checkOneLine(t, "event message", ev.Error.Message)
		}
	})
}

// checkOneLine fails when s is not valid UTF-8 or holds a line break.
func checkOneLine(t *testing.T, what, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("%s not valid UTF-8: %q", what, s)
	}
	if i := strings.IndexAny(s, "\n\r\v\f\u0085\u2028\u2029"); i >= 0 {
		t.Fatalf("%s not one line: %q", what, s)
	}
}

// FuzzRetryAfter feeds any retry-after-ms and retry-after values to the
// retry wait: it is never negative and never above the cap, and a sane
// retry-after-ms is honoured exactly.
func FuzzRetryAfter(f *testing.F) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	dates := []string{
		now.Add(30 * time.Second).Format(http.TimeFormat),
		now.Add(2 * time.Hour).Format(http.TimeFormat),
		now.Add(-time.Hour).Format(http.TimeFormat),
		now.Add(60 * time.Second).Format(time.RFC850),
		now.Add(59 * time.Second).Format(time.ANSIC),
		"Fri, 31 Dec 9999 23:59:59 GMT",
		"Mon, 01 Jan 0001 00:00:00 GMT",
	}
	values := []string{"", "0", "3", "0.5", "-1", "-0", "60", "60.000001", "59.999", "1e20", "1e308", "1e-400",
		"inf", "+Inf", "-Inf", "NaN", " 2 ", "0x10", "1_000", "9223372036854775807", "abc", "250", "60000", "60001"}
	for i, v := range values {
		f.Add(v, values[(i*7)%len(values)], uint8(i%7))
	}
	for i, d := range dates {
		f.Add("", d, uint8(i))
		f.Add("nope", d, uint8(i))
	}
	f.Fuzz(func(t *testing.T, ms, secs string, attempt uint8) {
		h := http.Header{}
		if ms != "" {
			h.Set("retry-after-ms", ms)
		}
		if secs != "" {
			h.Set("retry-after", secs)
		}
		d := retryWait(h, int(attempt), now)
		if d < 0 || d > maxRetryAfterHonoured {
			t.Fatalf("wait %v for retry-after-ms %q, retry-after %q", d, ms, secs)
		}
		if v, err := strconv.ParseFloat(strings.TrimSpace(ms), 64); err == nil && v >= 0 && v <= 60000 {
			if want := time.Duration(v * float64(time.Millisecond)); d != want {
				t.Fatalf("retry-after-ms %q gave %v, want %v", ms, d, want)
			}
		}
	})
}

// FuzzSalvage cuts events anywhere and closes what is left: it must never
// panic, and what it salvages is a content_block_delta whose text is valid
// UTF-8 when the event's was.
func FuzzSalvage(f *testing.F) {
	f.Add([]byte(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\u00e9\\n\"b`), 40)
	f.Add([]byte(`{"type":"content_block_delta","index":3,"delta":{"type":"thinking_delta","thinking":"x\\u12`), 70)
	f.Fuzz(func(t *testing.T, data []byte, cut int) {
		if cut < 0 || cut > len(data) {
			return
		}
		valid := utf8.Valid(data)
		ev, ok := salvage(append([]byte(nil), data[:cut]...))
		if !ok {
			return
		}
		if ev.Type != EventContentBlockDelta {
			t.Fatalf("salvaged a %q", ev.Type)
		}
		if valid && (!utf8.ValidString(ev.Delta.Text) || !utf8.ValidString(ev.Delta.Thinking)) {
			t.Fatalf("salvaged text not UTF-8: %q", ev.Delta.Text)
		}
	})
}
