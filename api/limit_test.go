package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"
)

// hostileBody is a reader of a stream whose text deltas add up to total
// bytes, made as it is read: the whole body is never in memory. Each delta
// carries size bytes of fill, so size 20 MB makes the five 20 MB deltas of
// issue 18. read counts the bytes handed out, closed tells whether the
// reader was closed.
type hostileBody struct {
	parts       []string // what is left to send, in order
	fill        byte
	delta, left int // fill bytes per delta, and in all
	inDelta     int // fill bytes left in the delta being sent; -1 between deltas
	read        atomic.Int64
	closed      atomic.Bool
}

const (
	deltaHead = `event: content_block_delta` + "\n" + `data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"`
	deltaTail = `"}}` + "\n\n"
)

func newHostileBody(total, size int) *hostileBody {
	return &hostileBody{
		parts: []string{sse("message_start", evStart,
			"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)},
		fill: 'x', delta: size, left: total, inDelta: -1,
	}
}

func (h *hostileBody) Read(p []byte) (int, error) {
	if h.closed.Load() {
		return 0, errors.New("read after close")
	}
	n := 0
	for n < len(p) {
		if len(h.parts) > 0 {
			k := copy(p[n:], h.parts[0])
			h.parts[0] = h.parts[0][k:]
			if h.parts[0] == "" {
				h.parts = h.parts[1:]
			}
			n += k
			continue
		}
		switch {
		case h.inDelta > 0:
			k := min(h.inDelta, len(p)-n)
			for i := range k {
				p[n+i] = h.fill
			}
			h.inDelta -= k
			n += k
			if h.inDelta == 0 {
				h.parts, h.inDelta = []string{deltaTail}, -1
			}
		case h.left > 0:
			h.inDelta = min(h.delta, h.left)
			h.left -= h.inDelta
			h.parts = []string{deltaHead}
		case h.inDelta == -1:
			h.parts = []string{sse("message_delta", evDeltaOK, "message_stop", evStop)}
			h.inDelta = -2
		default:
			h.read.Add(int64(n))
			if n == 0 {
				return 0, io.EOF
			}
			return n, nil
		}
	}
	h.read.Add(int64(n))
	return n, nil
}

func (h *hostileBody) Close() error {
	h.closed.Store(true)
	return nil
}

// TestStreamCutAtLimit streams 100 MB of text to a reply limited to 4 MiB,
// in five deltas of 20 MB and in deltas of 1 KiB: the reply keeps exactly
// the limit, ends with StopSizeLimit and no error, and the stream stops
// reading near the limit and closes the body.
func TestStreamCutAtLimit(t *testing.T) {
	for _, size := range []int{20_000_000, 1 << 10} {
		body := newHostileBody(100_000_000, size)
		s := NewStreamFromReader(body)
		m, types, err := drain(s)
		if err != nil {
			t.Fatalf("delta %d: %v", size, err)
		}
		if got := len(m.Text()); got != DefaultMaxReplySize {
			t.Errorf("delta %d: kept %d bytes, want %d", size, got, DefaultMaxReplySize)
		}
		if m.StopReason != StopSizeLimit {
			t.Errorf("delta %d: stop reason %q", size, m.StopReason)
		}
		if n := len(types); n < 2 || types[n-2] != EventMessageDelta || types[n-1] != EventMessageStop {
			t.Errorf("delta %d: the reply does not end as a reply: %v", size, types[max(0, n-3):])
		}
		if s.Current().Delta.StopReason != "" || s.Current().Type != EventMessageStop {
			t.Errorf("delta %d: last event %+v", size, s.Current())
		}
		// The JSON around 1 KiB deltas adds about an eighth.
		if read := body.read.Load(); read > DefaultMaxReplySize*5/4+eventSlack {
			t.Errorf("delta %d: read %d bytes for a limit of %d", size, read, DefaultMaxReplySize)
		}
		if !body.closed.Load() {
			t.Errorf("delta %d: the body is not closed at the limit", size)
		}
	}
}

// TestStreamCutAllocations counts the bytes allocated while a stream of
// 100 MB is read to its 4 MiB limit: a bounded multiple of the limit,
// whatever the server sends, for one huge delta or many small ones (about
// two and three times). Reading the 100 MB would cost 25 times the limit.
func TestStreamCutAllocations(t *testing.T) {
	for _, size := range []int{20_000_000, 1 << 10} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, _, err := drain(NewStreamFromReader(newHostileBody(100_000_000, size)))
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("delta %d: %.1f MiB allocated for a 4 MiB limit", size, float64(alloc)/(1<<20))
		if alloc > 5*DefaultMaxReplySize {
			t.Errorf("delta %d: %d bytes allocated, more than 5 times the %d limit", size, alloc, DefaultMaxReplySize)
		}
	}
}

// TestStreamCutOverHTTP checks the limit a call sets, against a server
// that streams 100 MB: the reply is cut there and the connection closed,
// so the server's writes fail.
func TestStreamCutOverHTTP(t *testing.T) {
	done := make(chan error, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, err := io.Copy(w, newHostileBody(100_000_000, 20_000_000))
		done <- err
	}))
	defer srv.Close()
	c := New(srv.URL, WithAccessToken("t"))
	defer c.Close()
	s, err := c.StreamMessage(context.Background(), testRequest(), MaxReplySize(64<<10))
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := drain(s)
	if err != nil || len(m.Text()) != 64<<10 || m.StopReason != StopSizeLimit {
		t.Errorf("err %v, %d bytes, stop %q", err, len(m.Text()), m.StopReason)
	}
	if err := <-done; err == nil {
		t.Error("the server sent all 100 MB: the connection stayed open")
	}
}

// TestWholeReplyCut checks that a reply answered whole, as JSON, is cut at
// the limit too, by StreamMessage and by CreateMessage.
func TestWholeReplyCut(t *testing.T) {
	big := strings.Repeat("é", 40<<10) // 80 KiB, two bytes a character
	reply, _ := json.Marshal(Message{ID: "msg_1", Type: "message", Role: RoleAssistant, StopReason: StopEndTurn,
		Content: []ContentBlock{{Type: BlockText, Text: "intro"}, {Type: BlockText, Text: big}, {Type: BlockText, Text: "never"}}})
	rec := newRecorder(t, jsonReply(200, string(reply)), jsonReply(200, string(reply)))
	c := New(rec.URL, WithAccessToken("t"))
	defer c.Close()
	limit := MaxReplySize(64<<10 + 1)
	s, err := c.StreamMessage(context.Background(), testRequest(), limit)
	if err != nil {
		t.Fatal(err)
	}
	streamed, _, err := drain(s)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := c.CreateMessage(context.Background(), testRequest(), limit)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Message{streamed, *whole} {
		if len(m.Content) != 2 || m.StopReason != StopSizeLimit || ContentSize(m) > 64<<10+1 || !utf8.ValidString(m.Content[1].Text) {
			t.Errorf("%d blocks, stop %q, size %d", len(m.Content), m.StopReason, ContentSize(m))
		}
		if got := len(m.Content[1].Text); got != (64<<10+1-5)&^1 { // "intro", then whole characters
			t.Errorf("cut text %d bytes", got)
		}
	}
}

func TestCutMessage(t *testing.T) {
	m := Message{StopReason: StopToolUse, Content: []ContentBlock{
		{Type: BlockThinking, Thinking: "abcd", Signature: "sig"},
		{Type: BlockToolUse, ID: "t", Name: "n", Input: json.RawMessage(`{"a":1}`)},
		{Type: BlockText, Text: "tail"},
	}}
	cases := []struct {
		limit  int
		blocks int
		cut    bool
	}{
		{100, 3, false},
		{20, 3, false}, // exactly: 4+3, 7+1+1 (its id and name count), 4
		{19, 3, true},  // "tai"
		{16, 2, true},  // the text goes
		{15, 1, true},  // the tool call does not fit: it goes whole
		{6, 1, true},   // the thinking is cut and loses its signature
		{0, 0, true},
	}
	for _, c := range cases {
		got, cut := CutMessage(m, c.limit)
		if cut != c.cut || len(got.Content) != c.blocks || ContentSize(got) > c.limit {
			t.Errorf("limit %d: cut %v, %d blocks, size %d", c.limit, cut, len(got.Content), ContentSize(got))
		}
		if cut && got.StopReason != StopSizeLimit || !cut && got.StopReason != StopToolUse {
			t.Errorf("limit %d: stop %q", c.limit, got.StopReason)
		}
	}
	if got, _ := CutMessage(m, 6); got.Content[0].Signature != "" || got.Content[0].Thinking != "abcd" {
		t.Errorf("cut thinking %+v", got.Content[0])
	}
	if m.Content[0].Signature != "sig" || len(m.Content) != 3 {
		t.Error("CutMessage changed its argument")
	}
}

// TestSalvage checks the start of a text delta cut anywhere: inside an
// escape, inside a UTF-8 sequence, or between them. What is kept is a
// prefix of the text, never a broken character.
func TestSalvage(t *testing.T) {
	text := "a\\b\"c\u00e9\u4e16\U0001F600\n\t/\u0001z"
	enc, _ := json.Marshal(text)
	// The fields in Anthropic's order: the text last.
	event := `{"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":` + string(enc) + `}}`
	head := strings.Index(event, `"text":"`) + len(`"text":"`)
	for end := head; end < len(event)-3; end++ {
		ev, ok := salvage([]byte(event[:end]))
		if !ok {
			t.Errorf("cut at %d (%q): not salvaged", end, event[end-3:end])
			continue
		}
		if ev.Index != 2 || ev.Delta.Type != DeltaText || !strings.HasPrefix(text, ev.Delta.Text) {
			t.Errorf("cut at %d: %+v", end, ev)
		}
	}
	for _, bad := range []string{`{"type":"content_block_delta","ind`, `{"type":"message_start","message":{"id":"x`, `garbage`} {
		if ev, ok := salvage([]byte(bad)); ok && ev.Delta.Text != "" {
			t.Errorf("%q salvaged as %+v", bad, ev)
		}
	}
}

// TestFitThinkingAndTools checks the limit on thinking, tool input and
// signature deltas, and on a block that starts with its content.
func TestFitThinkingAndTools(t *testing.T) {
	body := sse("message_start", evStart,
		"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}`,
		"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"0123456789"}}`,
		"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"SIG"}}`,
		"content_block_stop", `{"type":"content_block_stop","index":0}`,
		"content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t","name":"n","input":{}}}`,
		"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"path\": \"abc\"}"}}`,
		"content_block_stop", `{"type":"content_block_stop","index":1}`,
		"message_delta", evDeltaOK, "message_stop", evStop)
	for limit, want := range map[int]string{
		5:  "thinking 01234; cut",
		12: "thinking 0123456789; cut", // the signature does not fit whole: it goes
		20: "thinking 0123456789 SIG; tool truncated; cut",
		99: "thinking 0123456789 SIG; tool {\"path\": \"abc\"}",
	} {
		s := NewStreamFromReader(strings.NewReader(body))
		s.acc.limit = limit
		m, _, err := drain(s)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, b := range m.Content {
			switch {
			case b.Type == BlockThinking:
				got = append(got, strings.TrimSpace("thinking "+b.Thinking+" "+b.Signature))
			case b.Truncated:
				got = append(got, "tool truncated")
			default:
				got = append(got, "tool "+string(b.Input))
			}
		}
		if m.StopReason == StopSizeLimit {
			got = append(got, "cut")
		}
		if g := strings.Join(got, "; "); g != want {
			t.Errorf("limit %d: %s, want %s", limit, g, want)
		}
	}
}

func TestReplyCutNote(t *testing.T) {
	for n, want := range map[int]string{4 << 20: "4 MiB", 64 << 10: "64 KiB", 1536 << 10: "1.5 MiB", 100: "100 bytes"} {
		if got := ReplyCutNote(n); !strings.Contains(got, "cut at "+want+",") {
			t.Errorf("%d: %s", n, got)
		}
	}
}

// Under a limit, a builder that grows past jumpSize takes four times what
// it needs at once, up to the limit, and gives back what it did not use
// when its block ends.
func TestBuilderJumpsToTheLimitAndTrims(t *testing.T) {
	var b builder
	piece := strings.Repeat("a", 1<<10)
	for range 300 {
		b.WriteString(piece, 4<<20)
	}
	if c := b.b.Cap(); c < 4*(256<<10+1<<10) || c > 5*(256<<10) || b.String() != strings.Repeat(piece, 300) {
		t.Fatalf("cap %d, len %d", b.b.Cap(), len(b.String()))
	}
	b.trim()
	if b.b.Cap() != 0 || b.String() != strings.Repeat(piece, 300) {
		t.Errorf("after trim: cap %d, len %d", b.b.Cap(), len(b.String()))
	}
	// Without a limit, it grows as a strings.Builder does, and trim keeps it.
	var c builder
	for range 300 {
		c.WriteString(piece, 0)
	}
	grown := c.b.Cap()
	c.trim()
	if grown > 2*300<<10 || c.b.Cap() != grown {
		t.Errorf("without a limit: cap %d, then %d", grown, c.b.Cap())
	}
}
