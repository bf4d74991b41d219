package cli

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/muesli/termenv"

	"muse/api/demo"
	"muse/theme"
	"muse/ui/internal/streamtest"
)

// runPrintCPU runs muse -p against srv for a reply of words words (the
// demo's demo:words:N, unpaced) and returns the process's CPU time: the
// demo server's in it, as in muse --demo.
func runPrintCPU(b *testing.B, srv *demo.Server, words int, tty bool) time.Duration {
	b.Helper()
	env := map[string]string{"MUSE_BASE_URL": srv.URL, "MUSE_ACCESS_TOKEN": demo.DefaultToken,
		"MUSE_MODEL": "demo-chat", "XDG_DATA_HOME": b.TempDir(), "TERM": "xterm-256color"}
	var out byteCount
	var errb bytes.Buffer
	e := Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return env[k] }, StdoutTTY: tty, Width: 100}
	runtime.GC()
	start := streamtest.CPUTime()
	code := Main([]string{"-p", fmt.Sprintf("demo:words:%d", words), "--max-tokens", "1000000"}, e)
	cpu := streamtest.CPUTime() - start
	if code != 0 || out < byteCount(words) {
		b.Fatalf("exit %d, %d bytes out: %s", code, out, errb.String())
	}
	return cpu
}

// BenchmarkPrintPiped runs muse -p with its output piped, through the
// engine and the session writer, for replies of 10,000 and 40,000 words.
// It reports the CPU of each (cpu-ms-10k, cpu-ms-40k) and their ratio
// (x40k), which must stay at most 5: linear, with room for noise.
func BenchmarkPrintPiped(b *testing.B) {
	srv, err := demo.Start(demo.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	var small, large time.Duration
	for i := 0; i < b.N; i++ {
		small += runPrintCPU(b, srv, 10000, false)
		large += runPrintCPU(b, srv, 40000, false)
	}
	b.ReportMetric(float64(small.Microseconds())/1000/float64(b.N), "cpu-ms-10k")
	b.ReportMetric(float64(large.Microseconds())/1000/float64(b.N), "cpu-ms-40k")
	b.ReportMetric(float64(large)/float64(small), "x40k")
}

// BenchmarkPrintRendered is -p on a terminal. mdOut/words=20000 feeds the
// markdown printer the chat screen's streaming benchmark reply (ui's
// BenchmarkStreaming: 20,000 words of mixed markdown, a word a delta) and
// reports its CPU (cpu-ms) and, as that benchmark does, the CPU as a
// multiple of one glamour render of the whole reply (cpu-x); the printer
// renders each block once, so about 1. main/words=20000 is the whole of
// muse -p at 20,000 words of demo:words:N, rendered.
func BenchmarkPrintRendered(b *testing.B) {
	th, err := theme.New("dark", true)
	if err != nil {
		b.Fatal(err)
	}
	text := streamtest.MixedMarkdown(20000)
	evs := replyEvents(text)
	b.Run("mdOut/words=20000", func(b *testing.B) {
		// One glamour render of the whole reply, the best of three.
		whole := time.Duration(1<<63 - 1)
		for k := 0; k < 3; k++ {
			o, err := newMDOut(new(byteCount), th.Markdown, termenv.TrueColor, 100)
			if err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			start := streamtest.CPUTime()
			o.render(text)
			whole = min(whole, streamtest.CPUTime()-start)
		}
		var total time.Duration
		for i := 0; i < b.N; i++ {
			o, err := newMDOut(new(byteCount), th.Markdown, termenv.TrueColor, 100)
			if err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			start := streamtest.CPUTime()
			o.start()
			for _, ev := range evs {
				o.event(ev)
			}
			o.end()
			total += streamtest.CPUTime() - start
		}
		b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "cpu-ms")
		b.ReportMetric(float64(total)/float64(b.N)/float64(whole), "cpu-x")
		b.ReportMetric(float64(whole.Microseconds())/1000, "full-render-ms")
	})
	b.Run("main/words=20000", func(b *testing.B) {
		srv, err := demo.Start(demo.Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer srv.Close()
		var total time.Duration
		for i := 0; i < b.N; i++ {
			total += runPrintCPU(b, srv, 20000, true)
		}
		b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "cpu-ms")
	})
}
