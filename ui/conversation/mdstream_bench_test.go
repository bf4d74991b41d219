package conversation

import (
	"flag"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/muesli/termenv"

	"muse/theme"
	"muse/ui/internal/streamtest"
)

var mdstreamWords = flag.Int("mdstream.words", 20000, "words in a BenchmarkMdstream reply")

// streamFenceDoc returns a reply of about n words that is one Go code fence.
func streamFenceDoc(n int) string {
	var b strings.Builder
	b.WriteString("```go\n")
	for i, words := 0, 0; words < n; i++ {
		s := fmt.Sprintf("// step%d adds the next value to the running total.\nfunc step%d(total int) int {\n\tif total > %d {\n\t\treturn total - %d\n\t}\n\treturn total + %d // keep going\n}\n\n", i, i, i*7, i, i)
		b.WriteString(s)
		words += len(strings.Fields(s))
	}
	b.WriteString("```\n")
	return b.String()
}

// streamListDoc returns a reply of about n words that is one bullet list.
func streamListDoc(n int) string {
	var b strings.Builder
	for i, words := 0, 0; words < n; i++ {
		s := fmt.Sprintf("- Point %d says that streaming text arrives word by word and must not cost more as it grows\n", i)
		b.WriteString(s)
		words += len(strings.Fields(s))
	}
	return b.String()
}

// streamMixedDoc returns a reply of about n words of headings, paragraphs,
// short lists, tables and code fences (the reply BenchmarkStreaming uses).
func streamMixedDoc(n int) string {
	var b strings.Builder
	for i, words := 0, 0; words < n; i++ {
		s := fmt.Sprintf("## Section %d\n\n", i) +
			"Streaming text arrives word by word, and the screen must keep up without redrawing everything it has already drawn before.\n\n" +
			"- first point with `code`\n- second point with **bold**\n- third point\n\n" +
			"| name | value | note |\n|---|---|---|\n| alpha | 1 | first |\n| beta | 2 | second |\n\n" +
			fmt.Sprintf("```go\nfunc section%d() int {\n\treturn %d\n}\n```\n\n", i, i)
		b.WriteString(s)
		words += len(strings.Fields(s))
	}
	return b.String()
}

// simulateStream feeds text to a streaming renderer a delta at a time on a
// simulated clock that moves pace per delta, and renders a frame whenever a
// frame interval of simulated time has passed since the last one, as the
// conversation does, and once more at the end. It returns the frames rendered
// and the last frame.
func simulateStream(md *markdown, text string, width int, pace, frame time.Duration) (int, string) {
	var s mdStream
	var now, last time.Duration
	frames := 0
	n := 0
	for _, p := range streamtest.Deltas(text) {
		n += len(p)
		now += pace
		if frames == 0 || now-last >= frame {
			s.lines(md, text[:n], width)
			last = now
			frames++
		}
	}
	frames++
	return frames, s.render(md, text, width)
}

// BenchmarkMdstream streams a 20,000-word reply that is one code fence, one
// list or a mix of blocks, at 2 ms and 20 ms a word with a frame every 33 ms
// of simulated time, and reports the frames rendered (renders), the CPU time
// a frame takes (ms/frame), the CPU time of the whole stream as a multiple of
// one glamour render of the final text (x-whole), and CPU seconds per second
// of simulated streaming (cpu-s/s). CPU time is the process's, garbage
// collection included.
func BenchmarkMdstream(b *testing.B) {
	th, err := theme.New("dark", true)
	if err != nil {
		b.Fatal(err)
	}
	const width = 96
	docs := []struct {
		name string
		text string
	}{
		{"fence", streamFenceDoc(*mdstreamWords)},
		{"list", streamListDoc(*mdstreamWords)},
		{"mixed", streamMixedDoc(*mdstreamWords)},
	}
	for _, d := range docs {
		// One glamour render of the final text, in CPU time: the best of
		// three, so the ratio errs on the strict side.
		whole := time.Duration(1<<63 - 1)
		var want string
		for k := 0; k < 3; k++ {
			runtime.GC()
			md := newMarkdown(th.Markdown, termenv.TrueColor)
			start := streamtest.CPUTime()
			want = indent(md.render(d.text, width))
			whole = min(whole, streamtest.CPUTime()-start)
		}
		for _, pace := range []time.Duration{2 * time.Millisecond, 20 * time.Millisecond} {
			b.Run(fmt.Sprintf("%s/%dms", d.name, pace.Milliseconds()), func(b *testing.B) {
				var total time.Duration
				frames := 0
				for i := 0; i < b.N; i++ {
					md := newMarkdown(th.Markdown, termenv.TrueColor)
					runtime.GC()
					start := streamtest.CPUTime()
					n, got := simulateStream(md, d.text, width, pace, 33*time.Millisecond)
					total += streamtest.CPUTime() - start
					frames += n
					if got != want {
						b.Fatalf("the streamed render differs from a whole render")
					}
				}
				streamed := time.Duration(len(streamtest.Deltas(d.text))) * pace
				b.ReportMetric(float64(frames)/float64(b.N), "renders")
				b.ReportMetric(float64(total.Microseconds())/1000/float64(frames), "ms/frame")
				b.ReportMetric(float64(total)/float64(whole)/float64(b.N), "x-whole")
				b.ReportMetric(total.Seconds()/streamed.Seconds()/float64(b.N), "cpu-s/s")
			})
		}
	}
}
