package page

import (
	"strings"
	"testing"

	"muse/session"
)

// BenchmarkPage10000 writes the page of a session of 10,000 messages
// (bigSession). Target: at most 2 s; .ci/bench measures the whole command,
// with its memory.
func BenchmarkPage10000(b *testing.B) {
	sess, text := bigSession(10_000, "go")
	w := &peakWriter{}
	for b.Loop() {
		*w = peakWriter{}
		if err := Write(w, sess, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(w.n)/float64(text), "page/text")
}

// BenchmarkDeepQuotes writes the page of a reply of 200,000 nested '>':
// goldmark parses quotes in time quadratic in their depth (14 s), so text
// nested past mdwrap.MaxNest is written flat. Target: under 50 ms.
func BenchmarkDeepQuotes(b *testing.B) {
	sess := inMemory("deep", session.Entry{Kind: session.KindUser, Text: "quote me"}, textReply("m", strings.Repeat(">", 200_000)+" x\n"))
	w := &peakWriter{}
	for b.Loop() {
		*w = peakWriter{}
		if err := Write(w, sess, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
