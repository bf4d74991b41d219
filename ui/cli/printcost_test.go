package cli

import (
	"fmt"
	"strings"
	"testing"

	"muse/api"
	"muse/ui/internal/streamtest"
	"muse/ui/sanitize"
)

// The -p printers must cost the length of a reply once, however many deltas
// it comes in: these tests count their work, never time it, at n and 4n
// words. Work that grows with the text printed so far, for every delta,
// grows about 16 times; the bound allows a little over 4.
const costWords, costGrowth = 2000, 5

// costDoc returns about n words of markdown in the shapes that keep a block
// open for long: ordinary sections, one paragraph on a single line, one
// long fenced code block and one long list.
func costDoc(n int) string {
	var b strings.Builder
	for words := 0; words < n/4; words += 30 {
		fmt.Fprintf(&b, "## Section %d\n\nA paragraph of **bold** and `code`, with words enough to wrap at eighty columns.\n\n- one\n- two\n\n", words)
	}
	for i := 0; i < n/4; i++ {
		b.WriteString("word ")
	}
	b.WriteString("\n\n```go\n")
	for i := 0; i < n/4; i += 4 {
		fmt.Fprintf(&b, "x%d := f(y, z)\n\n", i)
	}
	b.WriteString("```\n\n")
	for i := 0; i < n/4; i += 4 {
		fmt.Fprintf(&b, "- item %d of it\n", i)
	}
	b.WriteString("\nThe end.")
	return b.String()
}

// replyEvents is a streamed reply of text, a word a delta.
func replyEvents(text string) []api.Event {
	evs := []api.Event{
		{Type: api.EventMessageStart, Message: &api.Message{Role: api.RoleAssistant}},
		{Type: api.EventContentBlockStart, Index: 0, Block: &api.ContentBlock{Type: api.BlockText}},
	}
	for _, d := range streamtest.Deltas(text) {
		evs = append(evs, api.Event{Type: api.EventContentBlockDelta, Index: 0, Delta: api.Delta{Type: api.DeltaText, Text: d}})
	}
	return append(evs, api.Event{Type: api.EventContentBlockStop, Index: 0},
		api.Event{Type: api.EventMessageDelta, Delta: api.Delta{StopReason: api.StopEndTurn}},
		api.Event{Type: api.EventMessageStop})
}

// byteCount counts what is written to it, keeping nothing.
type byteCount int

func (c *byteCount) Write(p []byte) (int, error) {
	*c += byteCount(len(p))
	return len(p), nil
}

// printCost prints the reply of text with a printer made by newOut and
// returns the bytes printing allocated. The count takes the least of a few
// prints, so newOut makes a new printer, and starts its counts afresh, each
// time.
func printCost(t *testing.T, text string, newOut func() replyWriter) uint64 {
	t.Helper()
	evs := replyEvents(text)
	return streamtest.Allocated(func() {
		o := newOut()
		o.start()
		for _, ev := range evs {
			o.event(ev)
		}
		o.end()
	})
}

// assertLinear fails unless cost at 4n words is at most costGrowth times
// the cost at n, give or take slack bytes for what else the process does.
func assertLinear(t *testing.T, what string, n, n4 uint64, slack uint64) {
	t.Helper()
	t.Logf("%s: %d at %d words, %d at %d words", what, n, costWords, n4, 4*costWords)
	if n4 > costGrowth*n+slack {
		t.Errorf("%s grows %.1f times for 4 times the words (%d, then %d): more than linear", what, float64(n4)/float64(max(n, 1)), n, n4)
	}
}

// TestRawPrinterCostIsLinear: piped -p hands each delta to the output once;
// it never rebuilds the reply's text.
func TestRawPrinterCostIsLinear(t *testing.T) {
	var cost [2]uint64
	for i, words := range []int{costWords, 4 * costWords} {
		text := costDoc(words)
		var out byteCount
		cost[i] = printCost(t, text, func() replyWriter {
			out = 0
			return &textOut{w: &out, clean: sanitize.Stream{Plain: true}}
		})
		if int(out) != len(text)+1 { // and a final newline
			t.Fatalf("%d words: printed %d bytes of %d", words, out, len(text))
		}
	}
	assertLinear(t, "bytes allocated by the raw printer", cost[0], cost[1], 64<<10)
}

// TestMarkdownPrinterCostIsLinear: -p on a terminal renders each byte of
// the reply once, and allocates in proportion to the reply, whatever its
// shape (a long line, a long fence or list that keeps a block open).
func TestMarkdownPrinterCostIsLinear(t *testing.T) {
	var cost [2]uint64
	for i, words := range []int{costWords, 4 * costWords} {
		text := costDoc(words)
		var out byteCount
		rendered, renders := 0, 0
		cost[i] = printCost(t, text, func() replyWriter {
			out, rendered, renders = 0, 0, 0
			return &mdOut{w: &out, render: func(md string) string {
				rendered += len(md)
				renders++
				return md
			}}
		})
		if rendered != len(text) || renders < 10 {
			t.Fatalf("%d words: rendered %d bytes of %d in %d renders; want each byte once, block by block", words, rendered, len(text), renders)
		}
	}
	assertLinear(t, "bytes allocated by the markdown printer", cost[0], cost[1], 64<<10)
}

// TestBlockScanLooksOnce: finding where a block ends looks at each byte of
// the reply once, however it arrives, a long unfinished line included.
func TestBlockScanLooksOnce(t *testing.T) {
	for _, words := range []int{costWords, 4 * costWords} {
		text := costDoc(words)
		o := &mdOut{w: new(byteCount), render: func(md string) string { return md }}
		looked := 0
		o.start()
		for _, ev := range replyEvents(text) {
			o.event(ev)
			looked += o.scan.looked
			o.scan.looked = 0
		}
		if looked > len(text) {
			t.Errorf("%d words: looked at %d bytes for block ends in %d bytes of text", words, looked, len(text))
		}
	}
}
