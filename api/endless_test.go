package api

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// endlessBody is a body made as it is read: head, then chunk(0),
// chunk(1)… n times (for ever when n < 0), then tail. read counts the
// bytes handed out, and closed tells whether the reader was closed.
type endlessBody struct {
	head, tail string
	chunk      func(i int) string
	n, i       int
	pending    string
	read       int64
	closed     bool
}

func (e *endlessBody) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if e.pending == "" {
			switch {
			case e.head != "":
				e.pending, e.head = e.head, ""
			case e.n < 0 || e.i < e.n:
				e.pending = e.chunk(e.i)
				e.i++
			case e.tail != "":
				e.pending, e.tail = e.tail, ""
			default:
				e.read += int64(n)
				if n == 0 {
					return 0, io.EOF
				}
				return n, nil
			}
		}
		k := copy(p[n:], e.pending)
		e.pending = e.pending[k:]
		n += k
	}
	e.read += int64(n)
	return n, nil
}

func (e *endlessBody) Close() error {
	e.closed = true
	return nil
}

// limitedStream is the stream of body as a client with the size limit
// limit and the stall size stallSize makes it, without timers.
func limitedStream(body io.ReadCloser, limit, stallSize int) *Stream {
	req := httptest.NewRequest("POST", "http://h/", nil)
	resp := &http.Response{Body: body, Header: http.Header{}, Request: req}
	return newStream(resp, func(error) {}, streamLimits{stallSize: stallSize}, limit)
}

// liveHeap returns the bytes of the heap's live objects, after a
// collection.
func liveHeap() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// grown returns how far the live heap grew from before, as read after
// drain returned the message that keeps what the stream built.
func grown(before uint64, keep *Message) uint64 {
	after := liveHeap()
	runtime.KeepAlive(keep)
	return after - min(after, before)
}

// blockStart is the event that starts block i as block.
func blockStart(i int, block string) string {
	return sse("content_block_start", `{"type":"content_block_start","index":`+strconv.Itoa(i)+`,"content_block":`+block+`}`)
}

// A server that starts empty blocks for ever (text, or tool calls with no
// input) grows no reply past MaxReplyBlocks: each block costs memory
// whatever its content, and they counted nothing toward the size limit
// (it took 24 GB in an hour). The reply is cut there as at the size limit,
// the body closed; what is read and what is kept are bounded, counted
// while 200,000 blocks (20 MB) are on offer.
func TestEndlessEmptyBlocksAreCut(t *testing.T) {
	for name, block := range map[string]func(i int) string{
		"text":     func(int) string { return `{"type":"text","text":""}` },
		"tool_use": func(i int) string { return `{"type":"tool_use","id":"t` + strconv.Itoa(i) + `","name":"x","input":{}}` },
	} {
		t.Run(name, func(t *testing.T) {
			body := &endlessBody{head: sse("message_start", evStart), n: 200_000,
				chunk: func(i int) string { return blockStart(i, block(i)) }}
			before := liveHeap()
			s := limitedStream(body, DefaultMaxReplySize, DefaultStallSize)
			m, _, err := drain(s)
			growth := grown(before, &m)
			if err != nil || len(m.Content) != MaxReplyBlocks || m.StopReason != StopSizeLimit {
				t.Fatalf("err %v, %d blocks, stop %q", err, len(m.Content), m.StopReason)
			}
			if !body.closed {
				t.Error("the body is not closed at the limit")
			}
			chunk := int64(len(blockStart(MaxReplyBlocks, block(MaxReplyBlocks))))
			if body.read > (MaxReplyBlocks+1)*chunk+64<<10 {
				t.Errorf("read %d bytes for %d blocks of %d", body.read, MaxReplyBlocks, chunk)
			}
			t.Logf("%d blocks kept in %.1f MiB", len(m.Content), float64(growth)/(1<<20))
			if growth > 8<<20 {
				t.Errorf("the heap grew by %d bytes for %d empty blocks", growth, MaxReplyBlocks)
			}
			if note := CutNote(m, DefaultMaxReplySize); !strings.Contains(note, "4096 blocks") || !strings.Contains(note, "check the server") {
				t.Errorf("note %q", note)
			}
		})
	}
}

// The fields of a block that are not its content (a tool call's id and
// name, a document's title, an image's source) count toward the size
// limit: a server that starts tool calls with 32 KiB names for ever gets a
// reply of the limit, not 32 KiB a block for MaxReplyBlocks blocks.
func TestBlockNamesCountTowardTheLimit(t *testing.T) {
	const limit = 256 << 10
	name := strings.Repeat("n", 32<<10)
	for kind, block := range map[string]func(i int) string{
		"name": func(i int) string {
			return `{"type":"tool_use","id":"t` + strconv.Itoa(i) + `","name":"` + name + `","input":{}}`
		},
		"id": func(i int) string {
			return `{"type":"tool_use","id":"` + name + strconv.Itoa(i) + `","name":"x","input":{}}`
		},
		"source": func(int) string {
			return `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + name + `"}}`
		},
		"title": func(int) string {
			return `{"type":"document","title":"` + name + `","source":{"type":"text","data":""}}`
		},
	} {
		t.Run(kind, func(t *testing.T) {
			body := &endlessBody{head: sse("message_start", evStart), n: 2000, // 64 MB
				chunk: func(i int) string { return blockStart(i, block(i)) }}
			before := liveHeap()
			m, _, err := drain(limitedStream(body, limit, DefaultStallSize))
			growth := grown(before, &m)
			if err != nil || m.StopReason != StopSizeLimit || ContentSize(m) > limit {
				t.Fatalf("err %v, stop %q, %d blocks of %d bytes", err, m.StopReason, len(m.Content), ContentSize(m))
			}
			if body.read > 2*limit+64<<10 {
				t.Errorf("read %d bytes for a limit of %d", body.read, limit)
			}
			if growth > 4*limit {
				t.Errorf("the heap grew by %d bytes for a limit of %d", growth, limit)
			}
		})
	}
}

// The fields of message_delta that muse has no Go field for are kept, so
// they count: a server that sends message_delta for ever, each with a new
// field, gets a reply cut at the limit.
func TestMessageDeltaFieldsCountTowardTheLimit(t *testing.T) {
	const limit = 256 << 10
	value := strings.Repeat("v", 100)
	body := &endlessBody{head: sse("message_start", evStart), n: 100_000, // 17 MB
		chunk: func(i int) string {
			k := strconv.Itoa(i)
			return sse("message_delta", `{"type":"message_delta","delta":{"k`+k+`":"`+value+`"},"usage":{"u`+k+`":1}}`)
		}}
	before := liveHeap()
	m, _, err := drain(limitedStream(body, limit, DefaultStallSize))
	growth := grown(before, &m)
	if err != nil || m.StopReason != StopSizeLimit {
		t.Fatalf("err %v, stop %q", err, m.StopReason)
	}
	if n := extraSize(m.Extra) + extraSize(m.Usage.Extra); n > limit {
		t.Errorf("%d bytes of fields kept for a limit of %d", n, limit)
	}
	if body.read > 2*limit+64<<10 {
		t.Errorf("read %d bytes for a limit of %d", body.read, limit)
	}
	if growth > 4*limit {
		t.Errorf("the heap grew by %d bytes for a limit of %d", growth, limit)
	}
}

// A whole reply (JSON) larger than a reply of the size limit can take is
// not read past that: the error says so and what to do.
func TestWholeReplyTooLargeIsNotRead(t *testing.T) {
	const limit = 64 << 10
	body := &endlessBody{head: `{"type":"message","role":"assistant","content":[{"type":"text","text":"`, n: 400, // 26 MB
		chunk: func(int) string { return strings.Repeat("y", 64<<10) }, tail: `"}]}`}
	c := New("http://h/")
	req := httptest.NewRequest("POST", "http://h/", nil)
	_, err := c.readMessage(&http.Response{Body: body, Header: http.Header{}, Request: req}, func(error) {}, []RequestOption{MaxReplySize(limit)})
	if err == nil || !strings.Contains(err.Error(), "over 1.4 MiB of JSON") || !strings.Contains(err.Error(), "check the server") {
		t.Fatalf("err = %v", err)
	}
	if max := messageBodySize(limit) + 64<<10; body.read > max {
		t.Errorf("read %d bytes, past %d", body.read, max)
	}
	if !body.closed {
		t.Error("the body is not closed")
	}
}

// textSoFar starts a reply with the text "so far".
var textSoFar = sse("message_start", evStart,
	"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
	"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"so far"}}`)

// A stream that sends, as fast as it can and for ever, what adds nothing
// to the reply (pings, comments, blank lines, empty deltas, events muse
// does not know, message_delta with nothing new, the stop of a block that
// ended) fails with ErrStalled once it sent the stall size of it,
// keeping what came: memory never grew, and now the work is bounded too,
// where the stall timeout let it run for ten minutes. Counted in bytes
// read, with no timer.
func TestNothingForEverIsStalled(t *testing.T) {
	const stallSize = 64 << 10
	for name, chunk := range map[string]string{
		"pings":        sse("ping", `{"type":"ping"}`),
		"comments":     ": keep-alive\n",
		"blank lines":  "\n",
		"empty deltas": sse("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":""}}`),
		"unknown":      sse("future_event", `{"type":"future_event","data":"x"}`),
		"usage":        sse("message_delta", `{"type":"message_delta","delta":{},"usage":{"output_tokens":7}}`),
		"stops":        sse("content_block_stop", `{"type":"content_block_stop","index":0}`),
		"no data":      "id: 1\nretry: 5\n\n",
	} {
		t.Run(name, func(t *testing.T) {
			// 64 MiB of it: without the stall size, the stream is cut, not stalled.
			body := &endlessBody{head: textSoFar, n: (64 << 20) / len(chunk), chunk: func(int) string { return chunk }}
			m, _, err := drain(limitedStream(body, DefaultMaxReplySize, stallSize))
			if !errors.Is(err, ErrStalled) || !strings.Contains(err.Error(), "over 64 KiB of pings") || !strings.Contains(err.Error(), "check the server") {
				t.Errorf("err = %v, want ErrStalled after 64 KiB", err)
			}
			if m.Text() != "so far" {
				t.Errorf("kept %q", m.Text())
			}
			if max := int64(len(textSoFar) + stallSize + 32<<10 + len(chunk)); body.read > max {
				t.Errorf("read %d bytes, more than %d", body.read, max)
			}
			if !body.closed {
				t.Error("the body is not closed")
			}
		})
	}
}

// Content earns room for keep-alives: 16 bytes for each byte of it. A
// reply that sends 24 KiB of pings after each 2 KiB of text, 2.4 MiB of
// them in all, ends complete under a stall size of 64 KiB; so does one
// event larger than the stall size.
func TestContentEarnsRoomForKeepAlives(t *testing.T) {
	const stallSize = 64 << 10
	ping := sse("ping", `{"type":"ping"}`)
	pings := strings.Repeat(ping, (24<<10)/len(ping))
	text := strings.Repeat("ab", 1<<10)
	delta := sse("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"`+text+`"}}`)
	big := sse("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"`+strings.Repeat("c", 2*stallSize)+`"}}`)
	body := &endlessBody{head: textSoFar + big, n: 100, chunk: func(int) string { return pings + delta },
		tail: sse("message_delta", evDeltaOK, "message_stop", evStop)}
	m, _, err := drain(limitedStream(body, DefaultMaxReplySize, stallSize))
	if err != nil {
		t.Fatal(err)
	}
	if want := "so far" + strings.Repeat("c", 2*stallSize) + strings.Repeat(text, 100); m.Text() != want || m.StopReason != StopEndTurn {
		t.Errorf("%d bytes of text, stop %q", len(m.Text()), m.StopReason)
	}
}

// A server that sends a byte of text between each 60 KiB of pings, or in
// deltas padded with 60 KiB of a field muse does not read, for ever, is
// stalled too, once what adds nothing passes the stall size and 16 bytes
// for each byte of text: the work is bounded, not only the memory. It
// offers 64 MiB of them.
func TestTextBetweenEndlessPingsIsStalled(t *testing.T) {
	const stallSize = 64 << 10
	ping := sse("ping", `{"type":"ping"}`)
	for name, chunk := range map[string]string{
		"pings": strings.Repeat(ping, (60<<10)/len(ping)) +
			sse("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}}`),
		"padding": sse("content_block_delta", `{"type":"content_block_delta","index":0,"pad":"`+strings.Repeat("p", 60<<10)+`","delta":{"type":"text_delta","text":"a"}}`),
	} {
		t.Run(name, func(t *testing.T) {
			body := &endlessBody{head: textSoFar, n: (64 << 20) / len(chunk), chunk: func(int) string { return chunk }}
			m, _, err := drain(limitedStream(body, DefaultMaxReplySize, stallSize))
			if !errors.Is(err, ErrStalled) {
				t.Errorf("err = %v, want ErrStalled", err)
			}
			earned := int64(stallEarned * (len(m.Text()) + len(m.Content)))
			if max := int64(stallSize) + earned + int64(len(textSoFar)+2*len(chunk)+32<<10); body.read > max {
				t.Errorf("read %d bytes, more than %d, for %d bytes of text", body.read, max, len(m.Text()))
			}
		})
	}
}

// A server that sends tiny citations for ever ("{}", two bytes each) gets
// a reply cut at the size limit, each citation counting at least
// minCitationSize: two million of them, 4 MiB of JSON, took 850 MB. What
// it allocates, counted, is a small multiple of the limit (about 1 KiB an
// event read). It offers 4 million
// (180 MB).
func TestEndlessCitationsAreCut(t *testing.T) {
	cite := sse("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{}}}`)
	body := &endlessBody{head: textSoFar, n: 4_000_000, chunk: func(int) string { return cite }}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m, _, err := drain(limitedStream(body, DefaultMaxReplySize, DefaultStallSize))
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	if err != nil || m.StopReason != StopSizeLimit {
		t.Fatalf("err %v, stop %q", err, m.StopReason)
	}
	var cites []json.RawMessage
	if err := json.Unmarshal(m.Content[0].Extra["citations"], &cites); err != nil {
		t.Fatal(err)
	}
	if want := DefaultMaxReplySize / minCitationSize; len(cites) > want {
		t.Errorf("%d citations kept, more than %d", len(cites), want)
	}
	if body.read > int64(DefaultMaxReplySize/minCitationSize+1)*int64(len(cite))+64<<10 {
		t.Errorf("read %d bytes for %d citations", body.read, len(cites))
	}
	t.Logf("%d citations kept, %.1f MiB allocated", len(cites), float64(alloc)/(1<<20))
	if alloc > 8*DefaultMaxReplySize {
		t.Errorf("%d bytes allocated for %d citations", alloc, len(cites))
	}
}

// A whole reply (JSON) of 200,000 empty blocks, 5 MB, is decoded to
// MaxReplyBlocks blocks, not 200,000 cut afterwards: what it allocates is
// a small multiple of the body (it was 40 times it, and a million blocks
// took a gigabyte).
func TestWholeReplyOfManyBlocksIsCut(t *testing.T) {
	body := &endlessBody{head: `{"id":"m","type":"message","role":"assistant","model":"m","stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":2},"content":[{"type":"text","text":"a"}`,
		n: 200_000, chunk: func(int) string { return `,{"type":"text","text":""}` }, tail: `],"future":true}`}
	size := int64(len(body.head)+len(body.tail)) + 200_000*int64(len(`,{"type":"text","text":""}`))
	c := New("http://h/")
	req := httptest.NewRequest("POST", "http://h/", nil)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m, err := c.readMessage(&http.Response{Body: body, Header: http.Header{}, Request: req}, func(error) {}, nil)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Content) != MaxReplyBlocks || m.StopReason != StopSizeLimit || m.Text() != "a" || m.ID != "m" || m.Usage.OutputTokens != 2 || string(m.Extra["future"]) != "true" {
		t.Errorf("%d blocks, stop %q, text %q, id %q, usage %+v, extra %q", len(m.Content), m.StopReason, m.Text(), m.ID, m.Usage, m.Extra)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%.1f MiB allocated for a body of %.1f MiB", float64(alloc)/(1<<20), float64(size)/(1<<20))
	if alloc > uint64(8*size) {
		t.Errorf("%d bytes allocated for a body of %d", alloc, size)
	}
}
