package page

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"muse/api"
	"muse/session"
)

// bigSession returns a session of n messages as a working session holds
// them, and the bytes of their texts: prompts of a sentence or two, replies
// of about 1.3 KB with paragraphs, a list and a code block in lang ("": a
// block with no language, not highlighted).
func bigSession(n int, lang string) (*session.Session, int) {
	entries := make([]session.Entry, 0, n)
	text := 0
	para := "A paragraph of the reply with `code` in it, long enough to wrap two or three times on a screen: " +
		"most of a reply is prose that explains what the code does, why it is written so, and what to watch for when it changes. "
	for i := range n {
		if i%2 == 0 {
			t := fmt.Sprintf("Question %d: how do channels and goroutines work together in Go, when should I close a channel, and who should close it when several goroutines send on it?", i)
			text += len(t)
			entries = append(entries, session.Entry{Kind: session.KindUser, Text: t})
			continue
		}
		t := fmt.Sprintf("## Answer %d\n\n%s%s\n\n%s\n\n- the sender closes the channel, never the receiver\n- with several senders, a sync.WaitGroup and one goroutine that closes it when they are done\n\n"+
			"```"+lang+"\nfunc worker(jobs <-chan int, results chan<- int) {\n\tfor j := range jobs {\n\t\tresults <- j * %d\n\t}\n}\n```\n\n%s\n", i, para, para, para, i, para)
		text += len(t)
		entries = append(entries, session.Entry{Kind: session.KindAssistant, Message: &api.Message{Model: "claude-sonnet-4-5",
			Content: []api.ContentBlock{{Type: api.BlockText, Text: t}}, Usage: api.Usage{InputTokens: 10, OutputTokens: 40}}})
	}
	return inMemory("big session", entries...), text
}

// peakWriter counts what is written to it, and samples the heap every
// few megabytes, keeping the most it saw.
type peakWriter struct {
	n, next int
	peak    uint64
}

func (w *peakWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	if w.n >= w.next {
		w.next = w.n + 1<<20
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		w.peak = max(w.peak, ms.HeapAlloc)
	}
	return len(p), nil
}

// TestTenThousandMessages writes a page of 10,000 messages: it is whole
// and holds each of them. (Its code is not highlighted: chroma's lexers
// under -race would take a minute; BenchmarkPage10000 highlights it.)
func TestTenThousandMessages(t *testing.T) {
	sess, _ := bigSession(10_000, "")
	page := render(t, sess, Options{})
	if n := strings.Count(page, "<article "); n != 10_000 {
		t.Errorf("%d articles, want 10,000", n)
	}
	if !strings.HasSuffix(page, "</html>\n") || !strings.Contains(page, "Answer 9999") || !strings.Contains(page, "Prompts · 5000") {
		t.Error("the page is not whole")
	}
}

// TestPageSize writes a page of 1,000 messages of prose and highlighted
// code, with its table of contents: at most 1.5 times the bytes of their
// texts, the stylesheet and script included. The markup of a message does
// not grow with the session, so 1,000 stand for 10,000.
func TestPageSize(t *testing.T) {
	sess, text := bigSession(1_000, "go")
	page := render(t, sess, Options{})
	if ratio := float64(len(page)) / float64(text); ratio > 1.5 {
		t.Errorf("the page is %.2f times its text (%d bytes for %d), over 1.5", ratio, len(page), text)
	}
}

// TestFourMiBReply writes a reply of 4 MiB, prose and a code block of
// 1 MiB: the page is whole, and the long block is written as plain text,
// not highlighted.
func TestFourMiBReply(t *testing.T) {
	var b strings.Builder
	for b.Len() < 3<<20 {
		b.WriteString("A sentence of a very long reply, with **bold** and a [link](https://example.com/).\n\n")
	}
	b.WriteString("```go\n")
	for b.Len() < 4<<20 {
		b.WriteString("x := compute(1, \"two\") // three\n")
	}
	b.WriteString("```\n\nEND-OF-REPLY\n")
	sess := inMemory("long", session.Entry{Kind: session.KindUser, Text: "write a lot"},
		session.Entry{Kind: session.KindAssistant, Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: b.String()}}}})
	page := render(t, sess, Options{})
	if !strings.Contains(page, "END-OF-REPLY") || !strings.HasSuffix(page, "</html>\n") {
		t.Error("the page is not whole")
	}
	code := page[strings.LastIndex(page, "<pre><code>"):]
	if strings.Contains(code[:1<<20], "<span") {
		t.Error("a code block of 1 MiB was highlighted")
	}
}

// sameImage is the files of a session whose every image is one PNG, read
// anew each time as a store would.
type sameImage struct{ data []byte }

func (s sameImage) AttachmentPath(string, session.Attachment) string { return "" }
func (s sameImage) ReadAttachment(string, session.Attachment) ([]byte, error) {
	return append([]byte(nil), s.data...), nil
}
func (s sameImage) ReadImage(session.Image) ([]byte, error) {
	return append([]byte(nil), s.data...), nil
}

// TestFiveHundredImagesInBoundedMemory writes a page of 500 images of
// about 40 KB: some 27 MB of page, which is written as it is made, so
// that the heap never holds more than a few images' worth.
func TestFiveHundredImagesInBoundedMemory(t *testing.T) {
	img := noisePNG(t, 100, 100)
	var entries []session.Entry
	for i := range 500 {
		entries = append(entries, session.Entry{Kind: session.KindImage, ImagePrompt: fmt.Sprintf("image %d", i),
			Images: []session.Image{{Index: 0, Path: "/x.png", Width: 400, Height: 400}}})
	}
	sess := inMemory("images", entries...)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	w := &peakWriter{}
	if err := Write(w, sess, Options{Files: sameImage{img}}); err != nil {
		t.Fatal(err)
	}
	if w.n < 500*len(img) {
		t.Fatalf("a page of %d bytes for 500 images of %d", w.n, len(img))
	}
	if grew := int64(w.peak) - int64(before.HeapAlloc); grew > 12<<20 {
		t.Errorf("the heap grew by %d MB writing a page of %d MB", grew>>20, w.n>>20)
	}
	if size := float64(w.n) / float64(500*len(img)); size > 1.4 {
		t.Errorf("the page is %.2f times its images' bytes", size)
	}
}

var _ io.Writer = (*peakWriter)(nil)
