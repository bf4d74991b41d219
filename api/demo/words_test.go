package demo

import (
	"fmt"
	"strings"
	"testing"
)

// demo:words:N answers with about N words of mixed markdown, cut at
// max_tokens as every reply is; the same prompt gives the same reply.
func TestWordsReply(t *testing.T) {
	srv := newTestServer(t, Options{})
	for _, n := range []int{50, 500, 5000} {
		text := getMessage(t, srv, chat(fmt.Sprintf("measure demo:words:%d", n), map[string]any{"max_tokens": 100000})).Text()
		if got := countWords(text); got < n || got > n+200 {
			t.Errorf("demo:words:%d: %d words", n, got)
		}
		for _, want := range []string{"## Part 1", "- **", "|---|", "```go"} {
			if !strings.Contains(text, want) {
				t.Errorf("demo:words:%d lacks %q", n, want)
			}
		}
	}
	m := getMessage(t, srv, chat("demo:words:5000", map[string]any{"max_tokens": 100}))
	if m.StopReason != "max_tokens" || countWords(m.Text()) != 100 {
		t.Errorf("max_tokens 100: %s, %d words", m.StopReason, countWords(m.Text()))
	}
	for _, p := range []string{"demo:words:", "demo:words:x", "demo:words:0"} {
		if wordsWanted(p) != 0 {
			t.Errorf("%q asks for %d words", p, wordsWanted(p))
		}
	}
	if wordsWanted("demo:words:99999999") != maxWords {
		t.Error("no bound on N")
	}
}
