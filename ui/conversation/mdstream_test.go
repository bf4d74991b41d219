package conversation

import (
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"muse/theme"
)

// longMarkdown is a mixed document: headings, paragraphs, lists (tight and
// loose), a table, fenced code with blank lines, a quote.
func longMarkdown(sections int) string {
	var b strings.Builder
	for i := 0; i < sections; i++ {
		b.WriteString("## Part " + strings.Repeat("I", i%4+1) + "\n\nSome text with **bold** and `code` that runs on for a while, long enough to wrap across lines at narrow widths.\n\n")
		b.WriteString("- first item\n- second item\n\n  continued in the second item\n- third\n\n")
		b.WriteString("1. one\n2. two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n")
		b.WriteString("```go\nfunc f() int {\n\n\treturn 1\n}\n```\n\n> a quote\n> goes on\n\nClosing words.\n\n")
	}
	return b.String()
}

func TestSafeCut(t *testing.T) {
	cases := []struct {
		text string
		want int
	}{
		{"para one\n\npara two\n", len("para one\n\n")},
		{"para one\n\npara two", len("para one\n\n")},            // "para two" may still be growing: it is a block of its own
		{"para one\n\n", 0},                                      // what comes next is not known yet
		{"term\n\n: definition\n", 0},                            // a definition goes with its term
		{"```\ncode\n\nmore\n", 0},                               // inside a fence
		{"```\ncode\n```\n\nafter\n", len("```\ncode\n```\n\n")}, // after the fence
		{"- a\n- b\n\nafter\n", 0},                               // a list may continue
		{"- a\n\n- b\n", 0},                                      // loose list
		{"| a |\n|---|\n\nx\n", 0},                               // table
		{"# h\n\n- a\n", len("# h\n\n")},                         // before a list is fine
		{"text\n\n    indented\n", len("text\n\n")},              // indented code after a closed paragraph
		{"- a\nlazy\n\n- b\n", 0},                                // a lazy line goes on the item
		{"- a\n  ```\n  x\n  ```\n\nb\n", 0},                     // the fence may be the item's
		{"```\nx\n```\n\nb", len("```\nx\n```\n\n")},             // a closed fence ends its block
		{"```x`\n\nb\n", len("```x`\n\n")},                       // not a fence: backticks in the info
	}
	for _, tc := range cases {
		if got := safeCut(tc.text, 0, nil); got != tc.want {
			t.Errorf("safeCut(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
	// Inside a fence that was split, the fence has to close first.
	fence := &openBlock{kind: fenceBlock, fence: "```"}
	if got, want := safeCut("x\n\ny\n```\n\nz", 0, fence), len("x\n\ny\n```\n\n"); got != want {
		t.Errorf("safeCut in a fence = %d, want %d", got, want)
	}
}

// TestStreamedRenderMatchesFull grows a document a few bytes at a time and
// checks that the incremental render of the whole equals a full render.
func TestStreamedRenderMatchesFull(t *testing.T) {
	th, _ := theme.New("dark", true)
	md := newMarkdown(th.Markdown, termenv.Ascii)
	text := longMarkdown(3)
	for _, width := range []int{40, 78} {
		var s mdStream
		for n := 0; n <= len(text); n += 7 {
			s.render(md, text[:n], width)
		}
		got := s.render(md, text, width)
		want := indent(md.render(text, width))
		if got != want {
			t.Errorf("width %d: streamed render differs from full render\n--- streamed\n%s\n--- full\n%s", width, got, want)
		}
		if len(s.stable) < 3 {
			t.Errorf("width %d: only %d stable chunks: the prefix is not being reused", width, len(s.stable))
		}
	}
}
