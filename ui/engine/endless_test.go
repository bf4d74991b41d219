package engine

import (
	"context"
	"errors"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"muse/api"
	"muse/session"
)

// endless is a server that answers its first request with head, then
// chunk(0), chunk(1)… up to n chunks or until the client hangs up, and any
// later one with "fine". It counts the bytes it wrote, and keeps each
// request's body.
type endless struct {
	head  string
	chunk func(i int) string
	n     int

	mu       sync.Mutex
	written  int64
	requests []string
	finished chan error // what ended the first answer: nil when all n were written
}

func newEndless(head string, n int, chunk func(i int) string) *endless {
	return &endless{head: head, chunk: chunk, n: n, finished: make(chan error, 1)}
}

func (e *endless) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	e.mu.Lock()
	e.requests = append(e.requests, string(body))
	first := len(e.requests) == 1
	e.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	if !first {
		io.WriteString(w, startEvents+"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"fine\"}}\n\n"+endEvents)
		return
	}
	e.finished <- e.stream(w)
}

func (e *endless) stream(w io.Writer) error {
	write := func(s string) error {
		n, err := io.WriteString(w, s)
		e.mu.Lock()
		e.written += int64(n)
		e.mu.Unlock()
		return err
	}
	if err := write(e.head); err != nil {
		return err
	}
	for i := range e.n {
		if err := write(e.chunk(i)); err != nil {
			return err
		}
	}
	return nil
}

// liveHeap returns the bytes of the heap's live objects, after a collection.
func liveHeap() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// nextPromptIsAnswered checks that the session goes on after a turn cut
// short: the next prompt makes a request the engine accepts (it checks each
// before sending), and gets its reply.
func nextPromptIsAnswered(t *testing.T, cfg Config, w *session.Writer, e *endless) {
	t.Helper()
	res, err := Run(context.Background(), cfg, w, Turn{Prompt: "and now?", Params: params}, func(Event) {}, nil)
	if err != nil || res.Message.Text() != "fine" {
		t.Fatalf("next prompt: %q, %v", res.Message.Text(), err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.requests) != 2 || len(e.requests[1]) > 64<<10 {
		t.Errorf("%d requests, the next of %d bytes", len(e.requests), len(e.requests[len(e.requests)-1]))
	}
}

// A server that starts blocks for ever, a byte of text each (it took 24 GB
// of muse in an hour, each block costing memory its byte did not count),
// gets a reply cut at api.MaxReplyBlocks, saved as a finished turn with a
// notice that says why and what to do; the connection is closed, the heap
// stays small, and the next prompt is answered. It offers 200,000 blocks
// (20 MB), so that without the cut the test fails rather than runs on.
func TestEndlessBlocksAreCutAndTheSessionGoesOn(t *testing.T) {
	head := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"x\",\"content\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":0}}}\n\n"
	e := newEndless(head, 200_000, func(i int) string {
		n := strconv.Itoa(i)
		return "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":" + n + ",\"content_block\":{\"type\":\"text\",\"text\":\"a\"}}\n\n" +
			"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":" + n + "}\n\n"
	})
	w := session.NewWriter(store(t), params)
	defer w.Close()
	cfg := Config{Client: client(t, e)}
	var notices []string
	emit := func(ev Event) {
		if ev.Kind == Notice {
			notices = append(notices, ev.Text)
		}
	}
	before := liveHeap()
	res, err := Run(context.Background(), cfg, w, Turn{Prompt: "hi", Params: params}, emit, nil)
	after := liveHeap()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Message.Content); n != api.MaxReplyBlocks || res.Message.StopReason != api.StopSizeLimit || res.Reply.Status != session.StatusComplete {
		t.Fatalf("%d blocks, stop %q, status %q", n, res.Message.StopReason, res.Reply.Status)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "4096 blocks") || !strings.Contains(notices[0], "check the server") {
		t.Errorf("notices %q", notices)
	}
	if err := <-e.finished; err == nil {
		t.Error("the server wrote all its blocks: the connection stayed open")
	}
	growth := after - min(after, before)
	t.Logf("the heap grew by %.1f MiB over the turn", float64(growth)/(1<<20))
	if growth > 16<<20 {
		t.Errorf("the heap grew by %d bytes for a reply of %d blocks", growth, api.MaxReplyBlocks)
	}
	runtime.KeepAlive(res)
	nextPromptIsAnswered(t, cfg, w, e)
}

// A server that sends pings for ever, as fast as it can, after some text
// ends the turn once it sent the stall size of them (1 MiB, not ten
// minutes of them at full speed): the text is kept, the error says what
// was wrong and what to do, and the next prompt is answered. It offers
// 64 MiB of pings, so that without the stall size the test fails (the
// stream is cut, not stalled) rather than runs on.
func TestPingsForEverEndTheTurn(t *testing.T) {
	ping := "event: ping\ndata: {\"type\":\"ping\"}\n\n"
	e := newEndless(startEvents+"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"so far\"}}\n\n",
		(64<<20)/len(ping), func(int) string { return ping })
	w := session.NewWriter(store(t), params)
	defer w.Close()
	cfg := Config{Client: client(t, e)}
	var added []session.Entry
	emit := func(ev Event) {
		if ev.Kind == EntryAdded {
			added = append(added, ev.Entry)
		}
	}
	res, err := Run(context.Background(), cfg, w, Turn{Prompt: "hi", Params: params}, emit, nil)
	if !errors.Is(err, api.ErrStalled) || !strings.Contains(err.Error(), "over 1 MiB of pings") {
		t.Fatalf("err = %v, want ErrStalled after 1 MiB", err)
	}
	if res.Message.Text() != "so far" || res.Reply.Status != session.StatusFailed {
		t.Errorf("reply %q, status %q", res.Message.Text(), res.Reply.Status)
	}
	if n := len(added); n == 0 || added[n-1].Kind != session.KindError || added[n-1].Error.Hint == "" {
		t.Errorf("no error entry with a hint: %+v", added)
	}
	if err := <-e.finished; err == nil {
		t.Error("the server wrote all its pings: the connection stayed open")
	}
	e.mu.Lock()
	written := e.written
	e.mu.Unlock()
	// The stall size, and what the connection's buffers took.
	if written > 16<<20 {
		t.Errorf("the server wrote %d bytes of pings", written)
	}
	nextPromptIsAnswered(t, cfg, w, e)
}
