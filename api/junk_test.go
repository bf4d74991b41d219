package api

import (
	"errors"
	"strings"
	"testing"
)

// TestJunkEventIsNotALongAnswer sends, after a reply's first word, one
// event that is junk and larger than the reply's size limit: a 200 MB
// data line of letters with no line end, 5 MB of '[', a 5 MB tool name.
// The stream ends with ErrMalformedEvent, which says what the server sent
// and what to check, never "ask for a shorter answer"; the word that came
// before is kept; and no more of the body is read than the limit and its
// slack (counted, not timed).
func TestJunkEventIsNotALongAnswer(t *testing.T) {
	const limit = 1 << 20
	head := sse("message_start", evStart,
		"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
		"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}`)
	for _, c := range []struct {
		name, start string
		fill        string
		n           int // chunks of fill
	}{
		{"200 MB line", "data: ", strings.Repeat("A", 1<<20), 200},
		{"5 MB of [", "data: ", strings.Repeat("[", 1<<20), 5},
		{"5 MB tool name", `data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t","input":{},"name":"`, strings.Repeat("n", 1<<20), 5},
	} {
		body := &endlessBody{head: head + c.start, chunk: func(int) string { return c.fill }, n: c.n}
		s := limitedStream(body, limit, DefaultStallSize)
		m, _, err := drain(s)
		if !errors.Is(err, ErrMalformedEvent) || !strings.Contains(err.Error(), "check the server, or the base URL") || strings.Contains(err.Error(), "shorter") {
			t.Errorf("%s: %v", c.name, err)
		}
		if m.Text() != "hi" || m.StopReason == StopSizeLimit || s.OversizedEvent() != 0 {
			t.Errorf("%s: kept %q, stop %q, oversized %d", c.name, m.Text(), m.StopReason, s.OversizedEvent())
		}
		if body.read > int64(len(head))+limit+eventSlack+64<<10 {
			t.Errorf("%s: read %d bytes for a limit of %d", c.name, body.read, limit)
		}
		if !body.closed {
			t.Errorf("%s: the body is not closed", c.name)
		}
	}
}

// TestMalformedEventSaysWhatToCheck: a small event that is not JSON ends
// the stream with ErrMalformedEvent too, and names what to check.
func TestMalformedEventSaysWhatToCheck(t *testing.T) {
	s := NewStreamFromReader(strings.NewReader(sse("message_start", evStart, "content_block_delta", `{nope`)))
	_, _, err := drain(s)
	if !errors.Is(err, ErrMalformedEvent) || !strings.Contains(err.Error(), `"content_block_delta"`) || !strings.Contains(err.Error(), "check the server") {
		t.Errorf("err %v", err)
	}
}

// TestOversizedEventIsTold: one text delta larger than the whole limit is
// content, cut as a long reply is, but the stream tells that one event did
// it (the server's fault), and OversizedNote says so; deltas of 1 KiB to
// the same limit are a long answer, whose note asks for a shorter one.
func TestOversizedEventIsTold(t *testing.T) {
	for _, size := range []int{20_000_000, 1 << 10} {
		s := NewStreamFromReader(newHostileBody(100_000_000, size))
		m, _, err := drain(s)
		if err != nil || m.StopReason != StopSizeLimit {
			t.Fatalf("delta %d: stop %q, %v", size, m.StopReason, err)
		}
		n := s.OversizedEvent()
		if (n > DefaultMaxReplySize) != (size > DefaultMaxReplySize) || (size < DefaultMaxReplySize && n != 0) {
			t.Errorf("delta %d: oversized %d", size, n)
		}
	}
	note := OversizedNote(DefaultMaxReplySize + eventSlack)
	if !strings.Contains(note, "one event of over 4.1 MiB") || !strings.Contains(note, "check the server") || strings.Contains(note, "shorter") {
		t.Errorf("note %q", note)
	}
}
