package conversation

import (
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"muse/theme"
)

// hostileReply is 160 KB of "[a](": goldmark reads each destination to
// the end of the line, so the parse took time quadratic in its length
// (6-16 s on the chat screen, the spinner stopped). It is shown flat.
var hostileReply = strings.Repeat("[a](", 40_000)

// The chat screen shows a reply shaped to make the parser quadratic as
// the characters it holds, every one, and so does every frame of it
// streaming: each render of the tail is guarded too, not only the finished
// reply. "**_* " repeated makes goldmark's delimiters quadratic (2.5 s at
// 160 KB); rendered as markdown, its stars would become emphasis and not
// show.
func TestHostileReplyIsShownFlat(t *testing.T) {
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	md := newMarkdown(th.Markdown, termenv.Ascii)
	shown := func(s string) int { return strings.Count(strings.Join(strings.Fields(s), ""), "**_*") }
	reply := strings.Repeat("**_* ", 32_000)
	if got := shown(md.render(reply, 80)); got != 32_000 {
		t.Errorf("the render shows %d of the 32,000 **_*", got)
	}
	var s mdStream
	s.live = true
	frames := 0
	for n := 100; n <= 40_000; n += 100 { // deltas of 100 bytes
		if n%4000 == 0 {
			frames++
			got := shown(strings.Join(s.lines(md, reply[:n], 80), "\n"))
			if n >= 20_000 && got < n/5 {
				t.Fatalf("the frame at %d bytes shows %d **_*, want %d", n, got, n/5)
			}
		}
	}
	if frames != 10 {
		t.Fatalf("%d frames rendered", frames)
	}
}

// BenchmarkHostileReply renders the 160 KB reply of "[a](" on the chat
// screen, as a reply opened again does. Before the guard: 6-16 s.
func BenchmarkHostileReply(b *testing.B) {
	th, err := theme.New("dark", true)
	if err != nil {
		b.Fatal(err)
	}
	md := newMarkdown(th.Markdown, termenv.TrueColor)
	for b.Loop() {
		md.render(hostileReply, 96)
	}
}
