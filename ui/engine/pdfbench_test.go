package engine

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"

	"muse/session"
	"muse/ui/attach"
	"muse/ui/internal/streamtest"
)

// largePDF is a PDF of 10 pages padded with a stream to about size bytes.
func largePDF(size int) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Count 10 >>\nendobj\n")
	pad := size - b.Len() - 64
	fmt.Fprintf(&b, "3 0 obj\n<< /Length %d >>\nstream\n", pad)
	for i := 0; i < pad; i++ {
		b.WriteByte(byte('a' + i%26))
	}
	b.WriteString("\nendstream\nendobj\n%%EOF\n")
	return b.Bytes()
}

// BenchmarkSendLargePDF attaches a 20 MB PDF and sends it, as a prompt of
// muse does: the attachment prepared, the request built, checked, and
// streamed to a server that reads it whole. B/op is what it allocates
// (a different PDF each time); peak-MB is the most heap in use during one
// send above what was in use before (the PDF itself, 20 MB, is outside
// it); cpu-ms/op is the process's CPU time, which other work on a shared
// machine does not inflate.
func BenchmarkSendLargePDF(b *testing.B) {
	data := largePDF(20 << 20)
	sent := 0
	c := client(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		sent = int(n)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","model":"demo-chat","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`)
	}))
	i := 0
	send := func() {
		i++
		data[100+i%1000]++ // another PDF each time: nothing made for the last one is used again
		f, err := attach.FromBytes("big.pdf", data)
		if err != nil {
			b.Fatal(err)
		}
		w := session.NewWriter(nil, params)
		if _, err := Run(context.Background(), Config{Client: c}, w, Turn{Prompt: "read it", Attachments: []session.File{f}, Params: params}, func(Event) {}, nil); err != nil {
			b.Fatal(err)
		}
		w.Close()
	}
	peak := streamtest.PeakHeap(send)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	start := streamtest.CPUTime()
	for b.Loop() {
		send()
	}
	b.ReportMetric(float64(streamtest.CPUTime()-start)/float64(b.N)/1e6, "cpu-ms/op")
	b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
	if sent < len(data)*4/3 {
		b.Fatalf("sent %d bytes", sent)
	}
}
