package streamtest

import (
	"fmt"
	"strings"
)

// MixedMarkdown returns about n words of headings, paragraphs, lists,
// tables and fenced code: the reply the streaming benchmarks share, so
// their figures compare.
func MixedMarkdown(n int) string {
	var b strings.Builder
	words := 0
	for i := 0; words < n; i++ {
		fmt.Fprintf(&b, "## Section %d\n\n", i)
		b.WriteString("Streaming text arrives word by word, and the screen must keep up without redrawing everything it has already drawn before.\n\n")
		b.WriteString("- first point with `code`\n- second point with **bold**\n- third point\n\n")
		b.WriteString("| name | value | note |\n|---|---|---|\n| alpha | 1 | first |\n| beta | 2 | second |\n\n")
		fmt.Fprintf(&b, "```go\nfunc section%d() int {\n\treturn %d\n}\n```\n\n", i, i)
		words += 70
	}
	return b.String()
}
