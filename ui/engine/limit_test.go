package engine

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"muse/api"
	"muse/session"
)

// hostile is a server that answers its first request with a reply of total
// bytes of text in deltas of size bytes, and any later one with "fine".
// It counts the bytes it wrote and the size of each request it got.
type hostile struct {
	total, size int
	written     atomic.Int64
	requests    []int // body sizes
	finished    chan error
}

const (
	startEvents = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"x\",\"content\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":0}}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
	endEvents = "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":9}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
)

func newHostile(total, size int) *hostile {
	return &hostile{total: total, size: size, finished: make(chan error, 1)}
}

func (h *hostile) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	h.requests = append(h.requests, len(body))
	w.Header().Set("Content-Type", "text/event-stream")
	if len(h.requests) > 1 {
		io.WriteString(w, startEvents+"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"fine\"}}\n\n"+endEvents)
		return
	}
	h.finished <- h.stream(w)
}

// stream writes the huge reply, and returns the error that stopped it.
func (h *hostile) stream(w io.Writer) error {
	write := func(s []byte) error {
		n, err := w.Write(s)
		h.written.Add(int64(n))
		return err
	}
	fill := bytes.Repeat([]byte("x"), 64<<10)
	if err := write([]byte(startEvents)); err != nil {
		return err
	}
	for left := h.total; left > 0; left -= h.size {
		if err := write([]byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"")); err != nil {
			return err
		}
		for n := min(h.size, left); n > 0; n -= len(fill) {
			if err := write(fill[:min(n, len(fill))]); err != nil {
				return err
			}
		}
		if err := write([]byte("\"}}\n\n")); err != nil {
			return err
		}
	}
	return write([]byte(endEvents))
}

// A server that streams 100 MB of text, in five deltas of 20 MB or in
// deltas of 1 KiB: the reply is cut at the limit, the connection closed,
// the reply saved as a finished turn that says it was cut, and why, the journal
// holds at most the limit for it (its chunks, then its entry), and the
// session goes on: it reloads without a warning and takes the next prompt.
func TestHugeReplyIsCutAndTheSessionGoesOn(t *testing.T) {
	const limit = 256 << 10
	for _, size := range []int{20_000_000, 1 << 10} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			h := newHostile(100_000_000, size)
			c := client(t, h)
			st := store(t)
			w := session.NewWriter(st, params)
			cfg := Config{Client: c, MaxReplySize: limit, CheckpointEvery: time.Nanosecond}
			var notices []string
			emit := func(ev Event) {
				if ev.Kind == Notice {
					notices = append(notices, ev.Text)
				}
			}
			res, err := Run(context.Background(), cfg, w, Turn{Prompt: "hi", Params: params}, emit, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(res.Message.Text()); got != limit || res.Message.StopReason != api.StopSizeLimit || res.Reply.Status != session.StatusComplete {
				t.Errorf("reply of %d bytes, stop %q, status %q", got, res.Message.StopReason, res.Reply.Status)
			}
			// Deltas of 1 KiB are a long answer; one of 20 MB, more than a
			// whole reply, is the server's fault, which a shorter answer
			// would not mend.
			want := api.CutNote(res.Message, limit)
			if size > limit {
				want = api.OversizedNote(limit + 64<<10)
			}
			if len(notices) != 1 || notices[0] != want || strings.Contains(notices[0], "shorter answer") == (size > limit) {
				t.Errorf("notices %q", notices)
			}
			if err := <-h.finished; err == nil {
				t.Error("the server wrote all 100 MB: the connection stayed open")
			}
			if n, err := w.Unsaved(); n != 0 || err != nil {
				t.Fatalf("unsaved %d: %v", n, err)
			}
			fi, err := os.Stat(st.Dir() + "/" + w.ID() + ".jsonl")
			if err != nil {
				t.Fatal(err)
			}
			if fi.Size() > 2*limit+64<<10 {
				t.Errorf("the journal holds %d bytes for a reply of %d", fi.Size(), limit)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}

			// The next muse opens it, and the next prompt gets its reply.
			w2, err := st.OpenWriter(w.ID())
			if err != nil {
				t.Fatal(err)
			}
			defer w2.Close()
			if ws := w2.Snapshot().Warnings; len(ws) > 0 {
				t.Errorf("warnings on open: %q", ws)
			}
			res, err = Run(context.Background(), cfg, w2, Turn{Prompt: "and now?", Params: params}, emit, nil)
			if err != nil || res.Message.Text() != "fine" {
				t.Fatalf("next prompt: %q, %v", res.Message.Text(), err)
			}
			if sent := h.requests[1]; sent > limit+16<<10 {
				t.Errorf("the next request sent %d bytes", sent)
			}
		})
	}
}

// A /continue of a reply cut at max_tokens has the room the reply left.
func TestContinueHasTheRoomLeft(t *testing.T) {
	st := store(t)
	w := session.NewWriter(st, params)
	base := strings.Repeat("y", 100<<10)
	w.Append(session.Entry{Kind: session.KindUser, Text: "hi"})
	w.Append(session.Entry{Kind: session.KindAssistant, Status: session.StatusComplete,
		Message: &api.Message{Role: api.RoleAssistant, StopReason: api.StopMaxTokens, Content: []api.ContentBlock{{Type: api.BlockText, Text: base}}}})
	c := client(t, newHostile(1<<20, 1<<10))
	cfg := Config{Client: c, MaxReplySize: 256 << 10}
	res, err := Run(context.Background(), cfg, w, Turn{Continue: true, Params: params}, func(Event) {}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := api.ContentSize(res.Message); got != 256<<10 || res.Message.StopReason != api.StopSizeLimit {
		t.Errorf("continued reply of %d bytes, stop %q", got, res.Message.StopReason)
	}
	// A reply at the limit goes on no more.
	w.Append(session.Entry{Kind: session.KindUser, Text: "again"})
	w.Append(session.Entry{Kind: session.KindAssistant, Status: session.StatusComplete,
		Message: &api.Message{Role: api.RoleAssistant, StopReason: api.StopMaxTokens, Content: []api.ContentBlock{{Type: api.BlockText, Text: strings.Repeat("z", 256<<10)}}}})
	if _, err := Run(context.Background(), cfg, w, Turn{Continue: true, Params: params}, func(Event) {}, nil); err == nil || !strings.Contains(err.Error(), "size limit") {
		t.Errorf("continue at the limit: %v", err)
	}
}

// The bytes allocated while a turn streams a 100 MB reply to the default
// limit and saves it are a bounded multiple of the limit (about three and
// four and a half times): counting, not timing. Reading the 100 MB would
// allocate 25 times the limit. The turn's clock is the test's, moving on a
// millisecond at each reading, so that its checkpoints (each a copy of the
// reply so far) come every thousand readings as the reply streams, not
// every second of a machine that may be slow: on the real clock a loaded
// machine made more of them, and the count grew with the load. The server
// runs in the same process, so the count is read once it has stopped.
func TestHugeReplyAllocations(t *testing.T) {
	for _, size := range []int{20_000_000, 1 << 10} {
		h := newHostile(100_000_000, size)
		c := client(t, h)
		w := session.NewWriter(store(t), params)
		var now atomic.Int64
		cfg := Config{Client: c,
			Now: func() time.Time { return time.Unix(0, now.Add(int64(time.Millisecond))) },
			// No ticks: the stream never stalls.
			Ticker: func(time.Duration) (<-chan time.Time, func()) { return nil, func() {} }}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := Run(context.Background(), cfg, w, Turn{Prompt: "hi", Params: params}, func(Event) {}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if werr := <-h.finished; werr == nil {
			t.Fatalf("delta %d: the server wrote the whole reply", size)
		}
		runtime.ReadMemStats(&after)
		w.Close()
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("delta %d: %.1f MiB allocated for a 4 MiB limit", size, float64(alloc)/(1<<20))
		if alloc > 7*api.DefaultMaxReplySize {
			t.Errorf("delta %d: %d bytes allocated, more than 7 times the limit", size, alloc)
		}
	}
}

// BenchmarkHugeReply streams a 100 MB reply (five deltas of 20 MB, or
// deltas of 1 KiB) through a turn, saved to a journal, and reports the peak
// of the heap above where it started (live objects and those not yet
// swept), as a multiple of the 4 MiB limit: while the reply streams, and
// over the whole turn, its save included. The server runs in the same
// process, and its buffers count.
func BenchmarkHugeReply(b *testing.B) {
	for _, size := range []int{20_000_000, 1 << 10} {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			var streamPeak, turnPeak uint64
			for range b.N {
				c := client(b, newHostile(100_000_000, size))
				st, err := session.Open(b.TempDir())
				if err != nil {
					b.Fatal(err)
				}
				w := session.NewWriter(st, params)
				runtime.GC()
				base := heapBytes()
				var top atomic.Uint64
				stop := make(chan struct{})
				sampled := make(chan struct{})
				go func() {
					defer close(sampled)
					for {
						if h := heapBytes(); h > top.Load() {
							top.Store(h)
						}
						select {
						case <-stop:
							return
						case <-time.After(100 * time.Microsecond):
						}
					}
				}()
				var streamed uint64
				emit := func(ev Event) {
					if ev.Kind == StreamEvent && ev.Stream.Type == api.EventMessageStop {
						streamed = top.Load()
					}
				}
				_, err = Run(context.Background(), Config{Client: c}, w, Turn{Prompt: "hi", Params: params}, emit, nil)
				close(stop)
				<-sampled
				w.Close()
				if err != nil {
					b.Fatal(err)
				}
				streamPeak = max(streamPeak, streamed-min(streamed, base))
				turnPeak = max(turnPeak, top.Load()-min(top.Load(), base))
			}
			b.ReportMetric(float64(streamPeak)/api.DefaultMaxReplySize, "stream-peak-x-limit")
			b.ReportMetric(float64(turnPeak)/api.DefaultMaxReplySize, "turn-peak-x-limit")
		})
	}
}

// heapBytes returns the bytes of the heap's objects, live or not yet swept.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
