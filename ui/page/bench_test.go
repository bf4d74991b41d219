package page

import (
	"testing"
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
