package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// TestCRDeliveredAtOnce checks that an event whose blank line ends in CR is
// delivered without waiting for the next byte: the reader has nothing more
// to give, and notes whether Next asked it for more before returning.
func TestCRDeliveredAtOnce(t *testing.T) {
	r := &lastBytes{rest: "event: message_start\rdata: " + evStart + "\r\r"}
	s := NewStreamFromReader(r)
	ok := s.Next()
	if r.askedMore {
		t.Fatal("a CR-terminated event waits for more bytes")
	}
	if !ok || s.Current().Type != EventMessageStart {
		t.Fatalf("Next = %v, %v", ok, s.Err())
	}
}

// lastBytes gives rest, then notes any read past it: one that, on a
// connection, would wait for bytes that have not come.
type lastBytes struct {
	rest      string
	askedMore bool
}

func (r *lastBytes) Read(p []byte) (int, error) {
	if r.rest == "" {
		r.askedMore = true
		return 0, io.ErrNoProgress
	}
	n := copy(p, r.rest)
	r.rest = r.rest[n:]
	return n, nil
}

// TestCRLFSplitAcrossReads checks that the LF of a CRLF arriving in a later
// read is swallowed, not taken for a blank line that ends the event early.
func TestCRLFSplitAcrossReads(t *testing.T) {
	pr, pw := io.Pipe()
	d := newSSEDecoder(pr, 1<<20)
	go func() {
		io.WriteString(pw, "data: a\r")
		io.WriteString(pw, "\ndata: b\r")
		io.WriteString(pw, "\n\r")
		io.WriteString(pw, "\n")
		pw.Close()
	}()
	ev, ok := d.Next()
	if !ok || string(ev.data) != "a\nb" {
		t.Fatalf("event %q, %v", ev.data, ok)
	}
	if ev, ok := d.Next(); ok {
		t.Errorf("extra event %q", ev.data)
	}
}

// TestConformanceOneByte parses the recorded streams one byte per read, so
// every line end and byte order mark is split across reads.
func TestConformanceOneByte(t *testing.T) {
	for _, f := range conformanceFiles(t) {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lf := strings.ReplaceAll(string(raw), "\r\n", "\n")
		for _, body := range []string{lf, strings.ReplaceAll(lf, "\n", "\r\n"), strings.ReplaceAll(lf, "\n", "\r"), "\uFEFF" + lf} {
			got, _, err := drain(NewStreamFromReader(iotest.OneByteReader(strings.NewReader(body))))
			if err != nil {
				t.Errorf("%s: %v", filepath.Base(f), err)
			}
			assertSameMessage(t, got, loadExpected(t, f))
		}
	}
}

func TestByteOrderMark(t *testing.T) {
	body := "\xEF\xBB\xBFdata: " + evStart + "\n\n" + sse("message_stop", evStop)
	for _, r := range []io.Reader{strings.NewReader(body), iotest.OneByteReader(strings.NewReader(body))} {
		m, types, err := drain(NewStreamFromReader(r))
		if err != nil || m.ID != "msg_1" || len(types) != 2 {
			t.Errorf("types %v, id %q, err %v", types, m.ID, err)
		}
	}
	// Only a leading one is a byte order mark.
	d := newSSEDecoder(strings.NewReader("data: \xEF\xBB\xBFx\n\n"), 1<<20)
	if ev, ok := d.Next(); !ok || string(ev.data) != "\xEF\xBB\xBFx" {
		t.Errorf("data %q", ev.data)
	}
}

func TestErrorEventNotJSON(t *testing.T) {
	body := sse("message_start", evStart) + "event: error\ndata: upstream \x1b[2Joverloaded\n\n"
	_, _, err := drain(NewStreamFromReader(strings.NewReader(body)))
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v, want *APIError", err)
	}
	if apiErr.Type != "stream_error" || apiErr.Message != "upstream \x1b[2Joverloaded" {
		t.Errorf("api error %+v", *apiErr)
	}

	// Over HTTP, the error carries the response's request id.
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("request-id", "req_err")
		io.WriteString(w, body)
	})
	c := New(rec.URL, WithAccessToken("t"))
	defer c.Close()
	s, err := c.StreamMessage(context.Background(), testRequest())
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = drain(s)
	if !errors.As(err, &apiErr) || apiErr.RequestID != "req_err" || apiErr.Type != "stream_error" {
		t.Errorf("err = %v (%+v)", err, apiErr)
	}
}

// TestEventSizeBoundary checks that an event's data is kept up to the
// decoder's max and cut past it, the rest of the event read and dropped.
func TestEventSizeBoundary(t *testing.T) {
	cases := []struct {
		body string
		data string
		cut  bool
	}{
		{"data: 0123456789\n\n", "0123456789", false},
		{"data: 0123456789X\n\n", "0123456789", true},
		{"data: 01234\ndata: 5678\n\n", "01234\n5678", false}, // 5 + '\n' + 4
		{"data: 01234\ndata: 56789\n\n", "01234\n5678", true},
		{"data:0123456789\r\r", "0123456789", false},
		{"data: 0123456789\ndata:\n\n", "0123456789", true}, // the joining '\n' counts
		{"event: x\ndata: 0123456789\n\n", "0123456789", false},
		{"data: \ndata: 12345678\n\n", "\n12345678", false},
		{"data: 0123456789\n\ndata: 0\n\n", "0123456789", false},
	}
	for _, c := range cases {
		d := newSSEDecoder(strings.NewReader(c.body), 10)
		ev, ok := d.Next()
		if !ok || string(ev.data) != c.data || ev.cut != c.cut {
			t.Errorf("%.40q: event %v %q cut %v, want %q cut %v (err %v)", c.body, ok, ev.data, ev.cut, c.data, c.cut, d.Err())
		}
		if cap(ev.data) > 10+8 {
			t.Errorf("%.40q: data buffer of %d bytes for a max of 10", c.body, cap(ev.data))
		}
	}
	// A cut event is the last: nothing more is read.
	r := strings.NewReader("event: e\ndata: " + strings.Repeat("Y", 100<<10) + "\n\ndata: next\n\n")
	d := newSSEDecoder(r, 10)
	if ev, ok := d.Next(); !ok || ev.name != "e" || string(ev.data) != "YYYYYYYYYY" || !ev.cut {
		t.Errorf("cut event: %v %+v", ok, ev)
	}
	if ev, ok := d.Next(); ok || d.Err() != nil {
		t.Errorf("after a cut event: %v %+v, err %v", ok, ev, d.Err())
	}
	if r.Len() == 0 {
		t.Error("the body was read to its end past a cut event")
	}
	// A comment, however long, is no event.
	if _, ok := newSSEDecoder(strings.NewReader(": a long comment line here\n\n"), 10).Next(); ok {
		t.Error("a comment made an event")
	}
}

func TestToolUseWithoutStopIsTruncated(t *testing.T) {
	start := `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"rm","input":{}}}`
	cases := map[string][]string{
		"empty delta": {"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}}`},
		"no delta":    {},
		"valid input": {"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"path\": \"/\"}"}}`},
	}
	for name, deltas := range cases {
		parts := append([]string{"message_start", evStart, "content_block_start", start}, deltas...)
		parts = append(parts, "message_delta", `{"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":9}}`,
			"message_stop", evStop)
		m, _, err := drain(NewStreamFromReader(strings.NewReader(sse(parts...))))
		if err != nil {
			t.Fatal(err)
		}
		if b := m.Content[0]; !b.Truncated || !json.Valid(b.Input) {
			t.Errorf("%s: tool_use without content_block_stop: truncated %v, input %s", name, b.Truncated, b.Input)
		}
	}

	// Closed by Finish, as at a cut stream.
	var a Accumulator
	a.Add(Event{Type: EventMessageStart, Message: &Message{}})
	a.Add(Event{Type: EventContentBlockStart, Block: &ContentBlock{Type: BlockToolUse, ID: "t", Name: "n", Input: json.RawMessage("{}")}})
	a.Finish()
	if b := a.Message().Content[0]; !b.Truncated || string(b.Input) != "{}" {
		t.Errorf("after Finish: %+v", b)
	}

	// With its content_block_stop, a tool_use without input is complete.
	body := sse("message_start", evStart, "content_block_start", start,
		"content_block_stop", `{"type":"content_block_stop","index":0}`, "message_stop", evStop)
	m, _, _ := drain(NewStreamFromReader(strings.NewReader(body)))
	if b := m.Content[0]; b.Truncated || string(b.Input) != "{}" {
		t.Errorf("stopped block: %+v", b)
	}
}
