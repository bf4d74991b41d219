package page

import (
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
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

// BenchmarkFirstPaint opens the page of 10,000 messages in headless
// Chromium and reports its first contentful paint, in ms from the start of
// the navigation. Target: at most 1 s.
func BenchmarkFirstPaint(b *testing.B) {
	sess, _ := bigSession(10_000, "go")
	path := filepath.Join(b.TempDir(), "page.html")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := Write(f, sess, Options{}); err != nil {
		b.Fatal(err)
	}
	f.Close()
	u := (&url.URL{Scheme: "file", Path: path}).String()
	tb := newTab(b, false)
	var total float64
	n := 0
	for b.Loop() {
		if err := chromedp.Do(tb.ctx, chromedp.Navigate(u)); err != nil {
			b.Fatal(err)
		}
		ms, err := chromedp.Run(tb.ctx, chromedp.Poll[float64](`(performance.getEntriesByName("first-contentful-paint")[0] || {}).startTime`))
		if err != nil {
			b.Fatal(err)
		}
		total += ms
		n++
	}
	b.ReportMetric(total/float64(n), "ms-first-paint")
}
