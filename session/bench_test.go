package session

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"muse/api"
)

// benchEntry returns entry number i of a benchmark session, alternating user
// prompts and assistant replies of about 300 bytes of JSON each.
func benchEntry(i int) Entry {
	id := fmt.Sprintf("e%d", i+1)
	t := clockStart.Add(time.Duration(i) * time.Second)
	if i%2 == 0 {
		return Entry{ID: id, Kind: KindUser, Time: t, Text: strings.Repeat("How do I read a file in Go? ", 8)[:200]}
	}
	p := Params{Model: "claude-sonnet-4-5", MaxTokens: 4096, Temperature: api.Float(0.7)}
	return Entry{ID: id, Kind: KindAssistant, Time: t, RequestID: "req_011CQ", LatencyMS: 1234, Params: &p,
		Message: &api.Message{ID: "msg_01", Type: "message", Role: api.RoleAssistant, Model: "claude-sonnet-4-5",
			Content:    []api.ContentBlock{{Type: api.BlockText, Text: strings.Repeat("Use os.ReadFile. ", 6)}},
			StopReason: api.StopEndTurn, Usage: api.Usage{InputTokens: 120, OutputTokens: 45}}}
}

// benchSession creates a session of n entries in s, written as the chat
// screen writes them (settings on every reply), with one sync.
func benchSession(b *testing.B, s *Store, n int) *Session {
	b.Helper()
	w := NewWriter(s, Params{Model: "claude-sonnet-4-5", MaxTokens: 4096})
	w.SetTitle(fmt.Sprintf("Session %d", n))
	entries := make([]Entry, n)
	for i := range entries {
		entries[i] = benchEntry(i)
	}
	if err := w.AppendAll(entries); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	sess, err := s.Load(w.ID())
	if err != nil {
		b.Fatal(err)
	}
	return sess
}

func BenchmarkOpen10000(b *testing.B) {
	s, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	sess := benchSession(b, s, 10000)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		got, err := s.Load(sess.ID)
		if err != nil || len(got.Entries) != 10000 {
			b.Fatal(len(got.Entries), err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
}

// BenchmarkOpenAsync10000 opens the same session as BenchmarkOpen10000 as
// the chat screen does, to its preview; the replay of the whole journal,
// in the background, is not counted.
func BenchmarkOpenAsync10000(b *testing.B) {
	s, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	sess := benchSession(b, s, 10000)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		w, preview, err := s.OpenWriterAsync(sess.ID, nil)
		if err != nil || preview.Head != sess.Head {
			b.Fatal(err)
		}
		b.StopTimer()
		w.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
}

// benchStore builds n sessions of 20 entries each with Create and Append,
// and returns their store.
func benchStore(b *testing.B, n int) *Store {
	b.Helper()
	s, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		sess, err := s.Create(Params{Model: "claude-sonnet-4-5"})
		if err != nil {
			b.Fatal(err)
		}
		for j := range 20 {
			if err := s.Append(sess, benchEntry(j)); err != nil {
				b.Fatal(err)
			}
		}
		if err := s.SetTitle(sess, fmt.Sprintf("Session %d", i)); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// BenchmarkList1000 lists 1,000 sessions of 20 entries from their
// journals, as List does without a Lister (muse lists from its index,
// muse/session/index).
func BenchmarkList1000(b *testing.B) {
	s := benchStore(b, 1000)
	for b.Loop() {
		infos, err := s.List()
		if err != nil || len(infos) != 1000 {
			b.Fatal(len(infos), err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
}

// BenchmarkAppend appends to sessions of 10 and of 10,000 entries: a
// checkpoint of a streaming reply (not synced) and a completed entry
// (synced). Both cost the same whatever the session's length.
// BenchmarkAppend writes through an open session's writer: a synced entry,
// and a streaming reply's checkpoint (which holds only the new text), in a
// session of 10 and of 10,000 entries. Both cost the same however long the
// session is.
func BenchmarkAppend(b *testing.B) {
	for _, kind := range []string{"checkpoint", "append"} {
		for _, n := range []int{10, 10000} {
			b.Run(fmt.Sprintf("%s/entries=%d", kind, n), func(b *testing.B) {
				s, err := Open(b.TempDir())
				if err != nil {
					b.Fatal(err)
				}
				w, err := s.OpenWriter(benchSession(b, s, n).ID)
				if err != nil {
					b.Fatal(err)
				}
				defer w.Close()
				e := benchEntry(1)
				e.ID = w.NewID()
				text := ""
				for b.Loop() {
					var err error
					if kind == "checkpoint" {
						text += "a few more words "
						e.Message.Content = []api.ContentBlock{{Type: api.BlockText, Text: text}}
						err = w.Checkpoint(e)
					} else {
						e.ID = ""
						_, err = w.Append(e)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
